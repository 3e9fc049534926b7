// Held-out orders of transitions (issue 18): a transition to the same state, back to a state that is
// still fading out, and a chain of interruptions that comes back to where it started, in every blend mode.
// A state has one clock; before this test a crossfade into a state that still showed in the blend
// restarted that clock under every stack entry playing it, and the Fox's head turned 1.2 rad in one frame
// (71 rad/s against the clips' own 1.6). Measured from the output poses: the largest joint angular speed
// at a frame where a transition fires must stay within the motion's own speeds.
import assert from "node:assert/strict";
import { test } from "node:test";
import { jointAngularVelocities } from "../../src/continuity/angular-velocity-jump.ts";
import { trigger } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import type { CompiledGraph } from "../../src/graph/compiled-graph.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { copyPose, createPose, type Pose } from "../../src/pose/pose.ts";
import { repoPath } from "../helpers/assets.ts";
import { specOf } from "./fixtures.ts";

const DT = 1 / 60;
const MODES = ["crossfade", "inertialize", "deadBlend"] as const;
const fox = await loadGltfFile(repoPath("examples/fox/Fox.glb"));
const skeleton = fox.skeletons[0]!;

/** Every state can go to every state (itself included) on trigger `go<State>`; M plays Survey mirrored. */
function allPairsGraph(blend: (typeof MODES)[number], duration: number): CompiledGraph {
  const states: Record<string, object> = { S0: { clip: "Survey" }, S1: { clip: "Walk" }, S2: { clip: "Run" }, M: { clip: "Survey", mirror: true } };
  const names = Object.keys(states);
  const parameters = Object.fromEntries(names.map((n) => [`go${n}`, { type: "trigger" }]));
  const transitions = names.flatMap((from) => names.map((to) => ({ from, to, conditions: [{ param: `go${to}` }], duration, blend, interruption: { source: "target" } })));
  const compiled = compileGraph(specOf({ animgraph: 1, parameters, layers: [{ name: "base", machine: { entry: "S0", states, transitions } }] }), skeleton, fox.clips, {});
  assert.ok(compiled.graph, JSON.stringify(compiled.diagnostics));
  return compiled.graph;
}

/** Output poses of 150 frames at 60 Hz with the triggers fired before the given frames. */
function play(g: CompiledGraph, triggers: ReadonlyArray<readonly [number, string]>): Pose[] {
  const inst = createInstance(g);
  const poses: Pose[] = [];
  for (let f = 0; f < 150; f++) {
    for (const [at, name] of triggers) if (at === f) trigger(inst, name);
    poses.push(copyPose(createPose(skeleton.jointCount), step(g, inst, DT).pose));
  }
  return poses;
}

/** The largest joint angular speed (rad/s) from frame f − 1 to frame f. */
function speedAt(poses: readonly Pose[], f: number): number {
  const w = new Float64Array(3 * skeleton.jointCount);
  jointAngularVelocities(w, poses[f - 1]!, poses[f]!, DT);
  let most = 0;
  for (let j = 0; j < skeleton.jointCount; j++) most = Math.max(most, Math.hypot(w[3 * j]!, w[3 * j + 1]!, w[3 * j + 2]!));
  return most;
}

const ORDERS: ReadonlyArray<readonly [string, ReadonlyArray<readonly [number, string]>]> = [
  ["the same state, three times", [[60, "goS0"], [63, "goS0"], [66, "goS0"]]],
  ["to the mirrored clip and back while it fades", [[60, "goM"], [62, "goS0"], [64, "goM"]]],
  ["an interrupted interruption three deep, back to the first state", [[60, "goS1"], [63, "goS2"], [66, "goM"], [69, "goS0"]]],
];

for (const blend of MODES) {
  for (const [name, triggers] of ORDERS) {
    test(`Fox, ${blend} 0.3 s, ${name}: no pose jump where a transition fires`, () => {
      const poses = play(allPairsGraph(blend, 0.3), triggers);
      // The motion's own speeds: the same machine left alone (Survey) and each clip's state entered by a cut.
      let own = 0;
      for (const plain of [play(allPairsGraph(blend, 0.3), []), play(allPairsGraph("crossfade", 0), [[1, "goS1"]]), play(allPairsGraph("crossfade", 0), [[1, "goS2"]])]) {
        for (let f = 3; f < plain.length; f++) own = Math.max(own, speedAt(plain, f));
      }
      for (const [at] of triggers) {
        const speed = speedAt(poses, at);
        assert.ok(speed <= 1.5 * own, `frame ${at}: a joint turns at ${speed.toFixed(2)} rad/s, the clips at most ${own.toFixed(2)}`);
        for (const v of [...poses[at]!.t, ...poses[at]!.r, ...poses[at]!.s]) assert.ok(Number.isFinite(v));
      }
    });
  }
}

test("a crossfade to the same state starts from the pose on screen and ends on the restarted state", () => {
  const g = allPairsGraph("crossfade", 0.3);
  const poses = play(g, [[60, "goS0"]]);
  const cut = play(allPairsGraph("crossfade", 0), [[60, "goS0"]]);
  const diff = (a: Pose, b: Pose): number => Math.max(...a.r.map((x, i) => Math.abs(x - b.r[i]!)));
  // The first frame is still the old pose (weight ~0) and the end is the restarted state exactly.
  assert.ok(diff(poses[60]!, poses[59]!) < 0.05, `first frame moves ${diff(poses[60]!, poses[59]!)}`);
  assert.ok(diff(poses[60 + 20]!, cut[60 + 20]!) < 1e-6, "after the fade, the restarted state plays alone");
});
