import assert from "node:assert/strict";
import { test } from "node:test";
import { createCrowd, evaluateCrowd, loadCrowdKernelSync } from "../../src/crowd/index.ts";
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

test("localPoses: false: workers share only the model matrices, bit for bit the single-threaded ones (JS path and kernel)", async () => {
  const n = 9;
  const startTimes = Float64Array.from({ length: n }, (_, i) => 0.17 * i);
  const recipe = { module: new URL("./robot-graph.ts", import.meta.url).href, exportName: "robotGraph" };
  const graph = await robotGraph();
  for (const kernel of [false, true]) {
    const workers = await createCrowdWorkers(recipe, n, { workers: 2, startTimes, kernel, localPoses: false });
    try {
      const local = createCrowd(graph, n, { localPoses: false, ...(kernel ? { kernel: loadCrowdKernelSync() } : {}) });
      for (let i = 0; i < n; i++) step(graph, local.instances[i]!, startTimes[i]!);
      evaluateCrowd(local, 0);
      for (let k = 0; k < 60; k++) {
        evaluateCrowd(local, 1 / 30);
        workers.evaluate(1 / 30);
      }
      assert.equal(workers.poseBuffer.length, 0);
      assert.deepEqual(workers.model, local.model, kernel ? "kernel" : "JS path");
      assert.notDeepEqual(local.matrices[1], local.matrices[6]);
    } finally {
      await workers.terminate();
    }
  }
});
