// The crowd's pose evaluator: the same blend tree walk as src/graph/step.ts's evaluatePose (layers,
// crossfade stacks, frozen poses, clip / blend1d / blend2d / nested-machine states, root-motion
// stripping), reading the machine state `advanceInstance` left, but sampling through the crowd's
// sampler and blending with the Float32Array-only kernels. Bit-identical to `step`'s pose
// (test/crowd/crowd.test.ts).
import { wrapTime } from "../clip/wrap-time.ts";
import type { CompiledState } from "../graph/compiled-graph.ts";
import type { GraphInstance, MachineInstance } from "../graph/graph-instance.ts";
import { isProceduralClip, type MotionSource } from "../graph/motion-source.ts";
import { layerWeight } from "../graph/step.ts";
import { createPose, type Pose } from "../pose/pose.ts";
import { stripRootMotion } from "../root-motion/root-motion.ts";
import { childWeights } from "../state-machine/state-clock.ts";
import { applyLayer32, crossfade32 } from "./blend-kernels.ts";
import type { SampleCache } from "./sample-cache.ts";

function acquire(inst: GraphInstance): Pose {
  if (inst.poolTop === inst.pool.length) inst.pool.push(createPose(inst.graph.skeleton.jointCount));
  return inst.pool[inst.poolTop++]!;
}

function release(inst: GraphInstance): void {
  inst.poolTop--;
}

function sampleSource(inst: GraphInstance, sampler: SampleCache, out: Pose, src: MotionSource, mi: MachineInstance, s: number, c: number, time: number): void {
  if (isProceduralClip(src)) {
    src.sample(out, time);
    return;
  }
  sampler.sample(out, src, time, mi.cursors[s]![c]!, inst.graph.options.quatMode);
  if (inst.graph.rootJoint >= 0) {
    const extractor = inst.graph.rootExtractors.get(src);
    if (extractor) stripRootMotion(out, extractor);
  }
}

function childTime(mi: MachineInstance, st: CompiledState, s: number, src: MotionSource, sync: boolean): number {
  const dur = src.duration;
  if (dur === Infinity) return mi.stateTime[s]!;
  return wrapTime(sync ? mi.statePhase[s]! * dur : mi.stateTime[s]!, dur, st.loop);
}

function evaluateState(inst: GraphInstance, sampler: SampleCache, mi: MachineInstance, s: number, out: Pose): void {
  const st = mi.machine.states[s]!;
  const m = st.motion;
  if (m.kind === "clip") {
    sampleSource(inst, sampler, out, m.source, mi, s, 0, childTime(mi, st, s, m.source, false));
    return;
  }
  if (m.kind === "machine") {
    evaluateMachine(inst, sampler, mi.nested[s]!, out);
    return;
  }
  const w = childWeights(inst, mi, s);
  let acc = 0;
  for (let c = 0; c < m.sources.length; c++) {
    const wc = w[c]!;
    if (!(wc > 0)) continue;
    const src = m.sources[c]!;
    const t = childTime(mi, st, s, src, m.sync);
    if (acc === 0) {
      sampleSource(inst, sampler, out, src, mi, s, c, t);
      acc = wc;
    } else {
      const tmp = acquire(inst);
      sampleSource(inst, sampler, tmp, src, mi, s, c, t);
      acc += wc;
      crossfade32(out, out, tmp, wc / acc, inst.graph.options.quatMode);
      release(inst);
    }
  }
  if (acc === 0) {
    const rest = inst.graph.skeleton.rest;
    out.t.set(rest.t);
    out.r.set(rest.r);
    out.s.set(rest.s);
  }
}

function evaluateMachine(inst: GraphInstance, sampler: SampleCache, mi: MachineInstance, out: Pose): void {
  if (mi.depth === 0) {
    evaluateState(inst, sampler, mi, mi.current, out);
    return;
  }
  if (mi.source >= 0) evaluateState(inst, sampler, mi, mi.source, out);
  else {
    out.t.set(mi.frozen.t);
    out.r.set(mi.frozen.r);
    out.s.set(mi.frozen.s);
  }
  const quatMode = inst.graph.options.quatMode;
  for (let i = 0; i < mi.depth; i++) {
    const e = mi.stack[i]!;
    const tmp = acquire(inst);
    evaluateState(inst, sampler, mi, e.to, tmp);
    crossfade32(out, out, tmp, e.weight, quatMode);
    release(inst);
  }
}

/** Writes the instance's pose (as `step` would) into `inst.result.pose`. No allocation once warm. */
export function evaluateInstancePose(inst: GraphInstance, sampler: SampleCache): void {
  const graph = inst.graph;
  const out = inst.result.pose;
  const rest = graph.skeleton.rest;
  const quatMode = graph.options.quatMode;
  for (let li = 0; li < inst.layers.length; li++) {
    const layer = graph.layers[li]!;
    const mi = inst.layers[li]!;
    const w = layerWeight(inst, li);
    if (li === 0 && layer.mode === "override" && w >= 1 && layer.mask === null) {
      evaluateMachine(inst, sampler, mi, out);
      continue;
    }
    if (li === 0) {
      out.t.set(rest.t);
      out.r.set(rest.r);
      out.s.set(rest.s);
    }
    if (!(w > 0)) continue;
    evaluateMachine(inst, sampler, mi, inst.layerPose);
    applyLayer32(out, out, inst.layerPose, w, layer.mask, layer.mode === "additive", quatMode);
  }
}
