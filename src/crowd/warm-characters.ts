// Software prefetch for the crowd's frame loop. A character's JS state is some thirty small objects
// (the instance, its machines, their typed-array views, the step result) spread over the heap; past a
// few thousand characters they are no longer in any cache, and advancing one character waits on one
// miss after another, since each object is reached through the one before. Reading a few fields of
// every character of a tile first, in one tight loop, issues those chains for many characters at once
// (the core overlaps independent misses), so the real work on the tile then finds its data in cache.
// At 10,000 RobotExpressive characters this took the graph runtime's share of a frame from 1.3 to
// 0.75 µs per character (docs/performance.md, scaling); it changes no value the runtime computes.
import type { GraphInstance } from "../graph/graph-instance.ts";

/** Characters warmed, then advanced, at a time: their state (a few KiB each) stays in L1/L2 between the two passes. */
export const WARM_TILE = 16;

/** Where the reads go, so the compiler keeps them. */
const sink = new Float64Array(1);

/**
 * Reads the fields a frame's advance and recording of characters [from, to) will touch first: each
 * instance, its result and parameters, and every layer machine's current-state clocks.
 */
export function warmCharacters(instances: readonly GraphInstance[], from: number, to: number): void {
  let s = 0;
  for (let i = from; i < to; i++) {
    const inst = instances[i]!;
    const res = inst.result;
    s += inst.time + inst.params.length + res.events.count + res.rootDelta[0]!;
    const layers = inst.layers, info = res.layers;
    for (let li = 0; li < layers.length; li++) {
      const mi = layers[li]!;
      const c = mi.current;
      // The clocks as the settled path reads them (MachineInstance.clocks: five arrays of n states).
      const clocks = mi.clocks!, n = mi.machine.states.length;
      s += clocks[c]! + clocks[n + c]! + clocks[2 * n + c]! + clocks[3 * n + c]! + clocks[4 * n + c]! + mi.advancedAt[c]!;
      s += info[li]!.weight;
    }
  }
  sink[0] = s;
}
