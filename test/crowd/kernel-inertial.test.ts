// Inertialize and deadBlend on the WebAssembly crowd kernel (src/crowd/wasm/kernel-poses.ts,
// assembly/inertial.ts): a kernel crowd keeps such machines' history, capture, offsets and frozen pose
// in its own memory and evaluates the target only, and its output must be the JS crowd's (the reference,
// step.ts) within the tolerance the crossfade kernel tests use (test/crowd/wasm-crowd.test.ts).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { createCrowd, evaluateCrowd, type Crowd } from "../../src/crowd/index.ts";
import { loadCrowdKernelSync } from "../../src/crowd/wasm/kernel.ts";
import type { KernelPoses } from "../../src/crowd/wasm/kernel-poses.ts";
import { readSlot } from "../../src/crowd/wasm/slot-layout.ts";
import { OP } from "../../src/crowd/wasm/wasm-crowd.ts";
import { createPose } from "../../src/pose/pose.ts";
import { setParam, trigger } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import type { CompiledGraph, RuntimeOptions } from "../../src/graph/compiled-graph.ts";
import { step } from "../../src/graph/step.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { parseGraphSpec } from "../../src/spec/parse-graph-spec.ts";
import { repoPath } from "../helpers/assets.ts";

const kernel = loadCrowdKernelSync();
const gltf = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
const MODES = ["crossfade", "inertialize", "deadBlend"] as const;

function compile(json: unknown, options: RuntimeOptions = {}): CompiledGraph {
  const parsed = parseGraphSpec(parseJsonText(JSON.stringify(json), "kernel-inertial.animgraph.json"));
  assert.ok(parsed.spec, JSON.stringify(parsed.diagnostics));
  const compiled = compileGraph(parsed.spec, gltf.skeletons[0]!, gltf.clips, { rootMotion: "auto", ...options });
  assert.ok(compiled.graph, JSON.stringify(compiled.diagnostics));
  return compiled.graph;
}

/** The robot example with transition i's blend chosen by `blendOf(i)` (both layers). */
function robotWith(blendOf: (i: number) => string): CompiledGraph {
  const json = JSON.parse(readFileSync(repoPath("examples/robot/robot.animgraph.json"), "utf8")) as { layers: { machine: { transitions: { blend?: string }[] } }[] };
  for (const l of json.layers) l.machine.transitions.forEach((t, i) => (t.blend = blendOf(i)));
  return compile(json);
}

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    if (!(d <= m)) m = Number.isNaN(d) ? Infinity : d;
  }
  return m;
}

/** Counts the kernel commands a crowd runs, by opcode (wraps its `run` export). */
function countCommands(crowd: Crowd): Map<number, number> {
  const w = crowd.wasm!;
  const counts = new Map<number, number>();
  const run = w.exports.run;
  (w as { exports: typeof w.exports }).exports = {
    ...w.exports,
    run: (at: number): number => {
      for (let q = at >> 2; w.i32[q] !== OP.end; q += 8) counts.set(w.i32[q]!, (counts.get(w.i32[q]!) ?? 0) + 1);
      return run(at);
    },
  };
  return counts;
}

interface Worst { r: number; t: number; s: number; model: number; root: number; inertialFrames: number; interrupted: number }

/**
 * Runs one script on a JS crowd and a kernel crowd of `graph`; returns the largest differences, the
 * character-frames with an inertialization or dead blend running and the interruptions of one.
 */
function compare(graph: CompiledGraph, n: number, frames: number, drive: (c: Crowd, i: number, k: number) => void, dtOf: (k: number) => number): Worst & { counts: Map<number, number> } {
  const js = createCrowd(graph, n);
  const wasm = createCrowd(graph, n, { kernel });
  const counts = countCommands(wasm);
  const worst: Worst = { r: 0, t: 0, s: 0, model: 0, root: 0, inertialFrames: 0, interrupted: 0 };
  for (let k = 0; k < frames; k++) {
    for (let i = 0; i < n; i++) {
      drive(js, i, k);
      drive(wasm, i, k);
    }
    evaluateCrowd(js, dtOf(k));
    evaluateCrowd(wasm, dtOf(k));
    for (let i = 0; i < n; i++) {
      const a = js.poses[i]!, b = wasm.poses[i]!;
      worst.r = Math.max(worst.r, maxDiff(a.r, b.r));
      worst.t = Math.max(worst.t, maxDiff(a.t, b.t));
      worst.s = Math.max(worst.s, maxDiff(a.s, b.s));
      const ra = js.instances[i]!.result, rb = wasm.instances[i]!.result;
      worst.root = Math.max(worst.root, maxDiff(ra.rootDelta, rb.rootDelta));
      assert.equal(rb.events.count, ra.events.count, `events of character ${i} at frame ${k}`);
      for (const mi of js.instances[i]!.machines) {
        if (mi.depth > 0 && mi.stack[0]!.transition >= 0 && mi.machine.transitions[mi.stack[0]!.transition]!.blend !== 0) worst.inertialFrames++;
      }
      for (let e = 0; e < ra.events.count; e++) {
        const ev = ra.events.items[e]!;
        if (ev.type === "transitionInterrupted" && ev.transition >= 0) {
          const mi = js.instances[i]!.machines[ev.machine]!;
          if (mi.machine.transitions[ev.transition]!.blend !== 0) worst.interrupted++;
        }
      }
    }
    worst.model = Math.max(worst.model, maxDiff(js.model, wasm.model));
  }
  // Where the kernel keeps the poses, the instances' InertialStates hold none (a JS evaluation would write them).
  for (const inst of wasm.instances) for (const mi of inst.machines) if (mi.inertial && inst.keeper?.keeps(mi)) assert.equal(mi.inertial.last.jointCount, 0);
  return { ...worst, counts };
}

/**
 * The crossfade kernel's tolerances (test/crowd/wasm-crowd.test.ts, robot example). `scale` is wider only
 * where asked: a capture extrapolates the history's velocity, and the kernel's history and the JS one
 * differ by float32 rounding; the robot's clips leave scales at 1 ± 1 ulp, so a one-ulp difference
 * (1.2e-7) between two outputs is a velocity of 7e-6/s at 60 Hz, which a dead blend started in a 0.3 s
 * frame spike carries 0.3 s far: 2.3e-6 (measured), and model matrices, which multiply scales down the
 * hierarchy, 1.1e-5 where the crossfade kernel's bound is 1e-5.
 */
function assertWithinCrossfadeTolerance(w: Worst, label: string, scale = 2e-6, model = 1e-5): void {
  assert.ok(w.r <= 2e-6, `${label}: rotation ${w.r}`);
  assert.ok(w.t <= 1e-5, `${label}: translation ${w.t}`);
  assert.ok(w.s <= scale, `${label}: scale ${w.s}`);
  assert.ok(w.model <= model, `${label}: model ${w.model}`);
  assert.equal(w.root, 0, `${label}: root motion comes from the JS graph logic on both paths`);
}

const driveRobot = (c: Crowd, i: number, k: number): void => {
  const inst = c.instances[i]!;
  setParam(inst, "speed", ((k + 37 * i) % 240) / 40);
  if ((k + i) % 97 === 0) trigger(inst, "jump");
  if ((k + 3 * i) % 131 === 0) trigger(inst, "punch");
  if ((k + i) % 50 === 0) setParam(inst, "emote", ((k + i) / 50) % 4);
  if ((k + i) % 70 === 0) setParam(inst, "emoteWeight", ((k + i) / 70) % 2 === 0 ? 0.5 : 1);
};
const robotDt = (k: number): number => (k % 150 === 149 ? 0.35 : 1 / 60);

for (const mode of ["inertialize", "deadBlend", "mixed"] as const) {
  test(`robot example, ${mode === "mixed" ? "crossfade, inertialize and deadBlend mixed" : `every transition ${mode}`}: kernel crowd = JS crowd within the crossfade kernel's tolerance, target-only evaluation in the kernel`, () => {
    const graph = robotWith((i) => (mode === "mixed" ? MODES[i % 3]! : mode));
    const w = compare(graph, 8, 500, driveRobot, robotDt);
    console.log(`${mode}: max |Δ| rotation ${w.r.toExponential(2)}, translation ${w.t.toExponential(2)}, scale ${w.s.toExponential(2)}, model ${w.model.toExponential(2)}; ${w.inertialFrames} character-frames mid-transition, ${w.interrupted} interrupted`);
    assertWithinCrossfadeTolerance(w, mode);
    assert.ok(w.inertialFrames > 300, `character-frames with an inertialization or dead blend running: ${w.inertialFrames}`);
    assert.ok(w.interrupted > 5, `inertializations / dead blends interrupted: ${w.interrupted}`);
    if (mode !== "deadBlend") {
      assert.ok((w.counts.get(OP.offset) ?? 0) + (w.counts.get(OP.packedOffset) ?? 0) > 300, "the kernel added the offsets");
      assert.ok((w.counts.get(OP.packedOffset) ?? 0) > 300, "mid-transition, from their packed records");
      assert.ok((w.counts.get(OP.difference) ?? 0) > 0, "the kernel took the differences");
    }
    if (mode !== "inertialize") {
      assert.ok((w.counts.get(OP.extrapolate) ?? 0) > 300, "the kernel extrapolated the sources");
      assert.ok((w.counts.get(OP.deadBlend) ?? 0) > 300, "the kernel blended from them");
    }
    assert.equal(w.counts.get(OP.load) ?? 0, 0, "no pose was evaluated in JS and loaded");
  });
}

test("interruptions mid-transition in a kernel crowd: freezes, a full transition stack (collapse), and an inertializing machine nested in a crossfading one", () => {
  // Base machine: crossfades only, some freezing what they interrupt; its state N is a nested machine
  // that inertializes and dead-blends. Every transition can be interrupted; the stack holds 2.
  const pick = { type: "int", default: 0, min: 0, max: 3 };
  const to = (state: string, k: number, blend: string, freeze: boolean, duration: number): unknown => ({
    from: "*", to: state, conditions: [{ param: "pick", op: "==", value: k }], duration, blend,
    interruption: { source: "targetThenSource", freeze },
  });
  const nested = (second: string) => ({
    entry: "X", states: { X: { clip: "Walking" }, Y: { clip: "Running" }, Z: { clip: "Jump" } },
    transitions: [
      { from: "*", to: "X", conditions: [{ param: "inner", op: "==", value: 0 }], duration: 0.4, blend: "inertialize", interruption: { source: "targetThenSource" } },
      { from: "*", to: "Y", conditions: [{ param: "inner", op: "==", value: 1 }], duration: 0.3, blend: second, interruption: { source: "targetThenSource" } },
      { from: "*", to: "Z", conditions: [{ param: "inner", op: "==", value: 2 }], duration: 0.25, blend: "inertialize", interruption: { source: "targetThenSource" } },
    ],
  });
  const spec = (baseBlend: (k: number) => string, nestedSecond = "inertialize") => ({
    animgraph: 1, name: "interruptions", parameters: { pick, inner: { type: "int", default: 0, min: 0, max: 2 } },
    layers: [{ name: "base", machine: {
      entry: "A", states: { A: { clip: "Idle" }, B: { clip: "Walking" }, C: { clip: "Running" }, N: { machine: nested(nestedSecond) } },
      transitions: [to("A", 0, baseBlend(0), true, 0.3), to("B", 1, baseBlend(1), false, 0.35), to("C", 2, baseBlend(2), true, 0.25), to("N", 3, baseBlend(3), false, 0.3)],
    } }],
  });
  const drive = (c: Crowd, i: number, k: number): void => {
    const inst = c.instances[i]!;
    // Every few frames a new target: transitions interrupt one another mid-way, several deep.
    if ((k + 5 * i) % 7 === 0) setParam(inst, "pick", (k * 7 + i * 3 + (k >> 3)) % 4);
    if ((k + 3 * i) % 9 === 0) setParam(inst, "inner", (k + i + (k >> 4)) % 3);
  };
  const dt = (k: number): number => (k % 60 === 59 ? 0.3 : 1 / 60);
  const crossfadeBase = compile(spec(() => "crossfade"), { maxStackDepth: 2 });
  assert.equal(crossfadeBase.machines[0]!.inertial, false);
  const inertialBase = compile(spec((k) => (k % 2 === 0 ? "inertialize" : "crossfade")), { maxStackDepth: 2 });
  const mixedBase = compile(spec((k) => MODES[k % 3]!, "deadBlend"), { maxStackDepth: 2 });
  for (const [label, graph] of [["crossfading base", crossfadeBase], ["inertializing base", inertialBase], ["mixed base", mixedBase]] as const) {
    const w = compare(graph, 6, 400, drive, dt);
    // The rotation bound, 2e-6, as a budget (measured 6.6e-7, 9.5e-7 and 1.37e-6 for the three bases).
    // - The difference the crossfade kernel itself leaves: at most the crossfading base's 6.6e-7 (its
    //   nested machine inertializes too, so this part is over-counted).
    // - An inertialization amplifies a difference in velocity. Its offset is x₀·h₀(u) + v₀·D·h₁(u)
    //   (src/blend/pose-offset.ts), with v₀ the change between the last two output poses over their
    //   Δt = 1/60 s, and h₁ peaks at 16/81 (u = 1/3). A difference δ between the two paths' frame-to-frame
    //   changes therefore reaches the output as δ·(16/81)·D/Δt = 4.74·δ for this graph's longest
    //   transition (D = 0.4 s). Each path stores its poses in float32, so δ is at least a few ulps of a
    //   quaternion component: 2 ulps (2·2⁻²⁴ ≈ 1.2e-7, half an ulp off on each of two poses per path)
    //   from storage alone, plus the kernel's float32 arithmetic that is not the same from one frame to
    //   the next.
    // - 2e-6 = 6.6e-7 + 4.74·δ leaves δ ≤ 2.8e-7, 4.7 ulps; the mixed base's 1.37e-6 is δ ≈ 2.5 ulps.
    //   The frame spikes do not enter: with spikes of 1/60, 0.1, 0.3 and 0.6 s the mixed base measured
    //   1.13e-6, 1.55e-6, 1.37e-6 and 1.22e-6 (the same transitions start in ordinary frames).
    console.log(`${label}: max |Δ| rotation ${w.r.toExponential(2)}, translation ${w.t.toExponential(2)}, scale ${w.s.toExponential(2)}, model ${w.model.toExponential(2)}; ${w.inertialFrames} mid-transition, ${w.interrupted} interrupted`);
    assertWithinCrossfadeTolerance(w, label, 4e-6, 2e-5);
    assert.ok(w.interrupted > 20, `${label}: inertializations / dead blends interrupted: ${w.interrupted}`);
    // A kept base freezes into the kernel's frozen pose; a crossfading machine's frozen pose is JS's (loaded).
    if (graph !== crossfadeBase) assert.equal(w.counts.get(OP.load) ?? 0, 0, `${label}: no pose evaluated in JS`);
  }
});

test("step() on a kernel crowd's instance evaluates its kept machines in the kernel and gives the JS pose", () => {
  const graph = robotWith((i) => MODES[(i + 1) % 3]!);
  const js = createCrowd(graph, 2);
  const wasm = createCrowd(graph, 2, { kernel });
  let worst = 0;
  for (let k = 0; k < 200; k++) {
    for (const c of [js, wasm]) {
      driveRobot(c, 0, k);
      step(graph, c.instances[0]!, 1 / 60);
    }
    worst = Math.max(worst, maxDiff(js.poses[0]!.r, wasm.poses[0]!.r));
  }
  assert.ok(worst <= 2e-6, `rotation ${worst}`);
});

test("a kernel crowd remembers an inertializing machine's outputs by their commands: no pose written per frame, and a capture replays the last output bit for bit", () => {
  // One layer, Walking ⇄ Running every 19 frames, each character out of phase: most frames are mid-transition.
  const blend = "inertialize";
  const graph = compile({
    animgraph: 1, name: "replay", parameters: { speed: { type: "float", default: 0 } },
    layers: [{ name: "base", machine: {
      entry: "Walk", states: { Walk: { clip: "Walking" }, Run: { clip: "Running" } },
      transitions: [
        { from: "Walk", to: "Run", conditions: [{ param: "speed", op: ">", value: 1 }], duration: 0.3, blend },
        { from: "Run", to: "Walk", conditions: [{ param: "speed", op: "<", value: 1 }], duration: 0.3, blend },
      ],
    } }],
  });
  const n = 12;
  const crowd = createCrowd(graph, n, { kernel });
  const w = crowd.wasm!;
  const counts = countCommands(crowd);
  const keeper = crowd.instances[0]!.keeper as KernelPoses;
  const previous = crowd.poses.map((p) => ({ t: new Float32Array(p.t.length), r: new Float32Array(p.r.length), s: new Float32Array(p.s.length) }));
  const source = createPose(graph.skeleton.jointCount);
  // The history's own pose slots (the int32 at a block's entries, and ENTRY = 8 further): filled with a
  // pattern that no pose has; only outputs a recipe cannot replay are written there.
  const slotFloats = 40 * Math.ceil(graph.skeleton.jointCount / 4);
  const ownSlots = crowd.instances.flatMap((inst) => {
    const b = (inst.keeper as KernelPoses).blocks[0]!;
    return [w.i32[b.entries]! >> 2, w.i32[b.entries + 8]! >> 2];
  });
  for (const at of ownSlots) w.i32.fill(0x7fc0dead, at, at + slotFloats);
  let captures = 0, frames = 0;
  for (let k = 0; k < 200; k++) {
    for (let i = 0; i < n; i++) if ((k + 7 * i) % 19 === 0) setParam(crowd.instances[i]!, "speed", crowd.instances[i]!.params[0]! > 1 ? 0 : 3);
    counts.clear();
    evaluateCrowd(crowd, 1 / 60);
    let started = 0;
    for (let i = 0; i < n; i++) {
      const inst = crowd.instances[i]!;
      const events = inst.result.events;
      let fired = false;
      for (let e = 0; e < events.count; e++) fired ||= events.items[e]!.type === "transitionStarted";
      if (fired && k > 0) {
        // The captured source is the last frame's output, rebuilt by replaying its commands: same bits.
        readSlot(source, w.f32, (inst.keeper as KernelPoses).blocks[0]!.sourceAt >> 2);
        assert.deepEqual([source.t, source.r, source.s].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("hex")), [previous[i]!.t, previous[i]!.r, previous[i]!.s].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("hex")), `character ${i}, frame ${k}`);
        captures++;
      }
      if (fired) started++;
      previous[i]!.t.set(crowd.poses[i]!.t); previous[i]!.r.set(crowd.poses[i]!.r); previous[i]!.s.set(crowd.poses[i]!.s);
    }
    // Pose copies only where transitions start (the captured source, the target at the origin).
    if (k > 20) {
      assert.ok((counts.get(OP.copy) ?? 0) <= 2 * started, `frame ${k}: ${counts.get(OP.copy) ?? 0} copies for ${started} transition starts`);
      frames++;
    }
  }
  assert.ok(keeper.blocks[0] !== null);
  for (const at of ownSlots) assert.ok(w.i32.subarray(at, at + slotFloats).every((v) => v === 0x7fc0dead), "no output was written to the history's pose slots");
  assert.ok(captures > 100 && frames > 150, `${captures} captures checked`);
});
