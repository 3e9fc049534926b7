import { advanceInstance, evaluatePose } from "../graph/step.ts";
import type { Crowd } from "./crowd.ts";
import { localToModel32 } from "./kernels.ts";
import { beginFrame } from "./sample-cache.ts";

/**
 * Advances every character of `crowd` by `dt` seconds with the full graph runtime (`advanceInstance`:
 * transitions, events, root motion; then `step`'s own layered-pose evaluation, which samples
 * through the crowd's sampler set on each instance) and writes its model-space matrices into `crowd.model`; each
 * character's local pose lands in `crowd.poseBuffer`. With shared sampling on, characters sampling the
 * same clip at the same time share one sample (bit-for-bit the same poses). Per-character step results
 * (events, root motion) stay readable on `crowd.instances[i].result` until the next call.
 * `from`/`to` restrict the work to characters [from, to) (default: all). No allocation.
 */
export function evaluateCrowd(crowd: Crowd, dt: number, from = 0, to = crowd.count): void {
  const graph = crowd.graph;
  const skeleton = graph.skeleton;
  const instances = crowd.instances;
  const model = crowd.model;
  const stride = 16 * skeleton.jointCount;
  const root = crowd.root;
  const cache = crowd.cache;
  beginFrame(cache);
  for (let i = from; i < to; i++) {
    const inst = instances[i]!;
    advanceInstance(graph, inst, dt);
    evaluatePose(inst);
    localToModel32(model, stride * i, skeleton, inst.result.pose, root);
  }
}
