// The worker side of createCrowdWorkers: builds the graph from the recipe, creates its part of the
// crowd over the shared buffers, then evaluates one frame each time the frame sequence advances.
import { workerData } from "node:worker_threads";
import { step } from "../graph/step.ts";
import { createCrowd } from "./crowd.ts";
import { buildGraph, type GraphRecipe } from "./crowd-workers.ts";
import { evaluateCrowd } from "./evaluate-crowd.ts";
import { loadCrowdKernelSync } from "./wasm/kernel.ts";

interface WorkerInput {
  readonly recipe: GraphRecipe;
  readonly first: number;
  readonly count: number;
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
const ctl = new Int32Array(input.control, 0, 4);
const dtView = new Float64Array(input.control, 16, 1);
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
  let seen = Atomics.load(ctl, 0);
  Atomics.add(ctl, 2, 1);
  Atomics.notify(ctl, 2);
  for (;;) {
    Atomics.wait(ctl, 0, seen);
    seen = Atomics.load(ctl, 0);
    loadParams();
    evaluateCrowd(crowd, dtView[0]!);
    Atomics.add(ctl, 1, 1);
    Atomics.notify(ctl, 1);
  }
} catch (e) {
  Atomics.store(ctl, 3, 1);
  Atomics.notify(ctl, 1);
  Atomics.notify(ctl, 2);
  throw e;
}
