import { blend1DInverseDistanceWeights, blend1DLinearWeights } from "../blend-space/blend-1d.ts";
import { blendSpace2DWeights } from "../blend-space/blend-space-2d-weights.ts";
import { gridBlendWeights } from "../blend-space/grid-blend-space.ts";
import { syncedCycleDuration } from "../sync/sync-group.ts";
import type { CompiledState } from "../graph/compiled-graph.ts";
import type { GraphInstance, MachineInstance } from "../graph/graph-instance.ts";

// A state's clock: its playback rate, its cycle length and its normalised time (phase). All pure reads
// of the instance except childWeights, which writes the blend weights into the instance's buffers.

/** Playback rate: the constant or the parameter's value; negative rates are clamped to 0 (documented). */
export function stateSpeed(inst: GraphInstance, st: CompiledState): number {
  const v = st.speedSlot >= 0 ? inst.params[st.speedSlot]! : st.speed;
  return v > 0 ? v : 0;
}

/** Whether the state is a blend whose children play by phase. */
export function isSyncBlend(st: CompiledState): boolean {
  return (st.motion.kind === "blend1d" || st.motion.kind === "blend2d") && st.motion.sync;
}

/** Position in the state's cycle, unwrapped (1.5 = half way through the second loop). */
export function normalizedTime(inst: GraphInstance, mi: MachineInstance, s: number): number {
  const st = mi.machine.states[s]!;
  if (isSyncBlend(st)) return mi.statePhase[s]!;
  const cycle = stateCycle(inst, mi, s);
  if (cycle === Infinity) return 0;
  return cycle > 0 ? mi.stateTime[s]! / cycle : 1;
}

/** Cycle length in seconds: the clip's duration, the weight-averaged child durations, or the nested current state's. */
export function stateCycle(inst: GraphInstance, mi: MachineInstance, s: number): number {
  const st = mi.machine.states[s]!;
  const m = st.motion;
  if (m.kind === "clip") return m.source.duration;
  if (m.kind === "machine") {
    const nested = mi.nested[s]!;
    return stateCycle(inst, nested, nested.current);
  }
  return syncedCycleDuration(m.durations, childWeights(inst, mi, s));
}

/** Computes (into the instance) and returns the blend weights of a blend state's children. */
export function childWeights(inst: GraphInstance, mi: MachineInstance, s: number): Float64Array {
  const st = mi.machine.states[s]!;
  const m = st.motion;
  const out = mi.childWeights[s]!;
  const p = inst.params;
  if (m.kind === "blend1d") {
    if (m.weighting === "linear") blend1DLinearWeights(out, m.positions, p[m.slot]!);
    else blend1DInverseDistanceWeights(out, m.positions, p[m.slot]!);
  } else if (m.kind === "blend2d") {
    if (m.space) blendSpace2DWeights(out, m.space, p[m.slotX]!, p[m.slotY]!);
    else {
      const grid = m.grid!;
      const cells = mi.cellWeights[s]!;
      gridBlendWeights(cells, grid, p[m.slotX]!, p[m.slotY]!);
      for (let k = 0; k < cells.length; k++) out[grid.cellSample[k]!] = cells[k]!;
    }
  }
  return out;
}
