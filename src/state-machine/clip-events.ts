import type { CompiledState } from "../graph/compiled-graph.ts";
import { queueEvent } from "../graph/graph-events.ts";
import type { GraphInstance, MachineInstance } from "../graph/graph-instance.ts";

/** Most loop crossings examined per state per sub-step (events of further loops are skipped). */
const MAX_LOOPS_PER_SUBSTEP = 64;

/**
 * Queues notify and clipLooped events for the normalised positions a state crossed in [n0, n1) (n =
 * time / cycle, or the phase of a synchronised blend), in time order: an event at e seconds fires at
 * every k + e / cycle (loop), at k·2 + e/cycle and k·2 + 2 − e/cycle (pingpong, forward and back),
 * or once (clamp); clipLooped at every whole cycle (loop) or period (pingpong).
 *
 * `span` holds [n0, n1, cycle, t0, h]: the sub-step starts t0 seconds into the step and lasts h. The
 * doubles come in memory, not as arguments, and each event's time is stored here rather than passed on
 * (queueEvent): this runs for every playing state every frame, and V8 boxes a double passed to a call
 * it does not inline into a new heap number (src/math/quat.ts explains). An event at x is stamped
 * t0 + h·(x − n0)/(n1 − n0) (linear within the sub-step).
 */
export function emitCrossings(inst: GraphInstance, mi: MachineInstance, st: CompiledState, span: Float64Array): void {
  const n0 = span[0]!, n1 = span[1]!, cycle = span[2]!, t0 = span[3]!, h = span[4]!;
  const q = inst.result.events;
  const events = st.events;
  if (st.loop === "clamp") {
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      const x = e.time / cycle;
      if ((x >= n0 && x < n1) || (x >= 1 && n0 < 1 && n1 >= 1)) {
        const ev = queueEvent(q, "notify", mi.layer, mi.machine.id, st.index, -1, -1, e.name);
        if (ev) ev.time = t0 + (h * (Math.min(x, 1) - n0)) / (n1 - n0);
      }
    }
    return;
  }
  const pingpong = st.loop === "pingpong";
  const period = pingpong ? 2 : 1;
  const k0 = Math.floor(n0 / period);
  // Counted, not k++ up to k1: past 2^53 adding one no longer changes k, and such a loop never ends.
  const loops = Math.min(Math.floor(n1 / period) - k0, MAX_LOOPS_PER_SUBSTEP);
  for (let i = 0; i <= loops; i++) {
    const base = (k0 + i) * period;
    for (let i = 0; i < events.length; i++) {
      const x = base + Math.min(events[i]!.time / cycle, 1);
      if (x >= n0 && x < n1) {
        const ev = queueEvent(q, "notify", mi.layer, mi.machine.id, st.index, -1, -1, events[i]!.name);
        if (ev) ev.time = t0 + (h * (x - n0)) / (n1 - n0);
      }
    }
    if (pingpong) {
      for (let i = events.length - 1; i >= 0; i--) {
        const x = base + 2 - Math.min(events[i]!.time / cycle, 1);
        if (x >= n0 && x < n1 && x !== base + 1) {
          const ev = queueEvent(q, "notify", mi.layer, mi.machine.id, st.index, -1, -1, events[i]!.name);
          if (ev) ev.time = t0 + (h * (x - n0)) / (n1 - n0);
        }
      }
    }
    const loopAt = base + period;
    if (loopAt > n0 && loopAt <= n1) {
      const ev = queueEvent(q, "clipLooped", mi.layer, mi.machine.id, st.index, -1, -1, "");
      if (ev) ev.time = t0 + (h * (loopAt - n0)) / (n1 - n0);
    }
  }
}
