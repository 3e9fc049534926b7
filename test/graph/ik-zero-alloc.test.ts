// IK layers in the frame loop allocate nothing once warm (the method of zero-alloc.test.ts: batches of F
// and 2F frames between two heap readings after a full GC; a batch during which a GC ran counts as
// allocating). The robot example graph with a two-bone hand layer and an aim layer, both driven by
// parameters set from module constants (a double computed here and passed in would be boxed by the test).
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { GCProfiler, getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { setParam } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { parseGraphSpec } from "../../src/spec/parse-graph-spec.ts";
import { repoPath } from "../helpers/assets.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const DT = 1 / 60;
const NEAR = 0.02;
const FAR = 0.03;

const base = JSON.parse(readFileSync(repoPath("examples/robot/robot.animgraph.json"), "utf8")) as Record<string, unknown>;
const json = {
  ...base,
  parameters: { ...(base["parameters"] as object), hx: { type: "float", default: 0.02 }, look: { type: "float", default: 1 } },
  ik: [
    { name: "hand", solver: "twoBone", joints: ["UpperArm.L", "LowerArm.L", "Palm2.L"], target: [{ param: "hx" }, 0.03, 0.01], pole: [0, 0, -1] },
    { name: "look", solver: "aim", chain: ["Torso", "Neck", "Head"], jointWeights: [0.3, 0.5, 1], maxAngle: 60, target: [{ param: "hx" }, 0.05, 0.1], weight: { param: "look" } },
  ],
};
const spec = parseGraphSpec(parseJsonText(JSON.stringify(json), "ik.animgraph.json")).spec!;
const gltf = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));

function heapInUse(): number {
  let total = 0;
  for (const space of getHeapSpaceStatistics()) total += space.space_used_size;
  return total;
}

test("IK layers (two-bone and aim, weights and targets from parameters) allocate 0 bytes per frame once warm", () => {
  const compiled = compileGraph(spec, gltf.skeletons[0]!, gltf.clips);
  assert.ok(compiled.graph, JSON.stringify(compiled.diagnostics));
  const graph = compiled.graph;
  const instances = Array.from({ length: 16 }, () => createInstance(graph));
  const frame = (k: number): void => {
    for (let i = 0; i < instances.length; i++) {
      const inst = instances[i]!;
      if ((k + i) % 2 === 0) setParam(inst, "hx", NEAR);
      else setParam(inst, "hx", FAR);
      setParam(inst, "speed", (k >> 6) % 3);
      step(graph, inst, DT);
    }
  };
  const run = (first: number, frames: number): number => {
    gc();
    const profiler = new GCProfiler();
    profiler.start();
    const before = heapInUse();
    for (let k = first; k < first + frames; k++) frame(k);
    const after = heapInUse();
    return profiler.stop().statistics.length > 0 ? Infinity : after - before;
  };
  let k = 0;
  for (; k < 6000; k++) frame(k);
  const single: number[] = [], double: number[] = [];
  for (let b = 0; b < 8; b++) {
    single.push(run(k, 100));
    k += 100;
    double.push(run(k, 200));
    k += 200;
  }
  const bytes = Math.min(...double) - Math.min(...single);
  assert.ok(bytes < 1024, `${bytes} bytes per 100 frames × 16 characters (batches of 100: ${single.join(", ")}; of 200: ${double.join(", ")})`);
});
