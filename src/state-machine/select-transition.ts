import type { GraphInstance, MachineInstance } from "../graph/graph-instance.ts";
import { conditionHolds } from "./condition.ts";
import { normalizedTimeAt } from "./state-clock.ts";

/** Tolerance on exit-time comparisons (normalised time), so an exit time of 1 fires after exactly one cycle. */
const EXIT_EPSILON = 1e-9;
/** "No transition". */
export const NONE = 0x7fffffff;
/** The source's normalised time, received in memory (state-clock.ts explains why). */
const position = new Float64Array(1);

/**
 * The first transition of `list` that may fire now, or NONE. `onlyFrom` ≥ 0 restricts to
 * transitions explicitly leaving that state (source interruption).
 */
function scan(inst: GraphInstance, mi: MachineInstance, list: Int32Array, onlyFrom: number): number {
  const m = mi.machine;
  for (let k = 0; k < list.length; k++) {
    const t = m.transitions[list[k]!]!;
    if (onlyFrom >= 0 && t.from !== onlyFrom) continue;
    if (t.to === mi.current && t.from !== t.to && !t.canTransitionToSelf) continue;
    if (t.exitTime >= 0) {
      const s = t.from === -1 ? mi.current : t.from;
      normalizedTimeAt(inst, mi, s, position, 0);
      if (position[0]! < t.exitTime - EXIT_EPSILON) continue;
    }
    let ok = true;
    for (let c = 0; c < t.conditions.length && ok; c++) ok = conditionHolds(inst.params, t.conditions[c]!);
    if (ok) return t.index;
  }
  return NONE;
}

/**
 * The transition to fire now, or NONE: a pending travel step (only while no crossfade runs; returned as
 * its transition index, or −1 − state for a teleport); otherwise, with no crossfade, the current state's
 * transitions in priority order; during a crossfade, the candidates its interruption policy allows
 * ("source": transitions explicitly leaving the fading-out state; "target": the current state's own and
 * "*" transitions; both in the named order; "none": nothing).
 */
export function pickTransition(inst: GraphInstance, mi: MachineInstance): number {
  if (mi.travelLength > 0) {
    if (mi.depth > 0) return NONE; // a travel waits for each crossfade to finish
    const code = mi.travelPath[mi.travelNext++]!;
    if (mi.travelNext >= mi.travelLength) mi.travelLength = mi.travelNext = 0;
    return code;
  }
  const m = mi.machine;
  if (mi.depth === 0) return scan(inst, mi, m.outgoing[mi.current]!, -1);
  const top = mi.stack[mi.depth - 1]!;
  if (top.transition < 0) return NONE;
  const t = m.transitions[top.transition]!;
  const own = m.outgoing[mi.current]!;
  const src = top.from >= 0 ? m.outgoing[top.from]! : own;
  switch (t.interruptionName) {
    case "none": return NONE;
    case "source": return top.from >= 0 ? scan(inst, mi, src, top.from) : NONE;
    case "target": return scan(inst, mi, own, -1);
    case "sourceThenTarget": {
      const a = top.from >= 0 ? scan(inst, mi, src, top.from) : NONE;
      return a !== NONE ? a : scan(inst, mi, own, -1);
    }
    case "targetThenSource": {
      const a = scan(inst, mi, own, -1);
      return a !== NONE || top.from < 0 ? a : scan(inst, mi, src, top.from);
    }
  }
}
