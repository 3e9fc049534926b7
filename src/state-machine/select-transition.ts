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
 * What `scan` saw of one transition, for explainStep: recorded only when a trace is passed (step passes
 * none, so its hot path only pays a null check).
 */
export interface ScanTrace {
  /** Called for each transition `scan` looks at, in order. `position` is the source's normalised time (NaN when there is no exit time). */
  visit(transition: number, skippedSelf: boolean, position: number, exitReached: boolean, conditionsHold: boolean, chosen: boolean): void;
}

/**
 * The first transition of `list` that may fire now, or NONE. `onlyFrom` ≥ 0 restricts to
 * transitions explicitly leaving that state (source interruption). With a `trace`, every transition of
 * the list is looked at and reported (the first that may fire is still the one returned).
 */
function scan(inst: GraphInstance, mi: MachineInstance, list: Int32Array, onlyFrom: number, trace: ScanTrace | null): number {
  const m = mi.machine;
  let chosen = NONE;
  for (let k = 0; k < list.length; k++) {
    const t = m.transitions[list[k]!]!;
    if (onlyFrom >= 0 && t.from !== onlyFrom) continue;
    if (t.to === mi.current && t.from !== t.to && !t.canTransitionToSelf) {
      if (trace) trace.visit(t.index, true, NaN, false, false, false);
      continue;
    }
    let exitReached = true;
    let at = NaN;
    if (t.exitTime >= 0) {
      const s = t.from === -1 ? mi.current : t.from;
      normalizedTimeAt(inst, mi, s, position, 0);
      at = position[0]!;
      exitReached = at >= t.exitTime - EXIT_EPSILON;
      if (!exitReached && !trace) continue;
    }
    let ok = true;
    for (let c = 0; c < t.conditions.length && ok; c++) ok = conditionHolds(inst.params, t.conditions[c]!);
    if (!trace) {
      if (ok) return t.index;
      continue;
    }
    const fires = ok && exitReached && chosen === NONE;
    if (fires) chosen = t.index;
    trace.visit(t.index, false, at, exitReached, ok, fires);
  }
  return chosen;
}

/**
 * The transition to fire now, or NONE: a pending travel step (only while no crossfade runs; returned as
 * its transition index, or −1 − state for a teleport); otherwise, with no crossfade, the current state's
 * transitions in priority order; during a crossfade, the candidates its interruption policy allows
 * ("source": transitions explicitly leaving the fading-out state; "target": the current state's own and
 * "*" transitions; both in the named order; "none": nothing).
 */
export function pickTransition(inst: GraphInstance, mi: MachineInstance, trace: ScanTrace | null = null): number {
  if (mi.travelLength > 0) {
    if (mi.depth > 0) return NONE; // a travel waits for each crossfade to finish
    const code = mi.travelPath[mi.travelNext]!;
    if (trace) return code; // explaining does not take the travel step
    mi.travelNext++;
    if (mi.travelNext >= mi.travelLength) mi.travelLength = mi.travelNext = 0;
    return code;
  }
  const m = mi.machine;
  if (mi.depth === 0) return scan(inst, mi, m.outgoing[mi.current]!, -1, trace);
  const top = mi.stack[mi.depth - 1]!;
  if (top.transition < 0) return NONE;
  const t = m.transitions[top.transition]!;
  const own = m.outgoing[mi.current]!;
  const src = top.from >= 0 ? m.outgoing[top.from]! : own;
  switch (t.interruptionName) {
    case "none": return NONE;
    case "source": return top.from >= 0 ? scan(inst, mi, src, top.from, trace) : NONE;
    case "target": return scan(inst, mi, own, -1, trace);
    case "sourceThenTarget": {
      const a = top.from >= 0 ? scan(inst, mi, src, top.from, trace) : NONE;
      if (a !== NONE && !trace) return a;
      const b = scan(inst, mi, own, -1, a !== NONE ? shadowAll(trace) : trace);
      return a !== NONE ? a : b;
    }
    case "targetThenSource": {
      const a = scan(inst, mi, own, -1, trace);
      if ((a !== NONE || top.from < 0) && !trace) return a;
      if (top.from < 0) return a;
      const b = scan(inst, mi, src, top.from, a !== NONE ? shadowAll(trace) : trace);
      return a !== NONE ? a : b;
    }
  }
}

/** A trace that reports its transitions as never chosen (a second list scanned after the first chose one). */
function shadowAll(trace: ScanTrace | null): ScanTrace | null {
  if (!trace) return null;
  return { visit: (i, self, at, exit, ok) => trace.visit(i, self, at, exit, ok, false) };
}
