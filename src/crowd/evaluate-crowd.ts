import { advanceInstance, evaluatePose } from "../graph/step.ts";
import type { Crowd } from "./crowd.ts";
import { localToModel32 } from "./kernels.ts";
import { beginFrame } from "./sample-cache.ts";
import { flush, recordCharacter } from "./wasm/record-pose.ts";

/**
 * Advances every character of `crowd` by `dt` seconds with the full graph runtime (`advanceInstance`:
 * transitions, events, root motion) and writes its local pose into `crowd.poseBuffer` and its
 * model-space matrices into `crowd.model`.
 * - JS path: `step`'s own layered-pose evaluation, sampling through the crowd's sampler (with shared
 *   sampling on, characters sampling the same clip at the same time share one sample, bit for bit).
 * - Kernel path (crowd created with `kernel`): each character's pose is recorded as kernel commands
 *   (record-pose.ts) and the WebAssembly SIMD kernel samples, blends and transforms, in batches.
 * Per-character step results (events, root motion) stay readable on `crowd.instances[i].result` until
 * the next call. `from`/`to` restrict the work to characters [from, to) (default: all). No allocation
 * (except one pair of array views per call when a kernel crowd mirrors a partial range).
 */
export function evaluateCrowd(crowd: Crowd, dt: number, from = 0, to = crowd.count): void {
  const graph = crowd.graph;
  const skeleton = graph.skeleton;
  const instances = crowd.instances;
  const wasm = crowd.wasm;
  if (wasm) {
    if (crowd.root && wasm.rootAt) wasm.f32.set(crowd.root, wasm.rootAt >> 2);
    for (let i = from; i < to; i++) {
      const inst = instances[i]!;
      advanceInstance(graph, inst, dt);
      recordCharacter(wasm, inst, i);
    }
    flush(wasm);
    const mirror = crowd.mirror;
    if (mirror) {
      const P = 10 * skeleton.jointCount, Q = 16 * skeleton.jointCount;
      if (from === 0 && to === crowd.count) {
        mirror.pose.set(crowd.poseBuffer);
        mirror.model.set(crowd.model);
      } else {
        mirror.pose.set(crowd.poseBuffer.subarray(from * P, to * P), from * P);
        mirror.model.set(crowd.model.subarray(from * Q, to * Q), from * Q);
      }
    }
    return;
  }
  const model = crowd.model;
  const stride = 16 * skeleton.jointCount;
  const root = crowd.root;
  beginFrame(crowd.cache);
  for (let i = from; i < to; i++) {
    const inst = instances[i]!;
    advanceInstance(graph, inst, dt);
    evaluatePose(inst);
    localToModel32(model, stride * i, skeleton, inst.result.pose, root);
  }
}
