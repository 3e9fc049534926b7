import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { createCrowd, evaluateCrowd, loadCrowdKernelSync, poseStride } from "../../src/crowd/index.ts";
import { createCrowdWorkers, workerRangeStart } from "../../src/crowd/crowd-workers.ts";
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

test("worker ranges cover every character once, near-equal, and start on whole cache lines of the pose buffer when long enough", () => {
  fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 20000 }), fc.integer({ min: 1, max: 200 }), (n, count, joints) => {
    const starts = Array.from({ length: n + 1 }, (_, w) => workerRangeStart(w, n, count, joints));
    assert.equal(starts[0], 0);
    assert.equal(starts[n], count);
    const poseBytes = 4 * poseStride(joints);
    let step = 1;
    while ((step * poseBytes) % 64 !== 0) step++;
    for (let w = 0; w < n; w++) {
      assert.ok(starts[w + 1]! >= starts[w]!, "ranges in order");
      // Within half a line's worth of characters of the even split.
      assert.ok(Math.abs(starts[w + 1]! - starts[w]! - count / n) <= step + 1, `range ${w} of ${n} over ${count}`);
      if (count / n >= 8 * step) assert.equal((starts[w]! * poseBytes) % 64, 0, `worker ${w} starts on a line`);
    }
  }));
});

test("two kernel workers on 200 robots, ranges on cache-line boundaries: poses and matrices bit for bit the single-threaded ones", async () => {
  const n = 200;
  const startTimes = Float64Array.from({ length: n }, (_, i) => 0.011 * i);
  const recipe = { module: new URL("./robot-graph.ts", import.meta.url).href, exportName: "robotGraph" };
  const graph = await robotGraph();
  assert.equal((workerRangeStart(1, 2, n, graph.skeleton.jointCount) * 4 * poseStride(graph.skeleton.jointCount)) % 64, 0);
  const workers = await createCrowdWorkers(recipe, n, { workers: 2, startTimes, kernel: true });
  try {
    const local = createCrowd(graph, n, { kernel: loadCrowdKernelSync() });
    for (let i = 0; i < n; i++) step(graph, local.instances[i]!, startTimes[i]!);
    const slot = graph.paramIndex.get("speed")!;
    for (let i = 0; i < n; i++) {
      local.instances[i]!.params[slot] = i % 7;
      workers.params[i * graph.params.length + slot] = i % 7;
    }
    for (let k = 0; k < 40; k++) {
      evaluateCrowd(local, 1 / 30);
      workers.evaluate(1 / 30);
    }
    assert.deepEqual(workers.poseBuffer, local.poseBuffer);
    assert.deepEqual(workers.model, local.model);
    // Not vacuous: characters in both workers' ranges moved and differ from each other.
    const differ = local.poses.filter((p) => p.r.some((v, k) => v !== local.poses[0]!.r[k])).length;
    assert.ok(differ > n / 2, `${differ} of ${n} characters differ from the first`);
  } finally {
    await workers.terminate();
  }
});
