// Crowds whose graph inertializes or dead-blends: the kernel path (which keeps such machines' poses in
// its memory and evaluates them itself, src/crowd/wasm/kernel-poses.ts) writes what the JS path writes.
// test/crowd/kernel-inertial.test.ts covers each mode, interruptions, freezes and nesting.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { createCrowd, evaluateCrowd } from "../../src/crowd/index.ts";
import { loadCrowdKernelSync } from "../../src/crowd/wasm/kernel.ts";
import { setParam, trigger } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { parseGraphSpec } from "../../src/spec/parse-graph-spec.ts";
import { repoPath } from "../helpers/assets.ts";

test("robot example with inertialize / deadBlend transitions: kernel crowd = JS crowd within float32 rounding", async () => {
  const json = JSON.parse(readFileSync(repoPath("examples/robot/robot.animgraph.json"), "utf8")) as { layers: { machine: { transitions: { blend?: string }[] } }[] };
  json.layers[0]!.machine.transitions.forEach((t, i) => (t.blend = i % 3 === 0 ? "crossfade" : i % 3 === 1 ? "inertialize" : "deadBlend"));
  const spec = parseGraphSpec(parseJsonText(JSON.stringify(json), "robot.animgraph.json")).spec!;
  const gltf = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
  const graph = compileGraph(spec, gltf.skeletons[0]!, gltf.clips, { rootMotion: "auto" }).graph!;
  assert.ok(graph.machines[0]!.inertial);
  const n = 6;
  const js = createCrowd(graph, n);
  const wasm = createCrowd(graph, n, { kernel: loadCrowdKernelSync() });
  let worst = 0, inertialFrames = 0;
  for (let k = 0; k < 400; k++) {
    for (const c of [js, wasm]) for (let i = 0; i < n; i++) {
      const inst = c.instances[i]!;
      setParam(inst, "speed", ((k + 37 * i) % 240) / 40);
      if ((k + i) % 97 === 0) trigger(inst, "jump");
      if ((k + 3 * i) % 131 === 0) trigger(inst, "punch");
      if ((k + i) % 50 === 0) setParam(inst, "emote", ((k + i) / 50) % 4);
    }
    evaluateCrowd(js, k % 150 === 149 ? 0.35 : 1 / 60);
    evaluateCrowd(wasm, k % 150 === 149 ? 0.35 : 1 / 60);
    for (let i = 0; i < n; i++) {
      const a = js.poses[i]!, b = wasm.poses[i]!;
      for (let x = 0; x < a.r.length; x++) worst = Math.max(worst, Math.abs(a.r[x]! - b.r[x]!));
      const mi = js.instances[i]!.layers[0]!;
      if (mi.depth > 0 && mi.machine.transitions[mi.stack[0]!.transition]?.blend !== 0) inertialFrames++;
    }
  }
  assert.ok(inertialFrames > 100, `frames with an inertialization or dead blend running: ${inertialFrames}`);
  assert.ok(worst <= 2e-6, `rotation ${worst}`);
});

test("robot example with inertialize / deadBlend transitions: the JS crowd = each instance stepped alone, bit for bit", async () => {
  const json = JSON.parse(readFileSync(repoPath("examples/robot/robot.animgraph.json"), "utf8")) as { layers: { machine: { transitions: { blend?: string }[] } }[] };
  json.layers[0]!.machine.transitions.forEach((t, i) => (t.blend = i % 2 === 0 ? "deadBlend" : "inertialize"));
  const spec = parseGraphSpec(parseJsonText(JSON.stringify(json), "robot.animgraph.json")).spec!;
  const gltf = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
  const graph = compileGraph(spec, gltf.skeletons[0]!, gltf.clips, { rootMotion: "auto" }).graph!;
  const n = 4;
  const crowd = createCrowd(graph, n);
  const alone = Array.from({ length: n }, () => createInstance(graph));
  let deadFrames = 0;
  for (let k = 0; k < 300; k++) {
    const dt = k % 120 === 119 ? 0.35 : 1 / 60;
    for (const [i, inst] of [...crowd.instances.map((c, i) => [i, c] as const), ...alone.map((c, i) => [i, c] as const)]) {
      setParam(inst, "speed", ((k + 37 * i) % 240) / 40);
      if ((k + i) % 97 === 0) trigger(inst, "jump");
    }
    evaluateCrowd(crowd, dt);
    for (let i = 0; i < n; i++) {
      const pose = step(graph, alone[i]!, dt).pose, c = crowd.poses[i]!;
      assert.deepEqual(c.r, pose.r, `frame ${k}, character ${i}`);
      assert.deepEqual(c.t, pose.t);
      const mi = alone[i]!.layers[0]!;
      if (mi.depth > 0 && mi.machine.transitions[mi.stack[0]!.transition]?.blendName === "deadBlend") deadFrames++;
    }
  }
  assert.ok(deadFrames > 50, `frames with a dead blend running: ${deadFrames}`);
});
