// Inertialize and deadBlend on the crowd kernel (docs/crowd-kernel.md, "Inertialize and deadBlend").
// Every machine that inertializes or dead-blends keeps its poses in the kernel's memory: captured source
// and velocity, offset and its velocity, frozen pose, and its last two outputs.
// JS keeps the bookkeeping (InertialState's times, phase, history count) and records the pose work as
// commands, operation for operation what src/graph/step.ts does (rememberOutput, captureSource,
// evaluateFirstEntry, foldMachine): the kernel then evaluates the target only and adds the decaying
// offset (inertialize) or blends from the extrapolated source (deadBlend), with no pose evaluated in JS.
//
// An output is remembered by its recipe, not its pose: the commands that made it (a few SAMPLE, BLEND,
// OFFSET records, copied from the batch), which only read clip data and the offset vectors. A transition
// fires every few hundred frames per character at most, so rebuilding the last two outputs then (the same
// commands, so the same bits) costs far less than streaming a 1.7 kB pose per character into memory every
// frame. Outputs whose commands read anything that changes (a dead blend's extrapolated source, a frozen
// pose, a pose loaded from JS) are kept as poses, as before.
import { inertialDecayAt } from "../../blend/pose-offset.ts";
import type { CompiledGraph } from "../../graph/compiled-graph.ts";
import { BLEND } from "../../graph/compiled-graph.ts";
import type { GraphInstance, InertialState, MachineInstance, PoseKeeper, StackEntry } from "../../graph/graph-instance.ts";
import { DEAD_BLEND_HALFLIFE, HALF_DECAY, LAST, NOW, ORIGIN, PREVIOUS, SCRATCH, SOURCE_TIME, STALE_HISTORY, firstBlend } from "../../graph/step.ts";
import type { Pose } from "../../pose/pose.ts";
import { acquire, emit, flush, recordState, release } from "./record-pose.ts";
import { readSlot, slotBytes } from "./slot-layout.ts";
import { COMMAND_CAPACITY, OP, type WasmCrowd } from "./wasm-crowd.ts";

/**
 * Bytes of an offset or velocity vector (assembly/inertial.ts): a flags word per group of four joints
 * (padded to 16 bytes), then nine f32x4 planes per group, rotation planes first.
 */
export function vectorBytes(jointCount: number): number {
  const groups = Math.ceil(jointCount / 4);
  return ((4 * groups + 15) & ~15) + 144 * groups;
}

/** Commands a remembered output's recipe may hold (longer folds keep their pose). */
const RECIPE_COMMANDS = 8;

/**
 * A kept machine's state at the start of its per-frame record, so that the recorder reads and writes it
 * in the memory it streams anyway rather than in JS objects reached one through another: int32 NEWEST
 * (the history entry of the latest output), BUILDING (the entry a fold is writing, −1: none), CAPTURED
 * (1: a capture from the history ran and no output was remembered since, so source and velocity stand)
 * and PHASE (the inertialization's: 0 offset unknown, 1 x₀ known, 2 x₀ and v₀ known), then the
 * machine's InertialState `times` (float64 × 8, which the instance views here).
 */
const NEWEST = 0, BUILDING = 1, CAPTURED = 2, PHASE = 3;
/** Byte offset of `times` in a record, and of the history after it. */
const TIMES_AT = 16, STATE_BYTES = 16 + 8 * 8;

/** Bytes of a block's history: the two entries (ENTRY int32 each), then their recipes. */
const HISTORY_BYTES = 2 * 4 * 8 + 2 * 32 * RECIPE_COMMANDS; // 2 × ENTRY int32, then the recipes

/**
 * Entries of a packed offset record (assembly/inertial.ts, packOffset): one per group of four joints
 * and kind (translation, rotation, scale) that moves in the offset or its velocity. Every group's
 * rotations and a quarter of them more (the robot's walk ⇄ run moves 9 of 11 groups' rotations and 2
 * groups' translations); an offset moving more is read from the vectors themselves.
 */
export function packedCapacity(jointCount: number): number {
  const groups = Math.ceil(jointCount / 4);
  return groups + Math.ceil(groups / 4);
}

/** Bytes of a packed offset record: count, x, y, capacity, an int32 per entry (16-byte padded), 96 bytes per entry. */
export function packedBytes(jointCount: number): number {
  const cap = packedCapacity(jointCount);
  return ((16 + 4 * cap + 15) & ~15) + 96 * cap;
}

/**
 * Bytes of one kept machine's per-frame record: its history (the two entries, then their recipes) and
 * its packed offset. Records lie one after another across the crowd (character i's at recordsAt +
 * i·keptCount·recordBytes), apart from the blocks, so that what a frame reads and writes per character
 * streams as one short run of memory, next to the previous character's.
 */
export function recordBytes(jointCount: number): number {
  return STATE_BYTES + HISTORY_BYTES + packedBytes(jointCount);
}

/**
 * Bytes of one machine's block: four slots (two of history, source, frozen), three vectors and the
 * dead blend's directions (a slot's rotation part). Touched when a transition starts, not every frame.
 */
export function blockBytes(jointCount: number): number {
  return 4 * slotBytes(jointCount) + 3 * vectorBytes(jointCount) + 64 * Math.ceil(jointCount / 4);
}

/** Byte offset of the frozen pose in a block (the fourth slot). */
export function frozenOffset(jointCount: number): number {
  return 3 * slotBytes(jointCount);
}

/**
 * Reads what recording characters [from, to) will touch first that the crowd's own warm-up
 * (warm-characters.ts) does not: per kept machine the lines of its record the recorder reads and writes
 * every frame (its state and times, the history entries, the recipes), and each character's keeper.
 * Reading them for a tile at once issues those cache misses together rather than one per character: at
 * 1,000 robots mid-inertialization they are cold by their turn (the kernel's blocks and the crowd's
 * output buffers pass through the cache between two frames).
 */
export function warmBlocks(w: WasmCrowd, instances: readonly GraphInstance[], from: number, to: number): void {
  const i32 = w.i32, kept = w.keptCount, bytes = w.recordBytes;
  const entries = STATE_BYTES >> 2, recipes = entries + 2 * ENTRY;
  let s = 0;
  for (let k = from * kept, end = to * kept; k < end; k++) {
    const at = (w.recordsAt + k * bytes) >> 2;
    s += i32[at]! + i32[at + entries]! + i32[at + recipes]! + i32[at + recipes + 8 * RECIPE_COMMANDS]!;
  }
  for (let i = from; i < to; i++) {
    const inst = instances[i]!;
    const keeper = inst.keeper as KernelPoses | undefined;
    if (keeper === undefined) continue;
    s += keeper.records;
    // What the graph runtime's update reads of a kept machine: its InertialState's times (a view of the
    // record, whose data the loop above read) and the running transition.
    const layers = inst.layers;
    for (let li = 0; li < layers.length; li++) {
      const mi = layers[li]!;
      const ine = mi.inertial;
      if (ine !== null) s += ine.times.length;
      if (mi.depth > 0 && mi.stack[0]!.elapsed > 0) s++;
    }
  }
  sink[0] = s;
}

/** Where warmBlocks' reads go, so the compiler keeps them. */
const sink = new Int32Array(1);

// A history entry (ENTRY int32 per entry, two entries, at KernelBlock.entries of WasmCrowd.i32): its own pose slot, where its
// pose is now (its slot, the captured source's, or 0: only its recipe), its recipe (byte address, command
// count), the slot the recipe wrote its output to, the first pool slot its scratch slots start from and
// how many it uses, and whether it reads the offset vectors (1).
const ENTRY = 8;
const OWN = 0, AT = 1, RECIPE = 2, COUNT = 3, OUT = 4, TOP = 5, SPAN = 6, USES_OFFSET = 7;

/** Per machine id: whether the kernel keeps its poses — it inertializes or dead-blends. */
export function keptMachines(graph: CompiledGraph): boolean[] {
  return graph.machines.map((m) => m.inertial);
}

/** One machine's poses in kernel memory (byte addresses) and its two last outputs. */
interface KernelBlock {
  /** Int32 index (into WasmCrowd.i32) of the machine's state in its record (NEWEST, BUILDING, CAPTURED, PHASE). */
  readonly state: number;
  /** Int32 index of the two history entries (ENTRY fields each). */
  readonly entries: number;
  /**
   * Every state plays packed clips (no nested machine, no pose loaded from JS): a fold's commands are
   * then replayable but for a frozen pose's COPY, and use at most two scratch slots.
   */
  readonly plain: boolean;
  /** Some transition of the machine dead-blends (only a dead blend reads the blend directions). */
  readonly deadBlends: boolean;
  readonly sourceAt: number;
  readonly frozenAt: number;
  readonly velocityAt: number;
  readonly offsetAt: number;
  readonly offsetVelocityAt: number;
  readonly directionsAt: number;
  /** The packed offset record (packOffset) that a running inertialization's per-frame OFFSET reads. */
  readonly packedAt: number;
}

/** A kernel crowd character's keeper (GraphInstance.keeper): its blocks and the crowd's recorder. */
export class KernelPoses implements PoseKeeper {
  readonly w: WasmCrowd;
  /** Per machine id: its block, or null for a machine whose poses JS keeps (none to keep). */
  readonly blocks: readonly (KernelBlock | null)[];
  /** Byte address of the character's first record (kept machine k's is `records + k·w.recordBytes`). */
  readonly records: number;
  /** What every character of the crowd shares: per machine id, its kept index and whether it is plain. */
  readonly layout: KeptLayout;

  constructor(w: WasmCrowd, blocks: readonly (KernelBlock | null)[], records: number, layout: KeptLayout) {
    this.w = w;
    this.blocks = blocks;
    this.records = records;
    this.layout = layout;
  }

  keeps(mi: MachineInstance): boolean {
    return this.layout.kept[mi.machine.id]! >= 0;
  }

  /** The machine's InertialState `times`, viewing its record (the kernel's memory never grows). */
  timesOf(mi: MachineInstance): Float64Array {
    return new Float64Array(this.w.memory.buffer, this.records + this.layout.kept[mi.machine.id]! * this.w.recordBytes + TIMES_AT, 8);
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

/** Per machine id, shared by a crowd's keepers: its index among the kept machines (−1: not kept), and 1 when plain (KernelBlock.plain). */
export interface KeptLayout {
  readonly kept: Int32Array;
  readonly plain: Uint8Array;
}

const layouts = new WeakMap<WasmCrowd, KeptLayout>();

function layoutOf(w: WasmCrowd, graph: CompiledGraph): KeptLayout {
  let layout = layouts.get(w);
  if (layout) return layout;
  const kept = new Int32Array(graph.machines.length).fill(-1), plain = new Uint8Array(graph.machines.length);
  let k = 0;
  keptMachines(graph).forEach((isKept, id) => {
    if (!isKept) return;
    kept[id] = k++;
    plain[id] = graph.machines[id]!.states.every((st, s) => st.motion.kind !== "machine" && w.sourceHeader[id]![s]!.every((h) => h >= 0)) ? 1 : 0;
  });
  layout = { kept, plain };
  layouts.set(w, layout);
  return layout;
}

/**
 * The keeper of character `index`: blocks laid out from `w.blocksAt`, one per kept machine, in machine
 * id order (kept machine k of character i at blocksAt + (i·K + k)·blockBytes), and its per-frame
 * records likewise from `w.recordsAt`.
 */
export function createKernelPoses(w: WasmCrowd, graph: CompiledGraph, index: number): KernelPoses {
  const J = graph.skeleton.jointCount;
  const slot = slotBytes(J), vector = vectorBytes(J), bytes = blockBytes(J), record = recordBytes(J);
  const layout = layoutOf(w, graph);
  const K = w.keptCount;
  const blocks = keptMachines(graph).map((isKept, id): KernelBlock | null => {
    if (!isKept) return null;
    const k = layout.kept[id]!;
    const at = w.blocksAt + (index * K + k) * bytes;
    const start = w.recordsAt + (index * K + k) * record;
    const state = start >> 2;
    w.i32[state + NEWEST] = 0;
    w.i32[state + BUILDING] = -1;
    w.i32[state + CAPTURED] = 0;
    w.i32[state + PHASE] = 0;
    const recipes = start + STATE_BYTES + 4 * 2 * ENTRY;
    const vectors = at + 4 * slot;
    const entries = (start + STATE_BYTES) >> 2;
    const packedAt = start + STATE_BYTES + HISTORY_BYTES;
    w.i32[(packedAt >> 2) + 3] = packedCapacity(J);
    for (let e = 0; e < 2; e++) {
      w.i32[entries + e * ENTRY + OWN] = at + e * slot;
      w.i32[entries + e * ENTRY + AT] = at + e * slot;
      w.i32[entries + e * ENTRY + RECIPE] = recipes + e * 32 * RECIPE_COMMANDS;
    }
    return {
      state, entries, plain: layout.plain[id] === 1,
      deadBlends: graph.machines[id]!.transitions.some((t) => t.blend === BLEND.deadBlend),
      sourceAt: at + 2 * slot, frozenAt: at + 3 * slot,
      velocityAt: vectors, offsetAt: vectors + vector, offsetVelocityAt: vectors + 2 * vector, directionsAt: vectors + 3 * vector,
      packedAt,
    };
  });
  return new KernelPoses(w, blocks, w.recordsAt + index * K * record, layout);
}

function blockOf(inst: GraphInstance, mi: MachineInstance): KernelBlock {
  return (inst.keeper as KernelPoses).blocks[mi.machine.id]!;
}

/** step.ts's evaluateMachine for a kept machine: its output into slot `out`, remembered as the latest. */
export function recordKept(w: WasmCrowd, inst: GraphInstance, mi: MachineInstance, out: number): void {
  const at = recordKeptInPlace(w, inst, mi, out);
  if (at !== out) emit(w, OP.copy, out, at, 0, 0, 0);
}

// The commands of the inertialization's own bookkeeping inside a fold (recordFirstEntry: the offset's
// origin and velocity), which are not part of the output's recipe: [excludedFrom, excludedTo) of batch
// `excludedBatch`.
let excludedFrom = -1, excludedTo = -1, excludedBatch = -1;

/**
 * evaluateMachine for a kept machine into slot `out`, remembered as the latest output by its recipe (or,
 * for a dead blend and any fold a recipe cannot replay, by its pose); returns the slot holding the
 * output: `out`, or for a dead blend the history slot it was folded into. Nothing writes that slot until
 * the next evaluation of the machine, so the caller may read it as the output.
 */
export function recordKeptInPlace(w: WasmCrowd, inst: GraphInstance, mi: MachineInstance, out: number): number {
  const ine = mi.inertial;
  if (!ine) {
    recordFold(w, inst, mi, out);
    return out;
  }
  // The commonest frame first, from the character's record alone (no block or InertialState read).
  const keeper = inst.keeper as KernelPoses;
  const id = mi.machine.id;
  const rec = keeper.records + keeper.layout.kept[id]! * w.recordBytes;
  if (w.i32[(rec >> 2) + PHASE] === 2 && mi.depth === 1 && keeper.layout.plain[id] === 1) {
    const en = mi.stack[0]!;
    if (en.transition >= 0 && mi.machine.transitions[en.transition]!.blend === BLEND.inertialize) {
      recordOffsetFrame(w, inst, mi, rec, en, out);
      return out;
    }
  }
  const b = keeper.blocks[id]!;
  const e = advanceHistory(ine, b, w.i32);
  const h = w.i32, base = b.entries + e * ENTRY;
  h[b.state + BUILDING] = e;
  if (firstBlend(mi) === BLEND.deadBlend) {
    // Reads the extrapolated source and rewrites the blend directions: kept as a pose, folded in place.
    recordFold(w, inst, mi, h[base + OWN]!);
    h[base + AT] = h[base + OWN]!;
    h[b.state + BUILDING] = -1;
    ine.times[LAST] = ine.times[NOW]!;
    return h[base + OWN]!;
  }
  const from = excludedFrom, to = excludedTo, batch = excludedBatch;
  excludedFrom = excludedTo = excludedBatch = -1;
  const start = w.count, startBatch = w.batch, top = w.slotTop;
  recordFold(w, inst, mi, out);
  remember(w, b, e, out, start, startBatch, top);
  excludedFrom = from; excludedTo = to; excludedBatch = batch;
  h[b.state + BUILDING] = -1;
  ine.times[LAST] = ine.times[NOW]!;
  return out;
}

/**
 * recordKeptInPlace for the commonest frame of an inertialization, its offset known (phase 2) and
 * nothing else running (one stack entry, inertialize, every state a packed clip or blend of them):
 * the target state's commands and the packed OFFSET with the decay coefficients at the entry's time,
 * remembered as the output's recipe — the general walk's commands without what it finds out again
 * every frame, so the same bits (test/crowd/kernel-inertial.test.ts). Reads and writes the machine's
 * record at byte `rec` only: its state, times (the InertialState's, viewed there), history and packed
 * offset. The history is full here (advanceHistory's count is 2): phase 2 comes two remembered outputs
 * after a capture, and only resetMachine empties the history, which empties the stack too.
 */
function recordOffsetFrame(w: WasmCrowd, inst: GraphInstance, mi: MachineInstance, rec: number, en: StackEntry, out: number): void {
  const i32 = w.i32, f64 = w.f64, state = rec >> 2, t = (rec + TIMES_AT) >> 3;
  // advanceHistory: a new output time makes the older entry the latest.
  i32[state + CAPTURED] = 0;
  let e = i32[state + NEWEST]!;
  if (f64[t + NOW]! > f64[t + LAST]!) {
    e ^= 1;
    i32[state + NEWEST] = e;
    f64[t + PREVIOUS] = f64[t + LAST]!;
  }
  // Room for the recipe in this batch: it is copied from the batch once recorded.
  if (w.count + RECIPE_COMMANDS >= COMMAND_CAPACITY - 1) flush(w);
  const start = w.count, top = w.slotTop;
  recordState(w, inst, mi, en.to, out);
  const c = t + SCRATCH;
  f64[c + 1] = mi.machine.transitions[en.transition]!.duration - f64[t + ORIGIN]!;
  f64[c] = f64[c + 1]! > 0 ? (en.elapsed - f64[t + ORIGIN]!) / f64[c + 1]! : 1;
  inertialDecayAt(f64, c);
  const f = emit(w, OP.packedOffset, out, out, rec + STATE_BYTES + HISTORY_BYTES, 0, 0);
  f64[f] = f64[c]!;
  w.f32[2 * f - 1] = f64[c + 1]!;
  const n = w.count - start;
  const base = state + (STATE_BYTES >> 2) + e * ENTRY;
  if (n > RECIPE_COMMANDS) {
    emit(w, OP.copy, i32[base + OWN]!, out, 0, 0, 0);
    i32[base + AT] = i32[base + OWN]!;
  } else {
    // A plain state's commands read only clip data, the rest pose and slots from `top` on: replayable.
    const recipe = i32[base + RECIPE]! >> 2, from = (w.commandsAt >> 2) + 8 * start;
    for (let q = 0, end = 8 * n; q < end; q++) i32[recipe + q] = i32[from + q]!;
    i32[base + AT] = 0;
    i32[base + COUNT] = n;
    i32[base + OUT] = out;
    i32[base + TOP] = top;
    i32[base + SPAN] = 2;
    i32[base + USES_OFFSET] = 1;
  }
  f64[t + LAST] = f64[t + NOW]!;
}

/**
 * recordKept's remembering alone, for a settled kept machine whose state the steady recorder wrote into
 * `out` with the commands from `start` of batch `batch` on, scratch slots from pool index `top`.
 */
export function recordRememberKept(w: WasmCrowd, inst: GraphInstance, mi: MachineInstance, out: number, start: number, batch: number, top: number): void {
  const ine = mi.inertial;
  if (!ine) return;
  const b = blockOf(inst, mi);
  const e = advanceHistory(ine, b, w.i32);
  excludedFrom = excludedTo = excludedBatch = -1;
  remember(w, b, e, out, start, batch, top);
  ine.times[LAST] = ine.times[NOW]!;
}

/**
 * rememberOutput's bookkeeping: a new output time makes the older entry the latest (its pose or recipe
 * is replaced); a repeat at the same time replaces the latest. Returns the latest entry.
 */
function advanceHistory(ine: InertialState, b: KernelBlock, h: Int32Array): number {
  const times = ine.times;
  h[b.state + CAPTURED] = 0;
  if (ine.history === 0 || times[NOW]! > times[LAST]!) {
    h[b.state + NEWEST] = h[b.state + NEWEST]! ^ 1;
    times[PREVIOUS] = times[LAST]!;
    if (ine.history < 2) ine.history++;
  }
  return h[b.state + NEWEST]!;
}

/**
 * Keeps entry `e` as the recipe of the output the batch's commands from `start` on wrote into `out`
 * (less the excluded bookkeeping): every command must be replayable — it reads only clip data, the
 * rest pose, scratch slots (`out`, or pool slots from index `top` on) and this machine's offset vectors —
 * else the pose itself is copied into the entry's slot. Runs per character per frame: integer tests and
 * plain copies only.
 */
function remember(w: WasmCrowd, b: KernelBlock, e: number, out: number, start: number, batch: number, top: number): void {
  const h = w.i32, base = b.entries + e * ENTRY;
  const i32 = w.i32;
  const recipe = h[base + RECIPE]! >> 2;
  if (b.plain && w.batch === batch && (excludedBatch === -1 || excludedBatch === batch) && w.count - start <= RECIPE_COMMANDS) {
    // Only a frozen pose's COPY can make the recipe unreplayable here: copy, checking for that alone.
    let n = 0, usesOffset = 0;
    for (let c = start, o = (w.commandsAt >> 2) + 8 * start; c < w.count; c++, o += 8) {
      if (c >= excludedFrom && c < excludedTo) continue;
      const op = i32[o]!;
      if (op === OP.copy && i32[o + 2] !== w.restSlot) {
        n = -1;
        break;
      }
      if (op === OP.offset || op === OP.packedOffset) usesOffset = 1;
      const r = recipe + 8 * n++;
      for (let q = 0; q < 8; q++) i32[r + q] = i32[o + q]!;
    }
    if (n > 0) {
      h[base + AT] = 0;
      h[base + COUNT] = n;
      h[base + OUT] = out;
      h[base + TOP] = top;
      h[base + SPAN] = 2;
      h[base + USES_OFFSET] = usesOffset;
      return;
    }
  }
  const stride = w.slotStride, lowest = w.slotBase + top * stride, room = (w.slotCount - 4) * stride;
  let n = 0, span = 0, usesOffset = 0;
  let ok = w.batch === batch && (excludedBatch === -1 || excludedBatch === batch);
  for (let c = start, o = (w.commandsAt >> 2) + 8 * start; ok && c < w.count; c++, o += 8) {
    if (c >= excludedFrom && c < excludedTo) continue;
    const op = i32[o]!;
    let slots = 1;
    if (op === OP.blend) slots = 3;
    else if (op === OP.offset) {
      slots = 2;
      ok = i32[o + 3] === b.offsetAt && (i32[o + 4] === 0 || i32[o + 4] === b.offsetVelocityAt);
      usesOffset = 1;
    } else if (op === OP.packedOffset) {
      slots = 2;
      ok = i32[o + 3] === b.packedAt;
      usesOffset = 1;
    } else if (op === OP.copy) ok = i32[o + 2] === w.restSlot;
    else ok = op === OP.sample || op === OP.strip;
    for (let f = 1; ok && f <= slots; f++) {
      const a = i32[o + f]!;
      if (a === out) continue;
      // A pool slot at index top or above, within the slots a replay can shift it to.
      const d = a - lowest;
      if (d < 0 || d >= room || d % stride !== 0) ok = false;
      else if (d + stride > span) span = d + stride;
    }
    if (ok && n === RECIPE_COMMANDS) ok = false;
    if (!ok) break;
    const r = recipe + 8 * n++;
    for (let q = 0; q < 8; q++) i32[r + q] = i32[o + q]!;
  }
  if (!ok) {
    emit(w, OP.copy, h[base + OWN]!, out, 0, 0, 0);
    h[base + AT] = h[base + OWN]!;
    return;
  }
  h[base + AT] = 0;
  h[base + COUNT] = n;
  h[base + OUT] = out;
  h[base + TOP] = top;
  h[base + SPAN] = span / stride;
  h[base + USES_OFFSET] = usesOffset;
}

/**
 * Appends entry `e`'s recipe with its output going to slot `dst` and its scratch slots from the pool's
 * free ones: the commands that made the output, so the same bits.
 */
function replay(w: WasmCrowd, b: KernelBlock, e: number, dst: number): void {
  const h = w.i32, base = b.entries + e * ENTRY;
  const n = h[base + COUNT]!, out = h[base + OUT]!;
  if (w.slotTop + h[base + SPAN]! > w.slotCount) throw new Error("wasm crowd: pose slots exhausted (replaying an output)");
  if (w.count + n >= COMMAND_CAPACITY - 1) flush(w);
  const shift = (w.slotTop - h[base + TOP]!) * w.slotStride;
  const i32 = w.i32, recipe = h[base + RECIPE]! >> 2;
  for (let k = 0; k < n; k++) {
    const o = (w.commandsAt >> 2) + 8 * w.count++;
    for (let q = 0; q < 8; q++) i32[o + q] = i32[recipe + 8 * k + q]!;
    const op = i32[o]!;
    const slots = op === OP.blend ? 3 : op === OP.offset || op === OP.packedOffset ? 2 : 1;
    for (let f = 1; f <= slots; f++) {
      const a = i32[o + f]!;
      i32[o + f] = a === out ? dst : a + shift;
    }
  }
}

/** Entry `e`'s pose into its own slot, if only its recipe holds it (its commands' inputs are about to change). */
function materialize(w: WasmCrowd, b: KernelBlock, e: number): void {
  const h = w.i32, base = b.entries + e * ENTRY;
  if (h[base + AT] !== 0) return;
  replay(w, b, e, h[base + OWN]!);
  h[base + AT] = h[base + OWN]!;
}

/** The address of entry `e`'s pose: where it is, or a slot acquired from the pool and replayed into. */
function poseOf(w: WasmCrowd, b: KernelBlock, e: number): number {
  const at = w.i32[b.entries + e * ENTRY + AT]!;
  if (at !== 0) return at;
  const slot = acquire(w);
  replay(w, b, e, slot);
  return slot;
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

/**
 * captureSource: the last output and its velocity, or (no recent output) the machine now, at rest. The
 * last two outputs are replayed from their recipes where only those hold them; the last one then lives
 * on as the captured source.
 */
function recordCapture(w: WasmCrowd, inst: GraphInstance, mi: MachineInstance, b: KernelBlock): void {
  const ine = mi.inertial!;
  const times = ine.times;
  const vbytes = vectorBytes(w.jointCount);
  const h = w.i32, entries = b.entries;
  h[b.state + PHASE] = 0;
  // Only a dead blend reads the directions, and every capture resets them first: a machine with no dead
  // blend leaves its block's directions alone (704 bytes of cold memory on the robot, per transition).
  if (b.deadBlends) emit(w, OP.resetDirections, b.directionsAt, 0, 0, 0, 0);
  if (ine.history === 0 || times[NOW]! - times[LAST]! > STALE_HISTORY) {
    // The fold below overwrites the source: an output kept there moves to its own slot first.
    for (let e = entries; e < entries + 2 * ENTRY; e += ENTRY) {
      if (h[e + AT] !== b.sourceAt) continue;
      emit(w, OP.copy, h[e + OWN]!, b.sourceAt, 0, 0, 0);
      h[e + AT] = h[e + OWN]!;
    }
    recordFold(w, inst, mi, b.sourceAt);
    times[SOURCE_TIME] = times[NOW]!;
    emit(w, OP.zero, b.velocityAt, vbytes, 0, 0, 0);
    return;
  }
  times[SOURCE_TIME] = times[LAST]!;
  // Captured from these same two outputs already (transitions chained within a frame): same result.
  if (h[b.state + CAPTURED] === 1) return;
  const last = h[b.state + NEWEST]!;
  const last2 = poseOf(w, b, last);
  times[SCRATCH] = times[LAST]! - times[PREVIOUS]!;
  if (ine.history >= 2 && times[SCRATCH]! > 0) w.f64[emit(w, OP.difference, b.velocityAt, last2, poseOf(w, b, last ^ 1), 0, 0)] = 1 / times[SCRATCH]!;
  else emit(w, OP.zero, b.velocityAt, vbytes, 0, 0, 0);
  if (last2 !== b.sourceAt) emit(w, OP.copy, b.sourceAt, last2, 0, 0, 0);
  h[entries + last * ENTRY + AT] = b.sourceAt;
  h[b.state + CAPTURED] = 1;
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
  excludedFrom = w.count;
  excludedBatch = w.batch;
  const h = w.i32, phase = h[b.state + PHASE];
  if (phase === 0) {
    // The offset vectors change: outputs that only their recipes hold (reading them) become poses.
    for (let k = 0; k < 2; k++) if (k !== h[b.state + BUILDING] && h[b.entries + k * ENTRY + USES_OFFSET] === 1) materialize(w, b, k);
    const ext = acquire(w);
    emitOffset(w, ext, b.sourceAt, b.velocityAt, 0, times);
    w.f64[emit(w, OP.difference, b.offsetAt, ext, out, 0, 0)] = 1;
    release(w);
    times[ORIGIN] = e.elapsed;
    // The offset velocity is 0 until phase 2 (step.ts zeroes it); here nothing reads the vector before
    // phase 1's DIFFERENCE writes all of it, and every OFFSET before then leaves it out.
    h[b.state + PHASE] = 1;
  } else if (phase === 1 && e.elapsed > times[ORIGIN]!) {
    // v₀ = ((source extrapolated to now) ⊖ target − x₀) / Δt (step.ts, offsetVelocityAt).
    const ext = acquire(w);
    emitOffset(w, ext, b.sourceAt, b.velocityAt, 0, times);
    w.f64[emit(w, OP.difference, b.offsetVelocityAt, ext, out, b.offsetAt, 0)] = 1 / (e.elapsed - times[ORIGIN]!);
    release(w);
    // From here to the transition's end every frame reads the offset from its packed record.
    emit(w, OP.packOffset, b.packedAt, b.offsetAt, b.offsetVelocityAt, 0, 0);
    h[b.state + PHASE] = 2;
  }
  excludedTo = w.count;
  if (w.batch !== excludedBatch) excludedBatch = -2;
  times[SCRATCH + 1] = tr.duration - times[ORIGIN]!;
  times[SCRATCH] = times[SCRATCH + 1]! > 0 ? (e.elapsed - times[ORIGIN]!) / times[SCRATCH + 1]! : 1;
  inertialDecayAt(times, SCRATCH);
  // Until the offset velocity is known (phase 2) it is 0 and left out: an output's recipe then does not
  // read the vector that phase 2 writes.
  if (h[b.state + PHASE] === 2) {
    const f = emit(w, OP.packedOffset, out, out, b.packedAt, 0, 0);
    w.f64[f] = times[SCRATCH]!;
    w.f32[2 * f - 1] = times[SCRATCH + 1]!;
  } else emitOffset(w, out, out, b.offsetAt, 0, times);
}
