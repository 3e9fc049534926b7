// Transition blend modes measured from the output poses (docs/transitions.md): the continuity figure of
// each mode on real clips, interruption continuity, and invariants on random graphs.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { createContinuityMeter } from "../../src/continuity/continuity-meter.ts";
import { jointAngularVelocities } from "../../src/continuity/angular-velocity-jump.ts";
import type { Clip } from "../../src/clip/clip.ts";
import { setParam, trigger } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import type { CompiledGraph } from "../../src/graph/compiled-graph.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { loadBvh } from "../../src/io/bvh/load-bvh.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { copyPose, createPose, type Pose } from "../../src/pose/pose.ts";
import type { Skeleton } from "../../src/skeleton/skeleton.ts";
import { HAVE_SHARED_ASSETS, repoPath, sharedAsset } from "../helpers/assets.ts";
import { SKELETON, specOf } from "./fixtures.ts";
import { CLIPS, applyCommands, frame, graphArb } from "../state-machine/random-graphs.ts";

const DT = 1 / 60;
const MODES = ["crossfade", "inertialize", "deadBlend"] as const;
type Mode = (typeof MODES)[number];

const robot = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
const fox = await loadGltfFile(repoPath("examples/fox/Fox.glb"));

interface Pair {
  readonly skeleton: Skeleton;
  readonly clips: readonly Clip[];
  readonly from: string;
  readonly to: string;
  /** Seconds into the target where it starts (one clip split in two). */
  readonly offset?: number;
}

/** A machine A → B on trigger `go` with `blend`, `duration` and the default curve (smoothstep). */
function pairGraph(p: Pair, blend: Mode, duration: number): CompiledGraph {
  const json = {
    animgraph: 1, name: "pair", parameters: { go: { type: "trigger" } },
    layers: [{ name: "base", machine: {
      entry: "A", states: { A: { clip: p.from }, B: { clip: p.to } },
      transitions: [{ from: "A", to: "B", conditions: [{ param: "go" }], duration, blend, offset: p.offset ?? 0 }],
    } }],
  };
  const compiled = compileGraph(specOf(json), p.skeleton, p.clips, {});
  assert.ok(compiled.graph, JSON.stringify(compiled.diagnostics));
  return compiled.graph;
}

/** The continuity figure of a transition fired at frame `at` (≥ 2), measured from the output poses. */
function firstFrameJump(g: CompiledGraph, at: number): number {
  return transitionJumps(g, at, 0).first;
}

/**
 * A transition fired at frame `at` (≥ 2), measured from the output poses: its first frame's jump, and the
 * largest jump over it and the `after` frames that follow (the whole transition when `after` covers its
 * duration, plus a frame or two of the target alone).
 */
function transitionJumps(g: CompiledGraph, at: number, after: number): { first: number; whole: number } {
  const inst = createInstance(g);
  const meter = createContinuityMeter(g.skeleton.jointCount);
  let first = NaN, whole = 0;
  for (let k = 0; k <= at + after; k++) {
    if (k === at) trigger(inst, "go");
    const jump = meter.push(step(g, inst, DT).pose, DT);
    if (k === at) first = jump;
    if (k >= at) whole = Math.max(whole, jump);
  }
  return { first, whole };
}

/** The jump at frame `at` when nothing fires (the motion's own). */
function ownJump(g: CompiledGraph, at: number): number {
  const inst = createInstance(g);
  const meter = createContinuityMeter(g.skeleton.jointCount);
  let jump = NaN;
  for (let k = 0; k <= at; k++) jump = meter.push(step(g, inst, DT).pose, DT);
  return jump;
}

interface ModeJumps {
  /** Per start frame, the first frame's jump (rad/s). */
  readonly first: number[];
  /** Per start frame, the largest jump over the whole transition and two frames after it. */
  readonly whole: number[];
}

/** Per mode, the jumps of transitions started at `count` successive frames from `start`. */
function jumpsOverPhases(p: Pair, duration: number, start = 60, count = 40): Record<Mode, ModeJumps> {
  const out = {} as Record<Mode, ModeJumps>;
  const after = Math.ceil(duration / DT) + 2;
  for (const mode of MODES) {
    const g = pairGraph(p, mode, duration);
    const first: number[] = [], whole: number[] = [];
    for (let f = 0; f < count; f++) {
      const j = transitionJumps(g, start + f, after);
      first.push(j.first);
      whole.push(j.whole);
    }
    out[mode] = { first, whole };
  }
  return out;
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function clipsOf(gltf: typeof robot): { skeleton: Skeleton; clips: Clip[] } {
  const skeleton = gltf.skeletons[0]!;
  return { skeleton, clips: gltf.clips.filter((c) => c.skeleton === skeleton) };
}

/**
 * The bound of issue 18: an inertialized or dead-blended transition's first frame jumps at most half as
 * much as the crossfade's started at the same frame — at every one of 40 start frames. Over the whole
 * transition a dead blend must not be worse than the crossfade either: the median over the start frames
 * of its largest frame-to-frame jump is held to the crossfade's (the clips' own keyframe jumps, identical
 * in both, dominate that figure; 1 % covers the blend weighting them a little differently).
 */
function checkPair(name: string, p: Pair, duration: number): void {
  const j = jumpsOverPhases(p, duration);
  const row = (m: Mode, k: keyof ModeJumps) => `${m} ${k}: ${j[m][k].map((x) => x.toFixed(2)).join(" ")}`;
  const detail = `${name}:\n${MODES.flatMap((m) => [row(m, "first"), row(m, "whole")]).join("\n")}`;
  for (let f = 0; f < j.crossfade.first.length; f++) {
    const cf = j.crossfade.first[f]!;
    assert.ok(Number.isFinite(cf), detail);
    assert.ok(j.inertialize.first[f]! <= 0.5 * cf + 1e-3, `inertialize at phase ${f}: ${j.inertialize.first[f]} vs crossfade ${cf}\n${detail}`);
    assert.ok(j.deadBlend.first[f]! <= 0.5 * cf + 1e-3, `deadBlend at phase ${f}: ${j.deadBlend.first[f]} vs crossfade ${cf}\n${detail}`);
  }
  const wholeRatio = median(j.deadBlend.whole.map((x, f) => x / j.crossfade.whole[f]!));
  assert.ok(wholeRatio <= 1.01, `deadBlend's largest jump over the transition: median ${wholeRatio.toFixed(3)}× the crossfade's\n${detail}`);
}

test("robot walk → run and idle → jump: inertialize and deadBlend jump ≤ 0.5× crossfade at every start frame", () => {
  const { skeleton, clips } = clipsOf(robot);
  checkPair("Walking → Running", { skeleton, clips, from: "Walking", to: "Running" }, 0.3);
  checkPair("Idle → Jump", { skeleton, clips, from: "Idle", to: "Jump" }, 0.2);
});

test("Fox survey → walk → run: inertialize and deadBlend jump ≤ 0.5× crossfade", () => {
  const { skeleton, clips } = clipsOf(fox);
  checkPair("Survey → Walk", { skeleton, clips, from: "Survey", to: "Walk" }, 0.25);
  checkPair("Walk → Run", { skeleton, clips, from: "Walk", to: "Run" }, 0.25);
});

test("CMU BVH 131_03 (120 Hz mocap), one take to a point 3 s later: inertialize and deadBlend jump ≤ 0.5× crossfade", { skip: !HAVE_SHARED_ASSETS }, () => {
  const bvh = loadBvh(sharedAsset("bvh-cmu-131/131_03.bvh"));
  assert.ok(bvh.skeleton && bvh.clip);
  const name = bvh.clip.name;
  checkPair("131_03 → 131_03 + 3 s", { skeleton: bvh.skeleton, clips: [bvh.clip], from: name, to: name, offset: 3 }, 0.3);
});

// Review of issue 18 (held-out): the docs put the shortest transition whose dead blend still halves the
// crossfade's first frame at about 0.11 s at 60 Hz; measured on the robot it is 0.16 s (0.11 s: 0.63×).
test("robot walk → run and idle → jump at 0.16 s: inertialize and deadBlend still jump ≤ 0.5× crossfade at every start frame", () => {
  const { skeleton, clips } = clipsOf(robot);
  for (const [from, to] of [["Walking", "Running"], ["Idle", "Jump"]] as const) {
    const j = jumpsOverPhases({ skeleton, clips, from, to }, 0.16);
    for (let f = 0; f < j.crossfade.first.length; f++) {
      const cf = j.crossfade.first[f]!;
      assert.ok(Number.isFinite(cf) && cf > 0, `${from} → ${to} at phase ${f}: crossfade ${cf}`);
      for (const mode of ["inertialize", "deadBlend"] as const) {
        assert.ok(j[mode].first[f]! <= 0.5 * cf, `${from} → ${to} ${mode} at phase ${f}: ${j[mode].first[f]} vs crossfade ${cf}`);
      }
    }
  }
});

test("where the clips' velocities agree no mode adds more than 1 rad/s to the motion's own jump at 60 Hz (CMU mocap, a state to a copy of itself in phase)", { skip: !HAVE_SHARED_ASSETS }, () => {
  const bvh = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh"));
  assert.ok(bvh.skeleton && bvh.clip);
  const clip = bvh.clip;
  for (const mode of MODES) {
    const json = {
      animgraph: 1, name: "same", parameters: { go: { type: "trigger" } },
      layers: [{ name: "base", machine: {
        entry: "A", states: { A: { clip: clip.name, syncGroup: "g" }, B: { clip: clip.name, syncGroup: "g" } },
        transitions: [{ from: "A", to: "B", conditions: [{ param: "go" }], duration: 0.3, blend: mode }],
      } }],
    };
    const g = compileGraph(specOf(json), bvh.skeleton, [clip], {}).graph!;
    for (const at of [61, 97, 143, 200, 311]) {
      // The mocap's own frame-to-frame velocity change (over 1 rad/s at some frames: fingers, noise) is
      // the same with or without the transition; the transition's part is the difference.
      const jump = firstFrameJump(g, at);
      const natural = ownJump(g, at);
      assert.ok(jump - natural <= 1, `${mode} at frame ${at}: ${jump} rad/s, the clip alone ${natural}`);
    }
  }
});

/** Largest joint angular speed (rad/s) over the frame a → b. */
function angularSpeed(a: Pose, b: Pose, w: Float64Array): number {
  jointAngularVelocities(w, a, b, DT);
  let m = 0;
  for (let j = 0; j < w.length / 3; j++) m = Math.max(m, Math.hypot(w[3 * j]!, w[3 * j + 1]!, w[3 * j + 2]!));
  return m;
}

test("interrupting a transition, and interrupting that one, in any mode, never jumps the pose", () => {
  const { skeleton, clips } = clipsOf(robot);
  const machineOf = (first: Mode, second: Mode, third: Mode) => ({
    entry: "Walk",
    states: { Walk: { clip: "Walking" }, Run: { clip: "Running" }, Idle: { clip: "Idle" }, Jump: { clip: "Jump" } },
    transitions: [
      { from: "Walk", to: "Run", conditions: [{ param: "a" }], duration: 0.4, blend: first, interruption: { source: "target" } },
      { from: "Run", to: "Idle", conditions: [{ param: "b" }], duration: 0.4, blend: second, interruption: { source: "target" } },
      { from: "Idle", to: "Jump", conditions: [{ param: "c" }], duration: 0.4, blend: third },
    ],
  });
  const w = new Float64Array(3 * skeleton.jointCount);
  for (const first of MODES) for (const second of MODES) for (const third of MODES) {
    const json = { animgraph: 1, name: "i", parameters: { a: { type: "trigger" }, b: { type: "trigger" }, c: { type: "trigger" } }, layers: [{ name: "base", machine: machineOf(first, second, third) }] };
    const g = compileGraph(specOf(json), skeleton, clips, {}).graph!;
    const inst = createInstance(g);
    const prev = createPose(skeleton.jointCount);
    const speeds: number[] = [];
    const at = { a: 40, b: 52, c: 60 };
    for (let k = 0; k < 90; k++) {
      if (k === at.a) trigger(inst, "a");
      if (k === at.b) trigger(inst, "b");
      if (k === at.c) trigger(inst, "c");
      const pose = step(g, inst, DT).pose;
      if (k > 0) speeds.push(angularSpeed(prev, pose, w));
      copyPose(prev, pose);
    }
    // speeds[k − 1] is the frame k − 1 → k. At each interruption the fastest joint turns no faster
    // than the fastest turn in the ten frames before (with a margin): a pose jump would show as one
    // frame turning far faster.
    const stack = g.machines[0]!;
    assert.equal(stack.transitions.length, 3);
    for (const k of [at.b, at.c]) {
      const before = Math.max(...speeds.slice(k - 11, k - 1));
      const now = speeds[k - 1]!;
      assert.ok(now <= 1.25 * before + 0.5, `${first}/${second}/${third}: frame ${k} turns at ${now.toFixed(2)} rad/s, the ten before at most ${before.toFixed(2)}`);
    }
    assert.equal(inst.layers[0]!.current, 3, "ends in Jump");
  }
});

test("an inertialization ends on the target exactly; a dead blend too", () => {
  const { skeleton, clips } = clipsOf(robot);
  for (const mode of ["inertialize", "deadBlend"] as const) {
    const g = pairGraph({ skeleton, clips, from: "Walking", to: "Running" }, mode, 0.25);
    const ref = pairGraph({ skeleton, clips, from: "Walking", to: "Running" }, "crossfade", 0.25);
    const a = createInstance(g), b = createInstance(ref);
    for (let k = 0; k < 80; k++) {
      if (k === 20) {
        trigger(a, "go");
        trigger(b, "go");
      }
      const pa = step(g, a, DT).pose, pb = step(ref, b, DT).pose;
      // From the frame after the duration on, both play the target alone: the same bytes.
      if (k >= 20 + Math.ceil(0.25 / DT) + 1) {
        assert.deepEqual(pa.r, pb.r, `${mode} frame ${k}`);
        assert.deepEqual(pa.t, pb.t);
      }
    }
  }
});

/** Random graphs with each transition's blend drawn from the three modes. */
const blendedGraphArb = graphArb.chain((g) => fc.array(fc.constantFrom(...MODES), { minLength: 10, maxLength: 10 }).map((blends) => {
  const json = structuredClone(g.json) as { layers: { machine: { transitions: { blend?: string }[] } }[] };
  for (const l of json.layers) l.machine.transitions.forEach((t, i) => (t.blend = blends[i]!));
  return { ...g, json };
}));

test("property: with any blend modes, weights sum to 1, rotations stay unit, nothing is NaN, and the same inputs give the same bytes", () => {
  fc.assert(
    fc.property(blendedGraphArb, fc.array(frame, { minLength: 1, maxLength: 40 }), ({ json, options, names }, frames) => {
      const compiled = compileGraph(specOf(json), SKELETON, CLIPS, options);
      fc.pre(compiled.graph !== undefined);
      const g = compiled.graph!;
      const a = createInstance(g), b = createInstance(g);
      for (const { dt, commands } of frames) {
        applyCommands(a, commands, names);
        applyCommands(b, commands, names);
        const pa = step(g, a, dt).pose, pb = step(g, b, dt).pose;
        assert.deepEqual(pa.r, pb.r);
        assert.deepEqual(pa.t, pb.t);
        for (const mi of a.machines) {
          let sum = mi.frozenWeight;
          for (const w of mi.stateWeight) sum += w;
          assert.ok(Math.abs(sum - 1) < 1e-9, `weights sum to ${sum}`);
        }
        for (const arr of [pa.t, pa.r, pa.s]) for (const v of arr) assert.ok(Number.isFinite(v), "no NaN");
        for (let j = 0; j < pa.jointCount; j++) {
          const n = Math.hypot(pa.r[4 * j]!, pa.r[4 * j + 1]!, pa.r[4 * j + 2]!, pa.r[4 * j + 3]!);
          assert.ok(Math.abs(n - 1) < 1e-4, `|q| = ${n}`);
        }
      }
    }),
    { numRuns: 120 },
  );
});

test("property: a machine that could inertialize but only crossfades gives the crossfade's bytes", () => {
  fc.assert(
    fc.property(graphArb, fc.array(frame, { minLength: 1, maxLength: 30 }), ({ json, options, names }, frames) => {
      const plain = compileGraph(specOf(json), SKELETON, CLIPS, options);
      fc.pre(plain.graph !== undefined);
      // The same graph plus an inertialized transition on a trigger nothing sets: the machine now keeps
      // its output history, and must still crossfade bit for bit.
      const withInertial = structuredClone(json) as { parameters: Record<string, unknown>; layers: { machine: { entry: string; transitions: unknown[] } }[] };
      withInertial.parameters = { ...withInertial.parameters, never: { type: "trigger" } };
      for (const l of withInertial.layers) l.machine.transitions.push({ from: "*", to: l.machine.entry, conditions: [{ param: "never" }], duration: 0.2, blend: "inertialize" });
      const other = compileGraph(specOf(withInertial), SKELETON, CLIPS, options);
      fc.pre(other.graph !== undefined);
      assert.ok(other.graph!.machines[0]!.inertial);
      const a = createInstance(plain.graph!), b = createInstance(other.graph!);
      for (const { dt, commands } of frames) {
        // Triggers and travel aside: travel plans a path over transitions, and the added one is a path.
        const cmds = commands.filter((c) => c.kind !== "t" && c.kind !== "travel");
        applyCommands(a, cmds, names);
        applyCommands(b, cmds, names);
        const pa: Pose = step(plain.graph!, a, dt).pose, pb: Pose = step(other.graph!, b, dt).pose;
        assert.deepEqual(pb.r, pa.r);
        assert.deepEqual(pb.t, pa.t);
        assert.deepEqual(pb.s, pa.s);
      }
    }),
    { numRuns: 100 },
  );
});

void setParam;
