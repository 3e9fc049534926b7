import type { GraphInstance, MachineInstance } from "../graph/graph-instance.ts";
import { computeWeights } from "../state-machine/transition-stack.ts";

// A configuration's concrete runtime state, saved so the explorer can come back to it. Only what the
// next steps read: machine stacks, the clocks of the states that play (every state's when re-entered
// states resume their time), parameters and the run's time. Poses are not kept: the checker only
// advances machines (advanceInstance), it never evaluates a pose.

/** The machine ids a snapshot covers, and whether every state's clock must be kept (targetTime "resume"). */
export interface SnapshotScope {
  readonly machines: readonly number[];
  readonly allClocks: boolean;
}

/** Saves the scope's machines, the parameters, the time and `extra` (the checker's monitor bits). */
export function saveSnapshot(inst: GraphInstance, scope: SnapshotScope, extra: ArrayLike<number>): Float64Array {
  const out: number[] = [inst.time, inst.params.length, ...inst.params, extra.length, ...Array.from(extra)];
  for (const id of scope.machines) {
    const mi = inst.machines[id]!;
    out.push(mi.current, mi.source, mi.depth, mi.frozenWeight);
    for (let i = 0; i < mi.depth; i++) {
      const e = mi.stack[i]!;
      out.push(e.transition, e.from, e.to, e.elapsed, e.progress, e.weight);
    }
    const states = clockStates(mi, scope.allClocks);
    out.push(states.length);
    for (const s of states) out.push(s, mi.stateTime[s]!, mi.statePrevTime[s]!, mi.statePhase[s]!, mi.statePrevPhase[s]!);
  }
  return Float64Array.from(out);
}

function clockStates(mi: MachineInstance, all: boolean): number[] {
  if (all) return mi.machine.states.map((_, i) => i);
  const set = new Set<number>([mi.current]);
  if (mi.source >= 0) set.add(mi.source);
  for (let i = 0; i < mi.depth; i++) {
    const e = mi.stack[i]!;
    set.add(e.to);
    if (e.from >= 0) set.add(e.from);
  }
  return [...set];
}

/** Restores a snapshot taken by saveSnapshot with the same scope; writes the monitor bits into `extra`. */
export function restoreSnapshot(inst: GraphInstance, scope: SnapshotScope, snap: Float64Array, extra: number[]): void {
  let o = 0;
  inst.time = snap[o++]!;
  const np = snap[o++]!;
  for (let i = 0; i < np; i++) inst.params[i] = snap[o++]!;
  const ne = snap[o++]!;
  extra.length = 0;
  for (let i = 0; i < ne; i++) extra.push(snap[o++]!);
  for (const id of scope.machines) {
    const mi = inst.machines[id]!;
    mi.current = snap[o++]!;
    mi.source = snap[o++]!;
    mi.depth = snap[o++]!;
    mi.frozenWeight = snap[o++]!;
    mi.travelLength = mi.travelNext = 0;
    for (let i = 0; i < mi.depth; i++) {
      // The runtime grows each stack on first use; a restored deeper stack needs its entries made.
      while (mi.stack.length <= i) mi.stack.push({ transition: -1, from: -1, to: -1, elapsed: 0, progress: 0, weight: 0 });
      const e = mi.stack[i]!;
      e.transition = snap[o++]!;
      e.from = snap[o++]!;
      e.to = snap[o++]!;
      e.elapsed = snap[o++]!;
      e.progress = snap[o++]!;
      e.weight = snap[o++]!;
    }
    const k = snap[o++]!;
    for (let i = 0; i < k; i++) {
      const s = snap[o++]!;
      mi.stateTime[s] = snap[o++]!;
      mi.statePrevTime[s] = snap[o++]!;
      mi.statePhase[s] = snap[o++]!;
      mi.statePrevPhase[s] = snap[o++]!;
    }
    computeWeights(mi);
  }
}
