// An inertializing machine keeps its last two outputs by how they were made when they are a plain clip's
// sample, alone or under the offset (step.ts, rememberOutput), and replays them when a transition needs
// them. The same graph with each clip state written as a one-child blend (same sample, same bits, but
// not a plain clip) keeps every output as a copied pose: the two must write the same bits in every frame,
// through transitions that interrupt each other, stale histories and both inertial modes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { setParam } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import type { CompiledGraph } from "../../src/graph/compiled-graph.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { parseGraphSpec } from "../../src/spec/parse-graph-spec.ts";
import { repoPath } from "../helpers/assets.ts";

const gltf = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));

function graph(asBlends: boolean, blends: readonly string[]): CompiledGraph {
  const state = (clip: string): object => (asBlends ? { blend1d: { param: "speed", sync: false, children: [{ at: 0, clip }] } } : { clip });
  const names = ["Walking", "Running", "Idle"];
  const transitions = [];
  for (let a = 0; a < 3; a++) {
    for (let b = 0; b < 3; b++) {
      if (a === b) continue;
      const blend = blends[(a + 2 * b) % blends.length]!;
      transitions.push({ from: names[a], to: names[b], conditions: [{ param: "target", op: "==", value: b }], duration: 0.2 + 0.05 * a, blend });
    }
  }
  const json = {
    animgraph: 1, name: "history", parameters: { speed: { type: "float", default: 0 }, target: { type: "int", default: 0 } },
    layers: [{ name: "base", machine: { entry: "Walking", states: Object.fromEntries(names.map((n) => [n, state(n)])), transitions } }],
  };
  const parsed = parseGraphSpec(parseJsonText(JSON.stringify(json), "history.animgraph.json"));
  assert.ok(parsed.spec, JSON.stringify(parsed.diagnostics));
  const compiled = compileGraph(parsed.spec, gltf.skeletons[0]!, gltf.clips, {});
  assert.ok(compiled.graph, JSON.stringify(compiled.diagnostics));
  return compiled.graph;
}

for (const [blends, recipes] of [[["inertialize"], 300], [["inertialize", "deadBlend", "crossfade"], 50]] as const) {
  test(`replayed output history = copied output history, bit for bit (${blends.join(", ")})`, () => {
    const clips = graph(false, blends), asBlends = graph(true, blends);
    const a = createInstance(clips), b = createInstance(asBlends);
    let replayable = 0, transitions = 0;
    for (let k = 0; k < 900; k++) {
      // Turns every 3 to 23 frames (often mid-transition), and now and then a step long enough to make the
      // history stale.
      const target = Math.floor(k / (3 + ((k * 7) % 21))) % 3;
      const dt = k % 97 === 96 ? 0.35 : 1 / 60;
      for (const inst of [a, b]) setParam(inst, "target", target);
      const pa = step(clips, a, dt), pb = step(asBlends, b, dt);
      transitions += pa.transitionsFired;
      assert.deepEqual(pa.pose, pb.pose, `frame ${k}`);
      const ine = a.layers[0]!.inertial!;
      if (ine.recipes[0]! >= 0) replayable++;
      assert.ok(b.layers[0]!.inertial!.recipes[0]! < 0, "a blend state's output is copied");
    }
    assert.ok(transitions > 60, `transitions: ${transitions}`);
    assert.ok(replayable > recipes, `frames whose output was kept as a recipe: ${replayable}`);
  });
}
