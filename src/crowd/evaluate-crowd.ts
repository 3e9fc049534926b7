import { advanceInstance, evaluatePose } from "../graph/step.ts";
import { expectEvaluateCrowdArguments, expectEvaluateSelectedArguments } from "./check-crowd-arguments.ts";
import type { Crowd } from "./crowd.ts";
import { localToModel32 } from "./kernels.ts";
import { beginFrame } from "./sample-cache.ts";
import { advanceSteady, steadyFrame } from "./steady-advance.ts";
import { warmBlocks } from "./wasm/kernel-poses.ts";
import { flush, recordCharacter } from "./wasm/record-pose.ts";
import { recordSteadyCommands } from "./wasm/steady-commands.ts";
import { WARM_TILE, warmCharacters, warmTransitions } from "./warm-characters.ts";

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
export function evaluateCrowd(crowd: Crowd, dt: number, from = 0, to?: number): void {
  expectEvaluateCrowdArguments(crowd, dt, from, to);
  to ??= crowd.count;
  const graph = crowd.graph;
  const skeleton = graph.skeleton;
  const instances = crowd.instances;
  const wasm = crowd.wasm;
  // Settled characters (no crossfade, no transition firing, one sub-step) take the fast path,
  // steady-advance.ts; the rest the general one. Both leave the same bits.
  const plan = crowd.steady !== null && steadyFrame(graph, dt) ? crowd.steady : null;
  const state = crowd.state;
  if (wasm) {
    if (crowd.root && wasm.rootAt) wasm.f32.set(crowd.root, wasm.rootAt >> 2);
    for (let i = from; i < to; i++) {
      if ((i - from) % WARM_TILE === 0) {
        warmCharacters(instances, state, i, Math.min(to, i + WARM_TILE));
        if (wasm.keptCount > 0) warmBlocks(wasm, instances, i, Math.min(to, i + WARM_TILE));
      }
      const inst = instances[i]!;
      if (plan !== null && advanceSteady(graph, inst, dt, plan, state, i)) {
        recordSteadyCommands(wasm, inst, i, plan, state);
      } else {
        advanceInstance(graph, inst, dt);
        recordCharacter(wasm, inst, i);
      }
    }
    flush(wasm);
    const mirror = crowd.mirror;
    if (mirror) {
      const P = 10 * skeleton.jointCount, Q = 16 * skeleton.jointCount;
      // Without local poses (`localPoses: false`) both pose buffers are empty: only matrices are copied.
      if (from === 0 && to === crowd.count) {
        mirror.pose.set(crowd.poseBuffer);
        mirror.model.set(crowd.model);
      } else {
        if (mirror.pose.length > 0) mirror.pose.set(crowd.poseBuffer.subarray(from * P, to * P), from * P);
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
    if ((i - from) % WARM_TILE === 0) {
      warmCharacters(instances, state, i, Math.min(to, i + WARM_TILE));
      warmTransitions(instances, i, Math.min(to, i + WARM_TILE));
    }
    const inst = instances[i]!;
    if (plan === null || !advanceSteady(graph, inst, dt, plan, state, i)) advanceInstance(graph, inst, dt);
    evaluatePose(inst);
    localToModel32(model, stride * i, skeleton, inst.result.pose, root);
  }
}

/**
 * Like `evaluateCrowd`, for a chosen subset of characters, each with its own time step: character
 * `selected[k]` (k < `selectedCount`) is advanced by `dts[selected[k]]` seconds and its pose and
 * model-space matrices are rewritten; every other character keeps its last pose and matrices. This is
 * what update-rate LOD needs (src/lod/update-rate-lod.ts): a far character skipped for n frames is
 * evaluated with the n frames' time at once, so it stays in step with the crowd. Indices must be
 * distinct and in [0, count); they need not be sorted. Shared sampling and the kernel's batching work as
 * in `evaluateCrowd`. No allocation.
 */
export function evaluateCrowdSelected(crowd: Crowd, selected: Int32Array, selectedCount: number, dts: Float32Array | Float64Array): void {
  expectEvaluateSelectedArguments(crowd, selected, selectedCount, dts);
  const graph = crowd.graph;
  const skeleton = graph.skeleton;
  const instances = crowd.instances;
  const wasm = crowd.wasm;
  if (wasm) {
    if (crowd.root && wasm.rootAt) wasm.f32.set(crowd.root, wasm.rootAt >> 2);
    for (let k = 0; k < selectedCount; k++) {
      const i = selected[k]!;
      const inst = instances[i]!;
      advanceInstance(graph, inst, dts[i]!);
      recordCharacter(wasm, inst, i);
    }
    flush(wasm);
    const mirror = crowd.mirror;
    if (mirror) {
      const P = 10 * skeleton.jointCount, Q = 16 * skeleton.jointCount;
      const pose = crowd.poseBuffer, model = crowd.model;
      for (let k = 0; k < selectedCount; k++) {
        const i = selected[k]!;
        if (mirror.pose.length > 0) for (let x = i * P, end = x + P; x < end; x++) mirror.pose[x] = pose[x]!;
        for (let x = i * Q, end = x + Q; x < end; x++) mirror.model[x] = model[x]!;
      }
    }
    return;
  }
  const model = crowd.model;
  const stride = 16 * skeleton.jointCount;
  const root = crowd.root;
  beginFrame(crowd.cache);
  for (let k = 0; k < selectedCount; k++) {
    const i = selected[k]!;
    const inst = instances[i]!;
    advanceInstance(graph, inst, dts[i]!);
    evaluatePose(inst);
    localToModel32(model, stride * i, skeleton, inst.result.pose, root);
  }
}
