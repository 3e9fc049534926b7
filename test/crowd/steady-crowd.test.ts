import assert from "node:assert/strict";
import { test } from "node:test";
import { createCrowd, evaluateCrowd, loadCrowdKernelSync, type Crowd } from "../../src/crowd/index.ts";
import { setParam, trigger } from "../../src/graph/commands.ts";
import type { CompiledGraph } from "../../src/graph/compiled-graph.ts";
import { createInstance, type GraphInstance, type MachineInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { readFileSync } from "node:fs";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { parseGraphSpec } from "../../src/spec/parse-graph-spec.ts";
import { repoPath } from "../helpers/assets.ts";
import { foxGraph } from "./fox-graph.ts";
import { robotGraph } from "./robot-graph.ts";

// The crowd's fast path for settled characters (src/crowd/steady-advance.ts) must leave every
// instance exactly as `advanceInstance` leaves it, and record the same kernel commands.

const kernel = loadCrowdKernelSync();

/** Every field of a machine instance the runtime reads or reports, bit for bit. */
function assertSameMachine(a: MachineInstance, b: MachineInstance, what: string): void {
  assert.equal(a.current, b.current, `${what}: current`);
  assert.equal(a.depth, b.depth, `${what}: depth`);
  if (a.depth > 0) assert.equal(a.source, b.source, `${what}: source`);
  for (const key of ["stateTime", "statePrevTime", "statePhase", "statePrevPhase", "stateWeight", "advancedAt"] as const) {
    assert.deepEqual([...a[key]], [...b[key]], `${what}: ${key}`);
  }
  assert.ok(Object.is(a.frozenWeight, b.frozenWeight), `${what}: frozenWeight`);
  a.childWeights.forEach((w, s) => assert.deepEqual([...w], [...b.childWeights[s]!], `${what}: childWeights[${s}]`));
  for (let i = 0; i < a.depth; i++) assert.deepEqual({ ...a.stack[i]! }, { ...b.stack[i]! }, `${what}: stack[${i}]`);
  a.nested.forEach((n, s) => { if (n) assertSameMachine(n, b.nested[s]!, `${what} nested ${s}`); });
}

function assertSameInstance(a: GraphInstance, b: GraphInstance, what: string): void {
  assert.ok(Object.is(a.time, b.time), `${what}: time`);
  assert.equal(a.stamp, b.stamp, `${what}: stamp`);
  a.layers.forEach((m, li) => assertSameMachine(m, b.layers[li]!, `${what} layer ${li}`));
  const ra = a.result, rb = b.result;
  assert.deepEqual([...ra.rootDelta], [...rb.rootDelta], `${what}: rootDelta`);
  assert.deepEqual(ra.layers.map((l) => ({ ...l })), rb.layers.map((l) => ({ ...l })), `${what}: layers`);
  assert.equal(ra.substeps, rb.substeps, `${what}: substeps`);
  assert.equal(ra.transitionsFired, rb.transitionsFired, `${what}: transitionsFired`);
  assert.equal(ra.events.count, rb.events.count, `${what}: event count`);
  assert.equal(ra.events.dropped, rb.events.dropped, `${what}: events dropped`);
  for (let e = 0; e < ra.events.count; e++) assert.deepEqual({ ...ra.events.items[e]! }, { ...rb.events.items[e]! }, `${what}: event ${e}`);
}

/** The same crowd with the fast path switched off: every character through advanceInstance. */
function generalPath(crowd: Crowd): Crowd {
  (crowd as { steady: unknown }).steady = null;
  return crowd;
}

/**
 * Characters that mostly settle (shared parameters, long stretches in one state) but also change
 * speed, jump, punch and emote at their own moments, with a frame spike now and then.
 */
function drive(inst: GraphInstance, i: number, k: number): void {
  if (k % 90 === i % 90) setParam(inst, "speed", ((k + 37 * i) % 7) * 0.6);
  if ((k + i) % 173 === 0) trigger(inst, "jump");
  if ((k + 3 * i) % 211 === 0) trigger(inst, "punch");
  if ((k + i) % 120 === 0) setParam(inst, "emote", ((k + i) / 120) % 4);
}
const dtOf = (k: number): number => (k % 150 === 149 ? 0.35 : k % 41 === 0 ? 0 : 1 / 60);

async function compare(graph: CompiledGraph, name: string, frames: number, driveFn: (inst: GraphInstance, i: number, k: number) => void): Promise<void> {
  const n = 12;
  const withKernel = createCrowd(graph, n, { kernel });
  const kernelGeneral = generalPath(createCrowd(graph, n, { kernel }));
  const jsPath = createCrowd(graph, n);
  const refs = Array.from({ length: n }, () => createInstance(graph));
  const crowds = [withKernel, kernelGeneral, jsPath];
  for (let i = 0; i < n; i++) {
    for (const c of crowds) step(graph, c.instances[i]!, 0.07 * i);
    step(graph, refs[i]!, 0.07 * i);
  }
  let settled = 0;
  for (let k = 0; k < frames; k++) {
    for (let i = 0; i < n; i++) {
      for (const c of crowds) driveFn(c.instances[i]!, i, k);
      driveFn(refs[i]!, i, k);
    }
    for (const c of crowds) evaluateCrowd(c, dtOf(k));
    for (let i = 0; i < n; i++) {
      const res = step(graph, refs[i]!, dtOf(k));
      const what = `${name} frame ${k} character ${i}`;
      assertSameInstance(withKernel.instances[i]!, refs[i]!, `${what} (kernel crowd)`);
      assertSameInstance(jsPath.instances[i]!, refs[i]!, `${what} (JS crowd)`);
      assert.deepEqual(jsPath.poses[i]!.r, res.pose.r, `${what}: JS crowd pose`);
      if (refs[i]!.layers.every((m) => m.depth === 0)) settled++;
    }
    assert.deepEqual(withKernel.model, kernelGeneral.model, `${name} frame ${k}: kernel matrices, fast path against the general path`);
    assert.deepEqual(withKernel.poseBuffer, kernelGeneral.poseBuffer, `${name} frame ${k}: kernel poses`);
  }
  // Not vacuous: most character-frames were settled (the fast path's case), some were not.
  assert.ok(settled > (n * frames) / 2 && settled < n * frames, `${name}: ${settled} of ${n * frames} character-frames settled`);
}

test("robot example: the settled-character fast path leaves every instance as step does (times, weights, events, root motion) and the kernel writes the same bits", async () => {
  await compare(await robotGraph(), "robot", 600, drive);
});

test("robot example with inertialize and deadBlend transitions: settled characters take the fast path between transitions (the output history kept) and equal the general path bit for bit", async () => {
  const json = JSON.parse(readFileSync(repoPath("examples/robot/robot.animgraph.json"), "utf8")) as { layers: { machine: { transitions: { blend?: string }[] } }[] };
  for (const l of json.layers) l.machine.transitions.forEach((t, i) => (t.blend = ["inertialize", "deadBlend", "crossfade"][i % 3]));
  const spec = parseGraphSpec(parseJsonText(JSON.stringify(json), "robot.animgraph.json")).spec!;
  const gltf = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
  const graph = compileGraph(spec, gltf.skeletons[0]!, gltf.clips, { rootMotion: "auto" }).graph!;
  assert.ok(graph.machines[0]!.inertial);
  const probe = createCrowd(graph, 1);
  let fast = 0;
  for (let k = 0; k < 40; k++) {
    evaluateCrowd(probe, 1 / 60);
    if (probe.steady!.valid) fast++;
  }
  assert.ok(fast > 0, "a settled inertializing character took the fast path");
  await compare(graph, "robot inertial", 600, drive);
});

test("fox example (synchronised blend, root motion): the fast path equals the general one", async () => {
  const graph = await foxGraph();
  const names = graph.params.map((p) => p.name);
  const blendParam = names[0]!;
  await compare(graph, "fox", 400, (inst, i, k) => {
    if (k % 100 === (7 * i) % 100) setParam(inst, blendParam, (k + i) % 5);
  });
});

test("characters sharing a steady plan are recorded from its command template (times and output patched) and the kernel writes the same bits as walking each one", async () => {
  // All characters share their parameters (as in the bench), so runs of them share one plan and all but
  // the first of a run copy its kept commands (src/crowd/wasm/steady-commands.ts). Out of phase, with
  // a parameter change, jumps and a spike now and then, and dt = 0 frames; robot (override blend and a
  // masked additive layer) and fox (synchronised blend, root motion stripped by STRIP).
  for (const [name, graph] of [["robot", await robotGraph()], ["fox", await foxGraph()]] as const) {
    const n = 16;
    const param = graph.params[0]!.name;
    const templated = createCrowd(graph, n, { kernel });
    const walked = createCrowd(graph, n, { kernel });
    for (let i = 0; i < n; i++) for (const c of [templated, walked]) step(graph, c.instances[i]!, 0.13 * i);
    let planned = 0, settled = 0;
    for (let k = 0; k < 300; k++) {
      for (const c of [templated, walked]) {
        for (let i = 0; i < n; i++) {
          const inst = c.instances[i]!;
          if (k % 100 === 0) setParam(inst, param, 1 + (k / 100) % 2);
          if (name === "robot" && k % 97 === i) trigger(inst, "jump");
        }
      }
      const before = templated.steady!.generation;
      evaluateCrowd(templated, dtOf(k));
      planned += templated.steady!.generation - before;
      // The same frame with every settled character walked: a fresh template each time.
      for (let i = 0; i < n; i++) {
        (walked.wasm!.steadyTemplate as { generation: number }).generation = -1;
        evaluateCrowd(walked, dtOf(k), i, i + 1);
      }
      settled += templated.instances.filter((inst) => inst.layers.every((m) => m.depth === 0)).length;
      assert.deepEqual(templated.model, walked.model, `${name} frame ${k}: matrices, template against walk`);
      assert.deepEqual(templated.poseBuffer, walked.poseBuffer, `${name} frame ${k}: local poses`);
    }
    // Not vacuous: most settled characters were recorded from a template made for another character.
    assert.ok(templated.wasm!.steadyTemplate.usable, `${name}: the template is usable`);
    assert.ok(planned < settled / 4, `${name}: ${planned} plans made for ${settled} settled character-frames`);
  }
});
