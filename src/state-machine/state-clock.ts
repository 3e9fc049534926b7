import { blend1DInverseDistanceWeightsAt, blend1DLinearWeightsAt } from "../blend-space/blend-1d.ts";
import { blendSpace2DWeightsAt } from "../blend-space/blend-space-2d-weights.ts";
import { gridBlendWeightsAt } from "../blend-space/grid-blend-space.ts";
import { syncedCycleDurationAt } from "../sync/sync-group.ts";
import type { CompiledState } from "../graph/compiled-graph.ts";
import type { GraphInstance, MachineInstance } from "../graph/graph-instance.ts";

// A state's clock: its playback rate, its cycle length and its normalised time (phase). All pure reads
// of the instance except childWeights, which writes the blend weights into the instance's buffers.
// The clock values are written to a caller's Float64Array slot (out[o]) rather than returned: `step`
// runs these every frame, and a double returned from a call V8 does not inline is a new heap number
// (src/math/quat.ts explains). Each writes out[o] last, so out may hold the caller's other values.

/** Playback rate into out[o]: the constant or the parameter's value; negative rates are clamped to 0 (documented). */
export function stateSpeedAt(inst: GraphInstance, st: CompiledState, out: Float64Array, o: number): void {
  const v = st.speedSlot >= 0 ? inst.params[st.speedSlot]! : st.speed;
  out[o] = v > 0 ? v : 0;
}

/** Whether the state is a blend whose children play by phase. */
export function isSyncBlend(st: CompiledState): boolean {
  return (st.motion.kind === "blend1d" || st.motion.kind === "blend2d") && st.motion.sync;
}

/** Position in the state's cycle, unwrapped (1.5 = half way through the second loop), into out[o]. */
export function normalizedTimeAt(inst: GraphInstance, mi: MachineInstance, s: number, out: Float64Array, o: number): void {
  const st = mi.machine.states[s]!;
  if (isSyncBlend(st)) {
    out[o] = mi.statePhase[s]!;
    return;
  }
  stateCycleAt(inst, mi, s, out, o);
  const cycle = out[o]!;
  out[o] = cycle === Infinity ? 0 : cycle > 0 ? mi.stateTime[s]! / cycle : 1;
}

/** Cycle length in seconds into out[o]: the clip's duration, the weight-averaged child durations, or the nested current state's. */
export function stateCycleAt(inst: GraphInstance, mi: MachineInstance, s: number, out: Float64Array, o: number): void {
  const st = mi.machine.states[s]!;
  const m = st.motion;
  if (m.kind === "clip") {
    out[o] = m.source.duration;
    return;
  }
  if (m.kind === "machine") {
    const nested = mi.nested[s]!;
    stateCycleAt(inst, nested, nested.current, out, o);
    return;
  }
  syncedCycleDurationAt(out, o, m.durations, childWeights(inst, mi, s));
}

/** Computes (into the instance) and returns the blend weights of a blend state's children. */
export function childWeights(inst: GraphInstance, mi: MachineInstance, s: number): Float64Array {
  const st = mi.machine.states[s]!;
  const m = st.motion;
  const out = mi.childWeights[s]!;
  const p = inst.params;
  if (m.kind === "blend1d") {
    if (m.weighting === "linear") blend1DLinearWeightsAt(out, m.positions, p, m.slot);
    else blend1DInverseDistanceWeightsAt(out, m.positions, p, m.slot);
  } else if (m.kind === "blend2d") {
    if (m.space) blendSpace2DWeightsAt(out, m.space, p, m.slotX, m.slotY);
    else {
      const grid = m.grid!;
      const cells = mi.cellWeights[s]!;
      gridBlendWeightsAt(cells, grid, p, m.slotX, m.slotY);
      for (let k = 0; k < cells.length; k++) out[grid.cellSample[k]!] = cells[k]!;
    }
  }
  return out;
}
