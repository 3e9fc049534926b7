// Every crowd character's numbers in one buffer. `createInstance` gives each character an ArrayBuffer
// for its parameters and root-motion delta and one per machine for its clocks (times, phases, weights,
// advance stamps, travel path); each costs ~180 bytes of bookkeeping beside its data, and the backing
// stores land wherever the allocator puts them. A crowd moves them into one buffer instead, character i's
// block at i · stride, the same views over it (so `step`, `setParam` and the general path see no
// difference), and its settled-character path (steady-advance.ts, steady-commands.ts) indexes the
// buffer directly: advancing a character then reads and writes one contiguous block, next to the
// previous character's, instead of reaching six typed-array objects and three scattered backing stores.
import type { GraphInstance, MachineInstance } from "../graph/graph-instance.ts";

export interface CrowdState {
  readonly f64: Float64Array;
  readonly i32: Int32Array;
  /** Float64 slots per character (its block is bytes [8 · stride · i, 8 · stride · (i + 1))). */
  readonly stride: number;
  /** Float64 index in a block of the root-motion delta (parameters start at 0). */
  readonly rootDeltaAt: number;
  /** Per layer: float64 index in a block of its machine's clocks (MachineInstance.clocks). */
  readonly layerClocks: Int32Array;
  /** Per layer: int32 index in a block of its machine's advancedAt. */
  readonly layerAdvanced: Int32Array;
}

const bytesOf = (buffer: ArrayBufferLike): number => (buffer.byteLength + 7) & ~7;

/**
 * The layout for characters whose instances look like `template` (every instance of a graph does):
 * the parameter buffer, then each machine's buffer by machine id, each padded to 8 bytes.
 */
function layout(template: GraphInstance): { stride: number; machineAt: number[] } {
  let at = bytesOf(template.params.buffer);
  const machineAt = template.machines.map((mi) => {
    const here = at;
    at += bytesOf(mi.stateTime.buffer);
    return here;
  });
  return { stride: at / 8, machineAt };
}

/** An empty state for `count` characters shaped like `template`. */
export function createCrowdState(template: GraphInstance, count: number): CrowdState {
  const { stride, machineAt } = layout(template);
  const buffer = new ArrayBuffer(8 * stride * count);
  const layerMachine = template.layers.map((mi) => mi.machine.id);
  return {
    f64: new Float64Array(buffer),
    i32: new Int32Array(buffer),
    stride,
    rootDeltaAt: template.result.rootDelta.byteOffset / 8,
    layerClocks: Int32Array.from(layerMachine, (m) => machineAt[m]! / 8),
    layerAdvanced: Int32Array.from(layerMachine, (m) => (machineAt[m]! + template.machines[m]!.advancedAt.byteOffset) / 4),
  };
}

/** Float64Array, Int32Array: the views an instance keeps over its buffers. */
type View = Float64Array | Int32Array;

/**
 * Moves character `index`'s numbers (its instance `inst`, fresh from `createInstance`) into `state`:
 * copies every buffer's bytes into the character's block and returns views there with the same offsets
 * and lengths as `inst`'s. Views of length 0 that belong to no buffer of the instance are kept as they are.
 */
export function characterViews(state: CrowdState, inst: GraphInstance, index: number): {
  params: Float64Array;
  rootDelta: Float64Array;
  machine(mi: MachineInstance): Pick<MachineInstance, "stateTime" | "statePrevTime" | "statePhase" | "statePrevPhase" | "stateWeight" | "advancedAt" | "childWeights" | "cellWeights" | "travelPath"> & { clocks: Float64Array };
} {
  const { machineAt } = layout(inst);
  const base = 8 * state.stride * index;
  const bytes = new Uint8Array(state.f64.buffer);
  const place = (buffer: ArrayBufferLike, at: number): void => bytes.set(new Uint8Array(buffer), base + at);
  const moved = <V extends View>(view: V, buffer: ArrayBufferLike, at: number): V => {
    if (view.buffer !== buffer) return view;
    const start = base + at + view.byteOffset;
    return (view instanceof Float64Array ? new Float64Array(state.f64.buffer, start, view.length) : new Int32Array(state.f64.buffer, start, view.length)) as V;
  };
  const numbers = inst.params.buffer;
  place(numbers, 0);
  return {
    params: moved(inst.params, numbers, 0),
    rootDelta: moved(inst.result.rootDelta, numbers, 0),
    machine: (mi) => {
      const buffer = mi.stateTime.buffer;
      const at = machineAt[mi.machine.id]!;
      place(buffer, at);
      const view = <V extends View>(v: V): V => moved(v, buffer, at);
      return {
        stateTime: view(mi.stateTime), statePrevTime: view(mi.statePrevTime), statePhase: view(mi.statePhase),
        statePrevPhase: view(mi.statePrevPhase), stateWeight: view(mi.stateWeight), advancedAt: view(mi.advancedAt),
        childWeights: mi.childWeights.map(view), cellWeights: mi.cellWeights.map(view), travelPath: view(mi.travelPath),
        // The float64 views are one run from the buffer's start up to the int32 ones (advancedAt): one view of it all.
        clocks: new Float64Array(state.f64.buffer, base + at, mi.advancedAt.byteOffset / 8),
      };
    },
  };
}
