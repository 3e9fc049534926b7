// The worker side of createCrowdWorkers: builds the graph from the recipe, creates its part of the
// crowd over the shared buffers, then evaluates one frame each time the frame sequence advances.
import { workerData } from "node:worker_threads";
import { step } from "../graph/step.ts";
import { createCrowd } from "./crowd.ts";
import { buildGraph, DONE, DT_BYTE, FAILED, READY, SEQ, type GraphRecipe } from "./crowd-workers.ts";
import { evaluateCrowd } from "./evaluate-crowd.ts";
import { loadCrowdKernelSync } from "./wasm/kernel.ts";

interface WorkerInput {
  readonly recipe: GraphRecipe;
  readonly first: number;
  readonly count: number;
  /** Worker threads in all (the last one done with a frame wakes the caller). */
  readonly workers: number;
  readonly share: boolean;
  readonly kernel: boolean;
  readonly localPoses: boolean;
  readonly startTimes: Float64Array | null;
  readonly pose: SharedArrayBuffer;
  readonly model: SharedArrayBuffer;
  readonly params: SharedArrayBuffer;
  readonly control: SharedArrayBuffer;
}

const input = workerData as WorkerInput;
const ctl = new Int32Array(input.control);
const dtView = new Float64Array(input.control, DT_BYTE, 1);
try {
  const graph = await buildGraph(input.recipe);
  const crowd = createCrowd(graph, input.count, {
    share: input.share,
    localPoses: input.localPoses,
    ...(input.kernel ? { kernel: loadCrowdKernelSync() } : {}),
    buffers: { pose: input.pose, model: input.model, first: input.first },
  });
  const nParams = graph.params.length;
  const params = new Float64Array(input.params);
  const loadParams = (): void => {
    for (let i = 0; i < crowd.count; i++) {
      const dst = crowd.instances[i]!.params;
      const o = (input.first + i) * nParams;
      for (let p = 0; p < nParams; p++) dst[p] = params[o + p]!;
    }
  };
  loadParams();
  if (input.startTimes) for (let i = 0; i < crowd.count; i++) step(graph, crowd.instances[i]!, input.startTimes[i]!);
  evaluateCrowd(crowd, 0);
  let seen = Atomics.load(ctl, SEQ);
  Atomics.add(ctl, READY, 1);
  Atomics.notify(ctl, READY);
  for (;;) {
    Atomics.wait(ctl, SEQ, seen);
    seen = Atomics.load(ctl, SEQ);
    loadParams();
    evaluateCrowd(crowd, dtView[0]!);
    // Only the last worker to finish wakes the caller, which waits until all are done.
    if (Atomics.add(ctl, DONE, 1) + 1 === input.workers) Atomics.notify(ctl, DONE);
  }
} catch (e) {
  Atomics.store(ctl, FAILED, 1);
  Atomics.notify(ctl, DONE);
  Atomics.notify(ctl, READY);
  throw e;
}
