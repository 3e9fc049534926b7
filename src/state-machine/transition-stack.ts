import type { MachineInstance } from "../graph/graph-instance.ts";

// The transition stack of one machine instance: a bottom (a live source state or the frozen pose) and
// crossfade entries above it, newest on top. Each entry i blends the pose below it toward its target
// with weight w_i, so the influence of entry i is w_i · Π_{j>i}(1 − w_j) and the bottom keeps
// Π_j(1 − w_j): the weights always sum to 1.

/** Removes the bottom `count` stack entries (rotating the preallocated entry objects). */
export function dropBottom(mi: MachineInstance, count: number): void {
  const cap = mi.stack.length;
  for (let k = 0; k < count; k++) {
    const first = mi.stack[0]!;
    for (let i = 0; i < cap - 1; i++) mi.stack[i] = mi.stack[i + 1]!;
    mi.stack[cap - 1] = first;
  }
  mi.depth -= count;
}

/** Recomputes `stateWeight` and `frozenWeight` from the stack (sums to 1). */
export function computeWeights(mi: MachineInstance): void {
  mi.stateWeight.fill(0);
  mi.frozenWeight = 0;
  if (mi.depth === 0) {
    mi.stateWeight[mi.current] = 1;
    return;
  }
  let rest = 1;
  for (let i = mi.depth - 1; i >= 0; i--) {
    const e = mi.stack[i]!;
    mi.stateWeight[e.to] = mi.stateWeight[e.to]! + rest * e.weight;
    rest *= 1 - e.weight;
  }
  if (mi.source >= 0) mi.stateWeight[mi.source] = mi.stateWeight[mi.source]! + rest;
  else mi.frozenWeight = rest;
}
