// Inertialize and deadBlend on the crowd kernel (docs/crowd-kernel.md, "Inertialize and deadBlend").
// Every machine that inertializes or dead-blends keeps its poses in the kernel's memory: output history, captured source and velocity, offset and its
// velocity, frozen pose. JS keeps the bookkeeping (InertialState's times, phase,
// history count) and records the pose work as commands, operation for operation what src/graph/step.ts
// does (rememberOutput, captureSource, evaluateFirstEntry, foldMachine): the kernel then evaluates the
// target only and adds the decaying offset (inertialize) or blends from the extrapolated source
// (deadBlend), with no pose evaluated in JS.
import { inertialDecayAt } from "../../blend/pose-offset.ts";
import type { CompiledGraph } from "../../graph/compiled-graph.ts";
import { BLEND } from "../../graph/compiled-graph.ts";
import type { GraphInstance, InertialState, MachineInstance, PoseKeeper, StackEntry } from "../../graph/graph-instance.ts";
import { DEAD_BLEND_HALFLIFE, HALF_DECAY, LAST, NOW, ORIGIN, PREVIOUS, SCRATCH, SOURCE_TIME, STALE_HISTORY, firstBlend } from "../../graph/step.ts";
import type { Pose } from "../../pose/pose.ts";
import { acquire, emit, flush, recordState, release } from "./record-pose.ts";
import { readSlot, slotBytes } from "./slot-layout.ts";
import { OP, type WasmCrowd } from "./wasm-crowd.ts";

/**
 * Bytes of an offset or velocity vector (assembly/inertial.ts): a flags word per group of four joints
 * (padded to 16 bytes), then nine f32x4 planes per group, rotation planes first.
 */
export function vectorBytes(jointCount: number): number {
  const groups = Math.ceil(jointCount / 4);
  return ((4 * groups + 15) & ~15) + 144 * groups;
}

/**
 * Bytes of one machine's block: four slots (two of history, source, frozen), three vectors and
 * the dead blend's directions (a slot's rotation part).
 */
export function blockBytes(jointCount: number): number {
  return 4 * slotBytes(jointCount) + 3 * vectorBytes(jointCount) + 64 * Math.ceil(jointCount / 4);
}

/** Per machine id: whether the kernel keeps its poses — it inertializes or dead-blends. */
export function keptMachines(graph: CompiledGraph): boolean[] {
  return graph.machines.map((m) => m.inertial);
}

/** One machine's poses in kernel memory (byte addresses). `lastAt` and `previousAt` swap each output. */
interface KernelBlock {
  lastAt: number;
  previousAt: number;
  readonly sourceAt: number;
  readonly frozenAt: number;
  readonly velocityAt: number;
  readonly offsetAt: number;
  readonly offsetVelocityAt: number;
  readonly directionsAt: number;
}

/** A kernel crowd character's keeper (GraphInstance.keeper): its blocks and the crowd's recorder. */
export class KernelPoses implements PoseKeeper {
  readonly w: WasmCrowd;
  /** Per machine id: its block, or null for a machine whose poses JS keeps (none to keep). */
  readonly blocks: readonly (KernelBlock | null)[];

  constructor(w: WasmCrowd, blocks: readonly (KernelBlock | null)[]) {
    this.w = w;
    this.blocks = blocks;
  }

  keeps(mi: MachineInstance): boolean {
    return this.blocks[mi.machine.id] !== null;
  }

  // Each entry point records on top of whatever slots are in use (`evaluate` can run inside the JS
  // evaluation of a machine the recorder staged) and leaves them as it found them.

  evaluate(inst: GraphInstance, mi: MachineInstance, out: Pose): void {
    // A JS evaluation reaching a kept machine (`step` on a kernel crowd's instance, a staged machine
    // nesting it): record, run the batch now, read the pose back.
    const w = this.w;
    const top = w.slotTop;
    const slot = acquire(w);
    recordKept(w, inst, mi, slot);
    flush(w);
    readSlot(out, w.f32, slot >> 2);
    w.slotTop = top;
  }

  capture(inst: GraphInstance, mi: MachineInstance): void {
    const top = this.w.slotTop;
    recordCapture(this.w, inst, mi, this.blocks[mi.machine.id]!);
    this.w.slotTop = top;
  }

  freeze(inst: GraphInstance, mi: MachineInstance): void {
    const top = this.w.slotTop;
    recordFold(this.w, inst, mi, this.blocks[mi.machine.id]!.frozenAt);
    this.w.slotTop = top;
  }

  collapseOldest(inst: GraphInstance, mi: MachineInstance): void {
    const w = this.w;
    const top = w.slotTop;
    const frozen = this.blocks[mi.machine.id]!.frozenAt;
    const e = mi.stack[0]!;
    if (firstBlend(mi) !== BLEND.crossfade) {
      recordFirstEntry(w, inst, mi, e, frozen);
    } else {
      if (mi.source >= 0) recordState(w, inst, mi, mi.source, frozen);
      const tmp = acquire(w);
      recordState(w, inst, mi, e.to, tmp);
      w.f64[emit(w, OP.blend, frozen, frozen, tmp, w.rotMode, 0)] = e.weight;
    }
    w.slotTop = top;
  }
}

/**
 * The keeper of character `index`: blocks laid out from `w.blocksAt`, one per kept machine, in machine
 * id order (kept machine k of character i at blocksAt + (i·K + k)·blockBytes).
 */
export function createKernelPoses(w: WasmCrowd, graph: CompiledGraph, index: number): KernelPoses {
  const J = graph.skeleton.jointCount;
  const slot = slotBytes(J), vector = vectorBytes(J), bytes = blockBytes(J);
  const kept = keptMachines(graph);
  const K = kept.filter(Boolean).length;
  let k = 0;
  const blocks = kept.map((isKept): KernelBlock | null => {
    if (!isKept) return null;
    const at = w.blocksAt + (index * K + k++) * bytes;
    const vectors = at + 4 * slot;
    return {
      lastAt: at, previousAt: at + slot, sourceAt: at + 2 * slot, frozenAt: at + 3 * slot,
      velocityAt: vectors, offsetAt: vectors + vector, offsetVelocityAt: vectors + 2 * vector, directionsAt: vectors + 3 * vector,
    };
  });
  return new KernelPoses(w, blocks);
}

function blockOf(inst: GraphInstance, mi: MachineInstance): KernelBlock {
  return (inst.keeper as KernelPoses).blocks[mi.machine.id]!;
}

/** step.ts's evaluateMachine for a kept machine: its output into slot `out`, remembered as the latest. */
export function recordKept(w: WasmCrowd, inst: GraphInstance, mi: MachineInstance, out: number): void {
  const at = recordKeptInPlace(w, inst, mi, out);
  if (at !== out) emit(w, OP.copy, out, at, 0, 0, 0);
}

/**
 * evaluateMachine for a kept machine, folded straight into the slot of its history that becomes the
 * latest output (rememberOutput without the copy); returns that slot (`out` for a machine without history).
 * Nothing writes the slot until the next evaluation of the machine, so the caller may read it as the output.
 */
export function recordKeptInPlace(w: WasmCrowd, inst: GraphInstance, mi: MachineInstance, out: number): number {
  const ine = mi.inertial;
  if (!ine) {
    recordFold(w, inst, mi, out);
    return out;
  }
  const b = blockOf(inst, mi);
  advanceHistory(ine, b);
  recordFold(w, inst, mi, b.lastAt);
  ine.times[LAST] = ine.times[NOW]!;
  return b.lastAt;
}

/** recordKept's remembering alone, for a settled kept machine whose state the steady recorder wrote into `out`. */
export function recordRememberKept(w: WasmCrowd, inst: GraphInstance, mi: MachineInstance, out: number): void {
  const ine = mi.inertial;
  if (!ine) return;
  const b = blockOf(inst, mi);
  advanceHistory(ine, b);
  emit(w, OP.copy, b.lastAt, out, 0, 0, 0);
  ine.times[LAST] = ine.times[NOW]!;
}

/**
 * rememberOutput's bookkeeping: a new output time moves the latest output down (the older one's slot is
 * reused for the new one); a repeat at the same time replaces the latest. The fold does not read the
 * history (captures run before it), so it may write the new latest slot directly.
 */
function advanceHistory(ine: InertialState, b: KernelBlock): void {
  const times = ine.times;
  if (ine.history === 0 || times[NOW]! > times[LAST]!) {
    const oldest = b.previousAt;
    b.previousAt = b.lastAt;
    b.lastAt = oldest;
    times[PREVIOUS] = times[LAST]!;
    if (ine.history < 2) ine.history++;
  }
}

/** foldMachine for a kept machine. */
function recordFold(w: WasmCrowd, inst: GraphInstance, mi: MachineInstance, out: number): void {
  if (mi.depth === 0) {
    recordState(w, inst, mi, mi.current, out);
    return;
  }
  let first = 0;
  if (firstBlend(mi) !== BLEND.crossfade) {
    recordFirstEntry(w, inst, mi, mi.stack[0]!, out);
    first = 1;
  } else if (mi.source >= 0) recordState(w, inst, mi, mi.source, out);
  else emit(w, OP.copy, out, blockOf(inst, mi).frozenAt, 0, 0, 0);
  for (let i = first; i < mi.depth; i++) {
    const e = mi.stack[i]!;
    const tmp = acquire(w);
    recordState(w, inst, mi, e.to, tmp);
    w.f64[emit(w, OP.blend, out, out, tmp, w.rotMode, 0)] = e.weight;
    release(w);
  }
}

/** captureSource: the last output and its velocity, or (no recent output) the machine now, at rest. */
function recordCapture(w: WasmCrowd, inst: GraphInstance, mi: MachineInstance, b: KernelBlock): void {
  const ine = mi.inertial!;
  const times = ine.times;
  const vbytes = vectorBytes(w.jointCount);
  ine.phase = 0;
  emit(w, OP.resetDirections, b.directionsAt, 0, 0, 0, 0);
  if (ine.history === 0 || times[NOW]! - times[LAST]! > STALE_HISTORY) {
    recordFold(w, inst, mi, b.sourceAt);
    times[SOURCE_TIME] = times[NOW]!;
    emit(w, OP.zero, b.velocityAt, vbytes, 0, 0, 0);
    return;
  }
  emit(w, OP.copy, b.sourceAt, b.lastAt, 0, 0, 0);
  times[SOURCE_TIME] = times[LAST]!;
  times[SCRATCH] = times[LAST]! - times[PREVIOUS]!;
  if (ine.history >= 2 && times[SCRATCH]! > 0) w.f64[emit(w, OP.difference, b.velocityAt, b.lastAt, b.previousAt, 0, 0)] = 1 / times[SCRATCH]!;
  else emit(w, OP.zero, b.velocityAt, vbytes, 0, 0, 0);
}

/**
 * Appends OFFSET: dst ← pose ⊕ (c0·x + c1·y), c0 = times[SCRATCH], c1 = times[SCRATCH + 1] (y = 0: c0·x).
 * The coefficients travel in `times` slots (a double argument would be boxed).
 */
function emitOffset(w: WasmCrowd, dst: number, pose: number, x: number, y: number, times: Float64Array): void {
  const f = emit(w, OP.offset, dst, pose, x, y, 0);
  w.f64[f] = times[SCRATCH]!;
  // The fifth int32 field (just before the float64) carries c1 as a float32.
  if (y !== 0) w.f32[2 * f - 1] = times[SCRATCH + 1]!;
}

/** evaluateFirstEntry: the bottom stack entry, which inertializes or dead-blends, into slot `out`. */
function recordFirstEntry(w: WasmCrowd, inst: GraphInstance, mi: MachineInstance, e: StackEntry, out: number): void {
  const ine = mi.inertial!;
  const b = blockOf(inst, mi);
  const times = ine.times;
  const tr = mi.machine.transitions[e.transition]!;
  times[SCRATCH] = times[NOW]! - times[SOURCE_TIME]!;
  if (tr.blend === BLEND.deadBlend) {
    // E(τ): the source drifting on with its decaying velocity (each joint's rate from the transition's,
    // faster for a fast joint: fire's extrapolationRatesInto), then the blend from E to the target.
    const ext = acquire(w);
    const f = emit(w, OP.extrapolate, ext, b.sourceAt, b.velocityAt, 0, 0);
    const lambda = HALF_DECAY / (DEAD_BLEND_HALFLIFE * tr.duration), lt = lambda * times[SCRATCH]!;
    w.f64[f] = times[SCRATCH]!;
    w.f32[2 * f - 1] = lambda;
    // k(τ) at the transition's rate (extrapolatePoseAt's formula, in float64), for every joint that is not fast.
    w.f32[2 * f - 2] = lt > 0 ? (2 - (2 + lt) * Math.exp(-lt)) / lambda : 0;
    recordState(w, inst, mi, e.to, out);
    w.f64[emit(w, OP.deadBlend, out, ext, b.directionsAt, 0, 0)] = e.weight;
    release(w);
    return;
  }
  recordState(w, inst, mi, e.to, out);
  if (ine.phase === 0) {
    const ext = acquire(w);
    emitOffset(w, ext, b.sourceAt, b.velocityAt, 0, times);
    w.f64[emit(w, OP.difference, b.offsetAt, ext, out, 0, 0)] = 1;
    release(w);
    times[ORIGIN] = e.elapsed;
    emit(w, OP.zero, b.offsetVelocityAt, vectorBytes(w.jointCount), 0, 0, 0);
    ine.phase = 1;
  } else if (ine.phase === 1 && e.elapsed > times[ORIGIN]!) {
    // v₀ = ((source extrapolated to now) ⊖ target − x₀) / Δt (step.ts, offsetVelocityAt).
    const ext = acquire(w);
    emitOffset(w, ext, b.sourceAt, b.velocityAt, 0, times);
    w.f64[emit(w, OP.difference, b.offsetVelocityAt, ext, out, b.offsetAt, 0)] = 1 / (e.elapsed - times[ORIGIN]!);
    release(w);
    ine.phase = 2;
  }
  times[SCRATCH + 1] = tr.duration - times[ORIGIN]!;
  times[SCRATCH] = times[SCRATCH + 1]! > 0 ? (e.elapsed - times[ORIGIN]!) / times[SCRATCH + 1]! : 1;
  inertialDecayAt(times, SCRATCH);
  emitOffset(w, out, out, b.offsetAt, b.offsetVelocityAt, times);
}
