// IK layers in the frame loop allocate nothing once warm (the method of test/helpers/steady-allocation.ts,
// as in zero-alloc.test.ts: batches of F and 2F frames between two heap readings after a full GC, after
// a warm-up that starts with one). `fire`, which runs only when a transition starts, is optimised late
// and boxes doubles until then; the measurement runs more batches rather than hoping V8 got to it.
// The robot example graph with a two-bone hand layer and an aim layer, both driven by parameters set
// from module constants (a double computed here and passed in would be boxed by the test).
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { setParam } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { parseGraphSpec } from "../../src/spec/parse-graph-spec.ts";
import { repoPath } from "../helpers/assets.ts";
import { BATCH_FRAMES, NOISE_BYTES, steadyAllocation } from "../helpers/steady-allocation.ts";

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
      // Each character changes speed every 16 frames, staggered, so transitions start (and interrupt
      // one another) in most frames: with all 16 switching together every 64 frames, the code that runs
      // only when a state is entered stayed unoptimised, boxing 1 kB per 400 frames, for 16,000 frames.
      setParam(inst, "speed", ((k + 5 * i) >> 4) % 3);
      step(graph, inst, DT);
    }
  };
  const r = steadyAllocation(frame, 6000);
  assert.ok(r.bytes < NOISE_BYTES, `${r.bytes} bytes per ${BATCH_FRAMES} frames × 16 characters (${r.report})`);
});
