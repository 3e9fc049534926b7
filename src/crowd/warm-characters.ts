// Software prefetch for the crowd's frame loop. A character's JS state is some fifteen small objects
// the settled path reaches (the instance, its machines, the step result) spread over the heap; past a
// few thousand characters they are no longer in any cache, and advancing one character waits on one
// miss after another, since each object is reached through the one before. Reading a few fields of
// every character of a tile first, in one tight loop, issues those chains for many characters at once
// (the core overlaps independent misses), so the real work on the tile then finds its data in cache.
// At 10,000 RobotExpressive characters this took the graph runtime's share of a frame from 1.3 to
// 0.75 µs per character (docs/performance.md, scaling); it changes no value the runtime computes. The
// characters' numbers (crowd-state.ts) are one contiguous run per tile, read a line at a time.
import type { GraphInstance } from "../graph/graph-instance.ts";
import type { CrowdState } from "./crowd-state.ts";

/** Characters warmed, then advanced, at a time: their state (a few KiB each) stays in L1/L2 between the two passes. */
export const WARM_TILE = 16;

/** Where the reads go, so the compiler keeps them. */
const sink = new Float64Array(1);

/**
 * Reads the fields a frame's advance and recording of characters [from, to) will touch first: each
 * instance, its result, every layer machine, and the characters' blocks of the crowd's numbers
 * (`state`: parameters, clocks; one read per 64-byte line).
 */
export function warmCharacters(instances: readonly GraphInstance[], state: CrowdState, from: number, to: number): void {
  let s = 0;
  for (let i = from; i < to; i++) {
    const inst = instances[i]!;
    const res = inst.result;
    s += inst.time + res.events.count;
    const layers = inst.layers, info = res.layers;
    for (let li = 0; li < layers.length; li++) {
      const mi = layers[li]!;
      s += mi.current + mi.machine.states.length + info[li]!.weight;
    }
  }
  const f64 = state.f64;
  for (let k = state.stride * from, end = state.stride * to; k < end; k += 8) s += f64[k]!;
  sink[0] = s;
}

/**
 * For the JS path, what a transition reads besides: every layer machine's running stack entries and,
 * when the machine inertializes or dead-blends and JS keeps its poses, its InertialState (clocks, the
 * output history it copies each frame into, the packed offset, the start-of-transition vectors). That
 * state is a dozen objects and backing stores per character, each reached through the one before; at
 * 1,000 robots kept mid-transition, warming it made an inertializing frame ~15 % cheaper.
 */
export function warmTransitions(instances: readonly GraphInstance[], from: number, to: number): void {
  let s = 0;
  for (let i = from; i < to; i++) {
    const layers = instances[i]!.layers;
    for (let li = 0; li < layers.length; li++) {
      const mi = layers[li]!;
      for (let d = 0; d < mi.depth; d++) s += mi.stack[d]!.elapsed;
      const ine = mi.inertial;
      if (ine === null || ine.last.jointCount === 0) continue;
      s += ine.times[0]! + ine.recipes[0]! + ine.phase + ine.movingCounts[0]! + ine.moving[0]! + ine.packed[0]!;
      s += ine.last.t[0]! + ine.last.r[0]! + ine.last.s[0]! + ine.previous.t[0]! + ine.previous.r[0]! + ine.previous.s[0]!;
      s += ine.source.r[0]! + ine.velocity[0]! + ine.offset[0]! + ine.offsetVelocity[0]!;
    }
  }
  sink[0] = s;
}
