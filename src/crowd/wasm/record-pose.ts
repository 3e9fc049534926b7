// Records a character's layered pose as kernel commands. The walk is step.ts's evaluatePose /
// evaluateMachine / evaluateState, operation for operation (same order, weights and fallbacks), with
// poses replaced by kernel slots: the kernel then does the sampling, blending and model-space work.
import { sampleClipUnchecked } from "../../clip/sample-clip.ts";
import type { GraphInstance, MachineInstance } from "../../graph/graph-instance.ts";
import { isProceduralClipUnchecked, type MotionSource } from "../../graph/motion-source.ts";
import { childTimeAt, layerWeightAt } from "../../graph/step.ts";
import { stripRootMotionUnchecked } from "../../root-motion/root-motion.ts";
import { childWeights } from "../../state-machine/state-clock.ts";
import type { SteadyPlan } from "../steady-advance.ts";
import { recordKeptInPlace, recordRememberKept } from "./kernel-poses.ts";
import { HEADER_SCALES_UNIT } from "./pack-clip.ts";
import { COMMAND_CAPACITY, OP, STAGING_CAPACITY, type WasmCrowd } from "./wasm-crowd.ts";

/** Runs the recorded batch and starts a new one. Slots keep their contents across batches. */
export function flush(w: WasmCrowd): void {
  if (w.count === 0) return;
  w.i32[(w.commandsAt >> 2) + 8 * w.count] = OP.end;
  w.exports.run(w.commandsAt);
  w.count = 0;
  w.batch++;
  w.stagingTop = 0;
}

// Doubles never cross a call here: V8 boxes a double argument or return value into a new heap number
// whenever it does not inline the call, and this runs per character per frame. Times and weights go
// through `x` (one float64 of scratch) or straight into the command's float64 field, whose index
// `emit` returns.
const x = new Float64Array(3); // [0] a time, [1] its scratch, [2] a layer weight

/** Appends a command (its float64 operand zeroed) and returns the float64 index of that operand. */
export function emit(w: WasmCrowd, op: number, a: number, b: number, c: number, d: number, e: number): number {
  if (w.count === COMMAND_CAPACITY - 1) flush(w);
  const o = (w.commandsAt >> 2) + 8 * w.count++;
  const i32 = w.i32;
  i32[o] = op; i32[o + 1] = a; i32[o + 2] = b; i32[o + 3] = c; i32[o + 4] = d; i32[o + 5] = e;
  const f = (o >> 1) + 3;
  w.f64[f] = 0;
  return f;
}

/**
 * The float index of the batch's last command when it is a SAMPLE into `slot` (a packed clip, no STRIP
 * after it), else −1: the LAYER about to read `slot` can then take the sample's place (SAMPLE_LAYER,
 * assembly/crowd-kernel.ts), so the sampled pose is never stored and read back.
 */
function lastSampleInto(w: WasmCrowd, slot: number): number {
  if (w.count === 0) return -1;
  const o = (w.commandsAt >> 2) + 8 * (w.count - 1);
  return w.i32[o] === OP.sample && w.i32[o + 1] === slot ? o : -1;
}

/**
 * Records LAYER (layer slot onto out) with weight `weights[wi]`, as one SAMPLE_LAYER when the layer pose
 * was just sampled. The weight comes by array and index, not as a number: when V8 does not inline this
 * call (its choice, made when it optimises the caller, differs between runs), a double argument is
 * boxed, once per character and frame (105 B per crowd frame measured in test/graph/zero-alloc).
 */
function emitLayer(w: WasmCrowd, out: number, layerSlot: number, mask: number, mode: number, weights: Float64Array, wi: number): void {
  const weight = weights[wi]!;
  const o = lastSampleInto(w, layerSlot);
  if (o < 0) {
    w.f64[emit(w, OP.layer, out, layerSlot, mask, mode, w.rotMode)] = weight;
    return;
  }
  const sampleMode = w.i32[o + 3]!;
  w.i32[o] = OP.sampleLayer;
  w.i32[o + 1] = out;
  w.i32[o + 3] = mask;
  w.i32[o + 4] = mode | (sampleMode << 1) | (w.rotMode << 3) | (weight === 1 ? 32 : 0);
  w.f32[o + 5] = weight;
}

export function acquire(w: WasmCrowd): number {
  if (w.slotTop === w.slotCount) throw new Error("wasm crowd: pose slots exhausted (nesting deeper than planned)");
  return w.slotBase + w.slotStride * w.slotTop++;
}

export function release(w: WasmCrowd): void {
  w.slotTop--;
}

/** A motion the kernel does not sample (procedural, STEP/CUBICSPLINE): JS samples it into staging. */
function stage(w: WasmCrowd, inst: GraphInstance, dst: number, src: MotionSource, mi: MachineInstance, s: number, c: number): void {
  const time = x[0]!;
  if (w.stagingTop === STAGING_CAPACITY) flush(w);
  const pose = w.staging[w.stagingTop++]!;
  if (isProceduralClipUnchecked(src)) {
    src.sample(pose, time);
  } else {
    sampleClipUnchecked(pose, src, time, mi.cursors[s]![c]!, inst.graph.options.quatMode);
    const extractor = inst.graph.rootExtractors.get(src);
    if (extractor) stripRootMotionUnchecked(pose, extractor);
  }
  emit(w, OP.load, dst, pose.t.byteOffset, 0, 0, 0);
}

/** The frozen pose is a JS pose: copied into staging, then loaded. */
function loadFrozen(w: WasmCrowd, dst: number, mi: MachineInstance): void {
  if (w.stagingTop === STAGING_CAPACITY) flush(w);
  const pose = w.staging[w.stagingTop++]!;
  const frozen = mi.frozen;
  pose.t.set(frozen.t);
  pose.r.set(frozen.r);
  pose.s.set(frozen.s);
  emit(w, OP.load, dst, pose.t.byteOffset, 0, 0, 0);
}

/**
 * Whether child c of state s is sampled by the kernel from a clip whose scales are all exactly 1 (so is
 * its sampled pose: STRIP leaves scales alone). A BLEND of two such poses may skip its scales.
 */
function unitScales(w: WasmCrowd, mi: MachineInstance, s: number, c: number): boolean {
  const header = w.sourceHeader[mi.machine.id]![s]![c]!;
  return header >= 0 && w.i32[(header >> 2) + HEADER_SCALES_UNIT] === 1;
}

/** Samples child c of state s at time x[0]. */
function sampleSource(w: WasmCrowd, inst: GraphInstance, dst: number, src: MotionSource, mi: MachineInstance, s: number, c: number): void {
  const id = mi.machine.id;
  const header = w.sourceHeader[id]![s]![c]!;
  if (header < 0) {
    stage(w, inst, dst, src, mi, s, c);
    return;
  }
  w.f64[emit(w, OP.sample, dst, header, w.rotMode, 0, 0)] = x[0]!;
  const strip = w.sourceStrip[id]![s]![c]!;
  if (strip !== 0) emit(w, OP.strip, dst, strip, 0, 0, 0);
}

/** Records state `s`'s pose into slot `out` (step.ts's evaluateState). */
export function recordState(w: WasmCrowd, inst: GraphInstance, mi: MachineInstance, s: number, out: number): void {
  const st = mi.machine.states[s]!;
  const m = st.motion;
  if (m.kind === "clip") {
    childTimeAt(mi, st, s, m.source, false, x, 0);
    sampleSource(w, inst, out, m.source, mi, s, 0);
    return;
  }
  if (m.kind === "machine") {
    recordMachine(w, inst, mi.nested[s]!, out);
    return;
  }
  const weights = childWeights(inst, mi, s);
  let acc = 0;
  let unit = false;
  for (let c = 0; c < m.sources.length; c++) {
    const wc = weights[c]!;
    if (!(wc > 0)) continue;
    const src = m.sources[c]!;
    childTimeAt(mi, st, s, src, m.sync, x, 0);
    if (acc === 0) {
      sampleSource(w, inst, out, src, mi, s, c);
      acc = wc;
      unit = unitScales(w, mi, s, c);
    } else {
      const tmp = acquire(w);
      sampleSource(w, inst, tmp, src, mi, s, c);
      acc += wc;
      unit = unit && unitScales(w, mi, s, c);
      w.f64[emit(w, OP.blend, out, out, tmp, w.rotMode, unit ? 1 : 0)] = wc / acc;
      release(w);
    }
  }
  if (acc === 0) emit(w, OP.copy, out, w.restSlot, 0, 0, 0);
}

/** Records a machine's pose into slot `out`. */
function recordMachine(w: WasmCrowd, inst: GraphInstance, mi: MachineInstance, out: number): void {
  const at = recordMachineAt(w, inst, mi, out);
  if (at !== out) emit(w, OP.copy, out, at, 0, 0, 0);
}

/**
 * Records a machine's pose and returns the slot that holds it: `out`, or for a machine that inertializes
 * or dead-blends, its history slot in kernel memory (kernel-poses.ts), which the kernel writes instead of
 * copying the output there every frame.
 */
function recordMachineAt(w: WasmCrowd, inst: GraphInstance, mi: MachineInstance, out: number): number {
  if (inst.keeper !== undefined && inst.keeper.keeps(mi)) return recordKeptInPlace(w, inst, mi, out);
  if (mi.depth === 0) {
    recordState(w, inst, mi, mi.current, out);
    return out;
  }
  if (mi.source >= 0) recordState(w, inst, mi, mi.source, out);
  else loadFrozen(w, out, mi);
  for (let i = 0; i < mi.depth; i++) {
    const e = mi.stack[i]!;
    const tmp = acquire(w);
    recordState(w, inst, mi, e.to, tmp);
    w.f64[emit(w, OP.blend, out, out, tmp, w.rotMode, 0)] = e.weight;
    release(w);
  }
  return out;
}

/**
 * Records character `index`'s layered pose (as `evaluatePose`) followed by its output: the local pose
 * into the crowd's pose buffer and the model-space matrices into its model buffer.
 */
export function recordCharacter(w: WasmCrowd, inst: GraphInstance, index: number): void {
  const graph = inst.graph;
  w.slotTop = 0;
  const out = acquire(w);
  const layerSlot = acquire(w);
  const layers = inst.layers.length;
  // The slot holding the character's pose: `out`, or a lone layer's kept machine's history slot.
  let pose = out;
  for (let li = 0; li < layers; li++) {
    const layer = graph.layers[li]!;
    const mi = inst.layers[li]!;
    layerWeightAt(inst, li, x, 2);
    const weight = x[2]!;
    if (li === 0 && layer.mode === "override" && weight >= 1 && layer.mask === null) {
      if (layers === 1) pose = recordMachineAt(w, inst, mi, out);
      else recordMachine(w, inst, mi, out);
      continue;
    }
    if (li === 0) emit(w, OP.copy, out, w.restSlot, 0, 0, 0);
    if (!(weight > 0)) continue;
    const src = recordMachineAt(w, inst, mi, layerSlot);
    // Fused only when the machine wrote the layer slot itself (a dead-blending machine's history slot must be written).
    x[2] = weight;
    if (src === layerSlot) emitLayer(w, out, layerSlot, w.masks[li]!, layer.mode === "additive" ? 1 : 0, x, 2);
    else w.f64[emit(w, OP.layer, out, src, w.masks[li]!, layer.mode === "additive" ? 1 : 0, w.rotMode)] = weight;
  }
  const J = w.jointCount;
  emit(w, OP.output, pose, w.poseAt === 0 ? 0 : w.poseAt + 40 * J * index, w.modelAt + 64 * J * index, w.rootAt, 0);
}

/**
 * `recordCharacter` for a character `advanceSteady` just advanced: the same commands, with the layer
 * and child weights (and BLEND weights) taken from the plan instead of computed again. Each layer's
 * machine is in no crossfade and its current state plays a clip or a blend.
 */
export function recordSteady(w: WasmCrowd, inst: GraphInstance, index: number, plan: SteadyPlan): void {
  const graph = inst.graph;
  w.slotTop = 0;
  const out = acquire(w);
  const layerSlot = acquire(w);
  for (let li = 0; li < inst.layers.length; li++) {
    const layer = graph.layers[li]!;
    const mi = inst.layers[li]!;
    const weight = plan.layerWeight[li]!;
    if (li === 0 && layer.mode === "override" && weight >= 1 && layer.mask === null) {
      recordPlanned(w, inst, mi, plan, li, out);
      continue;
    }
    if (li === 0) emit(w, OP.copy, out, w.restSlot, 0, 0, 0);
    if (!(weight > 0)) continue;
    recordPlanned(w, inst, mi, plan, li, layerSlot);
    emitLayer(w, out, layerSlot, w.masks[li]!, layer.mode === "additive" ? 1 : 0, plan.layerWeight, li);
  }
  const J = w.jointCount;
  emit(w, OP.output, out, w.poseAt === 0 ? 0 : w.poseAt + 40 * J * index, w.modelAt + 64 * J * index, w.rootAt, 0);
}

/** `recordState` of layer li's current state, with the plan's weights. */
function recordPlanned(w: WasmCrowd, inst: GraphInstance, mi: MachineInstance, plan: SteadyPlan, li: number, out: number): void {
  const s = mi.current;
  const st = mi.machine.states[s]!;
  const m = st.motion;
  const start = w.count, batch = w.batch, top = w.slotTop;
  if (m.kind === "clip") {
    childTimeAt(mi, st, s, m.source, false, x, 0);
    sampleSource(w, inst, out, m.source, mi, s, 0);
    if (inst.keeper !== undefined && inst.keeper.keeps(mi)) recordRememberKept(w, inst, mi, out, start, batch, top);
    return;
  }
  if (m.kind === "machine") throw new Error("recordSteady: a nested machine is not steady");
  const count = plan.childCount[li]!;
  const children = plan.children[li]!, blend = plan.blendWeight[li]!;
  let unit = false;
  for (let k = 0; k < count; k++) {
    const c = children[k]!;
    const src = m.sources[c]!;
    childTimeAt(mi, st, s, src, m.sync, x, 0);
    if (k === 0) {
      sampleSource(w, inst, out, src, mi, s, c);
      unit = unitScales(w, mi, s, c);
    } else {
      const tmp = acquire(w);
      sampleSource(w, inst, tmp, src, mi, s, c);
      unit = unit && unitScales(w, mi, s, c);
      w.f64[emit(w, OP.blend, out, out, tmp, w.rotMode, unit ? 1 : 0)] = blend[k]!;
      release(w);
    }
  }
  if (count === 0) emit(w, OP.copy, out, w.restSlot, 0, 0, 0);
  // A settled machine that inertializes or dead-blends still keeps its output (its next transition's source).
  if (inst.keeper !== undefined && inst.keeper.keeps(mi)) recordRememberKept(w, inst, mi, out, start, batch, top);
}
