// A crowd's WebAssembly side: one kernel instance with its own memory, laid out once at creation and
// never grown (so every typed-array view into it stays valid). Layout, from the module's heap base:
//   parents (i32 × J) | rest slot | root matrix | layer masks | packed clips | pose slots |
//   staging AoS poses (JS-sampled motions, frozen poses) | command list | the crowd's local poses and
//   model matrices (the `Crowd` buffers themselves).
import type { Clip } from "../../clip/clip.ts";
import type { CompiledGraph, CompiledMachine } from "../../graph/compiled-graph.ts";
import { isProceduralClipUnchecked, type MotionSource } from "../../graph/motion-source.ts";
import { createPose, type Pose } from "../../pose/pose.ts";
import { poseView } from "../crowd-layout.ts";
import type { CrowdKernel, KernelExports } from "./kernel.ts";
import { packClip, packedClipBytes, packedTimeline } from "./pack-clip.ts";
import { blockBytes, frozenOffset, keptMachines, recordBytes } from "./kernel-poses.ts";
import { slotBytes, writeSlot } from "./slot-layout.ts";
import { createSteadyTemplate, type SteadyTemplate } from "./steady-template.ts";

/** Commands in one batch (32 bytes each); a full batch runs and the list starts over. */
export const COMMAND_CAPACITY = 1024;
/** JS-sampled poses one batch can hold before it runs. */
export const STAGING_CAPACITY = 8;

export const OP = {
  end: 0, sample: 1, blend: 2, copy: 3, layer: 4, load: 5, output: 6, skeleton: 7, strip: 8, difference: 9, offset: 10, zero: 11,
  extrapolate: 12, deadBlend: 13, resetDirections: 14, sampleLayer: 15, packOffset: 16, packedOffset: 17,
} as const;

export interface WasmCrowd {
  readonly exports: KernelExports;
  readonly memory: WebAssembly.Memory;
  readonly f32: Float32Array;
  readonly i32: Int32Array;
  readonly f64: Float64Array;
  readonly jointCount: number;
  /** 1 when the graph slerps (slerp, fastSlerp), 0 for nlerp. */
  readonly rotMode: number;
  readonly restSlot: number;
  /** Byte address of the root matrix, 0 without one. */
  readonly rootAt: number;
  /** Per layer: byte address of its mask (f32 × 4G), or 0. */
  readonly masks: Int32Array;
  /** Packed clip header addresses; clips absent here are sampled by JS into staging. */
  readonly packed: Map<MotionSource, number>;
  /** Root-motion blocks of packed clips that have an extractor (the STRIP command's data). */
  readonly strips: Map<MotionSource, number>;
  /**
   * The same two lookups by position, for the per-frame recorder (no Map lookups): for machine id m,
   * state s and child c, `sourceHeader[m][s][c]` (−1: not packed) and `sourceStrip[m][s][c]` (0: none).
   */
  readonly sourceHeader: readonly (readonly Int32Array[])[];
  readonly sourceStrip: readonly (readonly Int32Array[])[];
  readonly slotBase: number;
  readonly slotStride: number;
  readonly slotCount: number;
  slotTop: number;
  readonly staging: readonly Pose[];
  stagingTop: number;
  /** Byte address of the command list, and its int32 index. */
  readonly commandsAt: number;
  count: number;
  /** Batches run so far (a recorded command's index is only meaningful within its batch). */
  batch: number;
  /**
   * Byte address of the per-character blocks of the machines whose poses the kernel keeps (inertialize,
   * deadBlend: kernel-poses.ts), character i's at blocksAt + i·keptCount·blockBytes.
   */
  readonly blocksAt: number;
  /** Kept machines per character, and the bytes of each one's block. */
  readonly keptCount: number;
  readonly blockBytes: number;
  /**
   * Byte address of the kept machines' per-frame records (history, packed offset: kernel-poses.ts),
   * contiguous across the crowd, character i's at recordsAt + i·keptCount·recordBytes.
   */
  readonly recordsAt: number;
  readonly recordBytes: number;
  /** Byte addresses of the crowd buffers (poseAt 0: local poses are not kept). */
  readonly poseAt: number;
  readonly modelAt: number;
  /** Settled characters' commands, kept from the first character of a steady plan (steady-commands.ts). */
  readonly steadyTemplate: SteadyTemplate;
}

const align16 = (n: number): number => (n + 15) & ~15;

function nestingDepth(m: CompiledMachine): number {
  let d = 0;
  for (const s of m.states) if (s.motion.kind === "machine") d = Math.max(d, nestingDepth(s.motion.machine));
  return d + 1;
}

/**
 * Lays out and instantiates the kernel for `count` characters of `graph`, packing every keyframed clip
 * the kernel can play exactly (`packedTimeline`). Returns the state and the crowd buffers (views into
 * the kernel's memory). Allocates once; nothing here runs per frame.
 */
export function createWasmCrowd(kernel: CrowdKernel, graph: CompiledGraph, count: number, root: Float32Array | undefined, localPoses = true): {
  wasm: WasmCrowd; poseBuffer: Float32Array; model: Float32Array;
} {
  const skeleton = graph.skeleton;
  const J = skeleton.jointCount;
  const slot = slotBytes(J);
  const G = Math.ceil(J / 4);
  const clips: { clip: Clip; times: Float32Array }[] = [];
  const seen = new Set<MotionSource>();
  for (const machine of graph.machines) {
    for (const state of machine.states) {
      const m = state.motion;
      const sources = m.kind === "clip" ? [m.source] : m.kind === "machine" ? [] : m.sources;
      for (const src of sources) {
        if (seen.has(src)) continue;
        seen.add(src);
        if (isProceduralClipUnchecked(src)) continue;
        const times = packedTimeline(src);
        if (times) clips.push({ clip: src, times });
      }
    }
  }
  // Slots: the output and layer poses, then two per nesting level (a state's pose and a blend operand).
  let depth = 0;
  for (const layer of graph.layers) depth = Math.max(depth, nestingDepth(layer.machine));
  const slotCount = 2 + 2 * (depth + 1) + 2;
  let at = align16(kernel.heapBase);
  const parentsAt = at; at = align16(at + 4 * J);
  const restAt = at; at += slot;
  const rootAt = root ? at : 0; if (root) at += 64;
  const maskAt = graph.layers.map((l) => { if (!l.mask) return 0; const a = at; at += 16 * G; return a; });
  const clipAt = clips.map((c) => { const a = at; at = align16(at + packedClipBytes(c.times.length, J)); return a; });
  const stripAt = clips.map((c) => { if (!graph.rootExtractors.has(c.clip)) return 0; const a = at; at += 64; return a; });
  const slotBase = at; at += slotCount * slot;
  const stagingAt = at; at += STAGING_CAPACITY * 40 * J; at = align16(at);
  const commandsAt = at; at += 32 * COMMAND_CAPACITY;
  const keptCount = keptMachines(graph).filter(Boolean).length;
  const blocksAt = at; at += count * keptCount * blockBytes(J);
  const recordsAt = at; at += count * keptCount * recordBytes(J);
  const poseAt = localPoses ? at : 0; if (localPoses) at += count * 40 * J;
  const modelAt = at; at += count * 64 * J;
  const memory = new WebAssembly.Memory({ initial: Math.ceil(at / 65536) + 1 });
  const instance = new WebAssembly.Instance(kernel.module, { env: { memory } });
  const buf = memory.buffer;
  const f32 = new Float32Array(buf), i32 = new Int32Array(buf), f64 = new Float64Array(buf);
  for (let j = 0; j < J; j++) i32[(parentsAt >> 2) + j] = skeleton.parents[j]!;
  writeSlot(f32, restAt >> 2, skeleton.rest);
  if (root) f32.set(root, rootAt >> 2);
  graph.layers.forEach((l, li) => {
    if (l.mask) for (let j = 0; j < 4 * G; j++) f32[(maskAt[li]! >> 2) + j] = j < J ? l.mask[j]! : 0;
  });
  const packed = new Map<MotionSource, number>();
  const strips = new Map<MotionSource, number>();
  clips.forEach((c, k) => {
    packed.set(c.clip, packClip(f32, i32, clipAt[k]!, c.clip, c.times));
    const e = graph.rootExtractors.get(c.clip);
    if (!e) return;
    const b = stripAt[k]!;
    i32[b >> 2] = e.joint;
    i32[(b >> 2) + 1] = e.keepVertical ? 1 : 0;
    i32[(b >> 2) + 2] = e.extractYaw ? 1 : 0;
    f32.set(e.upLocal, (b >> 2) + 4);
    f32.set(e.startTranslation, (b >> 2) + 8);
    f32.set(e.startTwist, (b >> 2) + 12);
    strips.set(c.clip, b);
  });
  const bySource = (pick: (src: MotionSource) => number): Int32Array[][] =>
    graph.machines.map((m) => m.states.map((st) => {
      const mo = st.motion;
      const sources = mo.kind === "clip" ? [mo.source] : mo.kind === "machine" ? [] : mo.sources;
      return Int32Array.from(sources, pick);
    }));
  const sourceHeader = bySource((src) => packed.get(src) ?? -1);
  const sourceStrip = bySource((src) => strips.get(src) ?? 0);
  const staging: Pose[] = [];
  for (let k = 0; k < STAGING_CAPACITY; k++) staging.push(poseView(f32, (stagingAt >> 2) + 10 * J * k, J));
  // Frozen poses start as createInstance's: identity transforms (the fourth slot of each block).
  const identity = createPose(J);
  for (let b = 0; b < count * keptCount; b++) writeSlot(f32, (blocksAt + b * blockBytes(J) + frozenOffset(J)) >> 2, identity);
  const exports = instance.exports as unknown as KernelExports;
  // Tell the instance its skeleton once: SKELETON, END.
  i32[commandsAt >> 2] = OP.skeleton; i32[(commandsAt >> 2) + 1] = J; i32[(commandsAt >> 2) + 2] = parentsAt;
  i32[(commandsAt >> 2) + 8] = OP.end;
  exports.run(commandsAt);
  const wasm: WasmCrowd = {
    exports, memory, f32, i32, f64, jointCount: J,
    rotMode: graph.options.quatMode === "nlerp" ? 0 : 1,
    restSlot: restAt, rootAt, masks: Int32Array.from(maskAt), packed, strips, sourceHeader, sourceStrip,
    slotBase, slotStride: slot, slotCount, slotTop: 0, staging, stagingTop: 0, commandsAt, count: 0, batch: 0,
    blocksAt, keptCount, blockBytes: blockBytes(J), recordsAt, recordBytes: recordBytes(J), poseAt, modelAt, steadyTemplate: createSteadyTemplate(),
  };
  return {
    wasm,
    poseBuffer: localPoses ? new Float32Array(buf, poseAt, count * 10 * J) : new Float32Array(0),
    model: new Float32Array(buf, modelAt, count * 16 * J),
  };
}
