// Steady-state allocation of the per-frame path, in bytes, exactly: once warm, `step` on the robot
// example graph allocates nothing at all (docs/performance.md, "Allocation"). test/graph/heap.test.ts
// checks that nothing is retained; this checks that nothing is even created, which also keeps the
// garbage collector out of a frame. The method, and why a per-frame allocation cannot pass it, are in
// test/helpers/steady-allocation.ts; the last test here checks that it catches one.
//
// The frame scripts pass integers and module constants only: a double computed in the test and passed
// to setParam or step would be boxed by the test itself.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createCrowd, evaluateCrowd, loadCrowdKernelSync, type Crowd, type CrowdOptions } from "../../src/crowd/index.ts";
import { setParam, trigger } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import type { CompiledGraph, RuntimeOptions } from "../../src/graph/compiled-graph.ts";
import { createInstance, type GraphInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { readGraphSpec } from "../../src/spec/read-graph-spec-file.ts";
import { parseGraphSpec } from "../../src/spec/parse-graph-spec.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { readFileSync } from "node:fs";
import { repoPath } from "../helpers/assets.ts";
import { BATCH_FRAMES, NOISE_BYTES, steadyAllocation } from "../helpers/steady-allocation.ts";

const DT = 1 / 60;
const SPIKE = 0.35;
const HALF = 0.5;
const WARM_FRAMES = 4000;

const spec = readGraphSpec(repoPath("examples/robot/robot.animgraph.json")).spec!;
const gltf = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));

function robotGraph(options: RuntimeOptions): CompiledGraph {
  const compiled = compileGraph(spec, gltf.skeletons[0]!, gltf.clips, options);
  assert.ok(compiled.graph, JSON.stringify(compiled.diagnostics));
  return compiled.graph;
}

/**
 * Character i's commands at frame k: speed through idle, walk and the walk/run blend (0..6), jumps and
 * punches that interrupt crossfades, emotes on the masked additive layer at two weights. Every
 * character is at a different point of the script, so all paths run in every frame range.
 */
function drive(inst: GraphInstance, i: number, k: number): void {
  const q = k + 53 * i;
  setParam(inst, "speed", (q >> 5) % 7);
  if (q % 97 === 0) trigger(inst, "jump");
  if (q % 131 === 0) trigger(inst, "punch");
  if (q % 50 === 0) setParam(inst, "emote", ((q / 50) | 0) % 4);
  // Two calls rather than `q % 140 === 0 ? HALF : 1`, which V8 would box (see `frame` below).
  if (q % 140 === 0) setParam(inst, "emoteWeight", HALF);
  else if (q % 70 === 0) setParam(inst, "emoteWeight", 1);
}

/** Frame spikes, sub-stepped (maxSubstep 0.1 s), so the sub-step path is measured too. */
function isSpike(k: number): boolean {
  return k % 240 === 239;
}

function assertNothingAllocated(frame: (k: number) => void, characters: number): void {
  const r = steadyAllocation(frame, WARM_FRAMES);
  assert.ok(r.bytes < NOISE_BYTES, `${r.bytes} bytes allocated by ${BATCH_FRAMES} frames × ${characters} characters (${r.report})`);
}

test("step allocates 0 bytes per frame once warm (robot example graph, exact and deterministic slerp)", () => {
  // Root motion on: extraction and stripping run every frame. Half the characters use the deterministic
  // (polynomial) slerp, so both quaternion paths are measured.
  const graphs = [robotGraph({ rootMotion: "auto" }), robotGraph({ rootMotion: "auto", deterministic: true })];
  const instances = Array.from({ length: 24 }, (_, i) => createInstance(graphs[i % 2]!));
  const frame = (k: number): void => {
    const spike = isSpike(k);
    for (let i = 0; i < instances.length; i++) {
      const inst = instances[i]!;
      drive(inst, i, k);
      // Two calls rather than one with `spike ? SPIKE : DT`: V8 would merge the two constants into a
      // computed double and box it for the call, in the test's own code.
      if (spike) step(inst.graph, inst, SPIKE);
      else step(inst.graph, inst, DT);
    }
  };
  assertNothingAllocated(frame, instances.length);
});

/** Asserts that a crowd of 24 robot-example characters with `options` allocates nothing once warm. */
function assertCrowdAllocatesNothing(options: CrowdOptions, graph = robotGraph({ rootMotion: "auto" })): Crowd {
  const crowd = createCrowd(graph, 24, options);
  const frame = (k: number): void => {
    for (let i = 0; i < crowd.count; i++) drive(crowd.instances[i]!, i, k);
    if (isSpike(k)) evaluateCrowd(crowd, SPIKE);
    else evaluateCrowd(crowd, DT);
  };
  assertNothingAllocated(frame, crowd.count);
  return crowd;
}

/** The robot example with its transitions alternately inertialized and dead-blended. */
function inertialRobotGraph(): CompiledGraph {
  const json = JSON.parse(readFileSync(repoPath("examples/robot/robot.animgraph.json"), "utf8")) as { layers: { machine: { transitions: { blend?: string }[] } }[] };
  for (const l of json.layers) l.machine.transitions.forEach((t, i) => (t.blend = i % 2 === 0 ? "inertialize" : "deadBlend"));
  const parsed = parseGraphSpec(parseJsonText(JSON.stringify(json), "robot-inertial.animgraph.json"));
  assert.ok(parsed.spec, JSON.stringify(parsed.diagnostics));
  return compileGraph(parsed.spec, gltf.skeletons[0]!, gltf.clips, { rootMotion: "auto" }).graph!;
}

test("step allocates 0 bytes per frame with inertialized and dead-blended transitions (robot example graph)", () => {
  // The robot example with its transitions alternately inertialized and dead-blended (interrupting one
  // another through the jumps and punches): history, capture, offsets and extrapolation all run.
  const graph = inertialRobotGraph();
  assert.ok(graph.machines.every((m) => m.inertial));
  const instances = Array.from({ length: 24 }, () => createInstance(graph));
  const frame = (k: number): void => {
    const spike = isSpike(k);
    for (let i = 0; i < instances.length; i++) {
      const inst = instances[i]!;
      drive(inst, i, k);
      if (spike) step(graph, inst, SPIKE);
      else step(graph, inst, DT);
    }
  };
  assertNothingAllocated(frame, instances.length);
});

test("evaluateCrowd allocates 0 bytes per frame once warm (robot example graph)", () => {
  assertCrowdAllocatesNothing({});
});

test("evaluateCrowd with the WebAssembly kernel allocates 0 bytes per frame once warm (robot example graph)", () => {
  assertCrowdAllocatesNothing({ kernel: loadCrowdKernelSync() });
});

test("evaluateCrowd with the WebAssembly kernel allocates 0 bytes per frame with inertialized and dead-blended transitions (robot example graph)", () => {
  // The kernel keeps those machines' history, capture and offsets (src/crowd/wasm/kernel-poses.ts):
  // recording their commands, captures at interruptions included, must allocate nothing either.
  const crowd = assertCrowdAllocatesNothing({ kernel: loadCrowdKernelSync() }, inertialRobotGraph());
  assert.ok(crowd.instances[0]!.keeper);
});

test("a deliberate 16-byte allocation per frame is caught by the measurement", () => {
  // The smallest per-frame allocation there is: one double boxed into a fresh heap number (16 bytes) by
  // storing it in a tagged array slot, beside four robots' steps. It must read as at least 16 bytes per
  // frame or more (more while V8 still interprets the frame), over NOISE_BYTES, however many batches run.
  const graph = robotGraph({ rootMotion: "auto" });
  const instances = Array.from({ length: 4 }, () => createInstance(graph));
  const sink: unknown[] = [null];
  const frame = (k: number): void => {
    for (let i = 0; i < instances.length; i++) {
      const inst = instances[i]!;
      drive(inst, i, k);
      step(graph, inst, DT);
    }
    sink[0] = k * HALF + SPIKE;
  };
  const r = steadyAllocation(frame, WARM_FRAMES);
  assert.ok(r.bytes >= NOISE_BYTES, `a 16-byte allocation per frame read as ${r.bytes} bytes per ${BATCH_FRAMES} frames (${r.report})`);
  assert.ok(r.bytes > 16 * BATCH_FRAMES - NOISE_BYTES, `expected at least ${16 * BATCH_FRAMES} bytes per ${BATCH_FRAMES} frames, read ${r.bytes} (${r.report})`);
});
