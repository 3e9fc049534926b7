import type { CompiledState } from "../graph/compiled-graph.ts";
import { pushEvent } from "../graph/graph-events.ts";
import type { GraphInstance, MachineInstance } from "../graph/graph-instance.ts";

/** Most loop crossings examined per state per sub-step (events of further loops are skipped). */
const MAX_LOOPS_PER_SUBSTEP = 64;

/**
 * Queues notify and clipLooped events for the normalised positions a state crossed in [n0, n1) (n =
 * time / cycle, or the phase of a synchronised blend), in time order: an event at e seconds fires at
 * every k + e / cycle (loop), at k·2 + e/cycle and k·2 + 2 − e/cycle (pingpong, forward and back),
 * or once (clamp); clipLooped at every whole cycle (loop) or period (pingpong).
 */
export function emitCrossings(inst: GraphInstance, mi: MachineInstance, st: CompiledState, n0: number, n1: number, cycle: number, t0: number, h: number): void {
  const q = inst.result.events;
  const events = st.events;
  if (st.loop === "clamp") {
    for (const e of events) {
      const x = e.time / cycle;
      if ((x >= n0 && x < n1) || (x >= 1 && n0 < 1 && n1 >= 1)) pushEvent(q, "notify", mi.layer, mi.machine.id, st.index, -1, -1, e.name, crossingTime(t0, h, n0, n1, Math.min(x, 1)));
    }
    return;
  }
  const pingpong = st.loop === "pingpong";
  const period = pingpong ? 2 : 1;
  const k0 = Math.floor(n0 / period);
  const k1 = Math.min(Math.floor(n1 / period), k0 + MAX_LOOPS_PER_SUBSTEP);
  for (let k = k0; k <= k1; k++) {
    const base = k * period;
    for (let i = 0; i < events.length; i++) {
      const x = base + Math.min(events[i]!.time / cycle, 1);
      if (x >= n0 && x < n1) pushEvent(q, "notify", mi.layer, mi.machine.id, st.index, -1, -1, events[i]!.name, crossingTime(t0, h, n0, n1, x));
    }
    if (pingpong) {
      for (let i = events.length - 1; i >= 0; i--) {
        const x = base + 2 - Math.min(events[i]!.time / cycle, 1);
        if (x >= n0 && x < n1 && x !== base + 1) pushEvent(q, "notify", mi.layer, mi.machine.id, st.index, -1, -1, events[i]!.name, crossingTime(t0, h, n0, n1, x));
      }
    }
    const loopAt = base + period;
    if (loopAt > n0 && loopAt <= n1) pushEvent(q, "clipLooped", mi.layer, mi.machine.id, st.index, -1, -1, "", crossingTime(t0, h, n0, n1, loopAt));
  }
}

/** Seconds since the start of the step at which normalised position x was crossed (linear within the sub-step). */
function crossingTime(t0: number, h: number, n0: number, n1: number, x: number): number {
  return t0 + (h * (x - n0)) / (n1 - n0);
}
