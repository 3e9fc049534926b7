import assert from "node:assert/strict";
import { test } from "node:test";
import { createCrowd, evaluateCrowd } from "../../src/crowd/index.ts";
import { createCrowdWorkers } from "../../src/crowd/crowd-workers.ts";
import { step } from "../../src/graph/step.ts";
import { robotGraph } from "./robot-graph.ts";

test("a crowd split across two worker threads gives the single-threaded poses and matrices, bit for bit", async () => {
  const n = 7;
  const startTimes = Float64Array.from({ length: n }, (_, i) => 0.13 * i);
  const speeds = [0, 1, 2, 3, 4, 5, 6];
  const recipe = { module: new URL("./robot-graph.ts", import.meta.url).href, exportName: "robotGraph" };
  const workers = await createCrowdWorkers(recipe, n, { workers: 2, startTimes });
  try {
    const graph = await robotGraph();
    const slot = graph.paramIndex.get("speed")!;
    const local = createCrowd(graph, n);
    // As the workers did at start-up: the start-time steps run with default parameters.
    for (let i = 0; i < n; i++) step(graph, local.instances[i]!, startTimes[i]!);
    for (let i = 0; i < n; i++) {
      local.instances[i]!.params[slot] = speeds[i]!;
      workers.params[i * graph.params.length + slot] = speeds[i]!;
    }
    for (let k = 0; k < 90; k++) {
      evaluateCrowd(local, 1 / 30);
      workers.evaluate(1 / 30);
    }
    assert.deepEqual(workers.poseBuffer, local.poseBuffer);
    assert.deepEqual(workers.model, local.model);
    // Not a vacuous comparison: characters moved away from the rest pose and differ from each other.
    assert.notDeepEqual(local.poses[1]!.r, local.poses[5]!.r);
  } finally {
    await workers.terminate();
  }
});
