// Steady-state allocation of a frame loop, in bytes, exactly (used by test/graph/zero-alloc.test.ts and
// test/graph/ik-zero-alloc.test.ts).
//
// Method. After a full GC, the bytes V8 reports in use grow by exactly what is allocated until the next
// collection. So batches of frames run between two readings, and a batch during which a collection ran
// (v8.GCProfiler; in a synchronous loop only allocation triggers one) counts as allocating. A reading
// also holds a constant that is not per frame (the statistics objects, a few internal objects V8
// recreates after the forced GC: 2.6–3.4 kB here), so empty batches (no frame) alternate with batches
// of BATCH_FRAMES frames, and the figure is the smallest full reading minus the smallest empty one.
// Every batch runs one unmeasured frame between its GC and its first reading, so what V8 recreates
// lazily after a collection falls outside the readings.
//
// What is not the frame loop's, and how it is kept out:
// - Earlier tests' garbage. Optimised code holds weak references to the maps and objects its feedback
//   saw; the first full GC that collects them deoptimises that code (V8's "reason: weak objects"), and
//   the frames then run unoptimised, boxing every double, until V8 re-optimises them. With the first
//   forced GC at the first batch, the kernel crowd's case read 7–1,800 kB per batch for up to 1,500
//   frames after a 4,000-frame warm-up. So the first GC runs before the warm-up, which then
//   re-optimises against live objects only.
// - V8 still compiling: code for a rare path (a transition firing) is optimised late, on a background
//   thread, and until then it boxes doubles. At least MIN_PAIRS pairs run, and while the figure is
//   still NOISE_BYTES or more, more run, up to MAX_PAIRS.
//
// Why no per-frame allocation can pass: the smallest object on V8's heap is 16 bytes (a heap number, on
// x64 without pointer compression, as Node ships), so one allocation per frame adds at least
// 16 × BATCH_FRAMES = 6,400 bytes to every full batch, however many run, while the empty batches hold
// none of it. Each full batch is judged against the constant alone, never against another full batch:
// differencing batches of F and 2F frames, as this did before, let a rate that falls while V8 tiers up
// (40 bytes per frame in a batch of F, 16 in a later one of 2F) read as negative. "a deliberate 16-byte
// allocation per frame is caught" in zero-alloc.test.ts checks this.
import { GCProfiler, getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
/** The full, synchronous GC that --expose-gc provides. */
export const gc = runInNewContext("gc") as () => void;

export const BATCH_FRAMES = 400;
const MIN_PAIRS = 6;
const MAX_PAIRS = 24;
/**
 * What counts as "allocates nothing": the readings around a batch move by a few hundred bytes whatever
 * the batch does (V8's bookkeeping: 2,584–3,352 B seen), while one 16-byte object per frame adds 6,400.
 */
export const NOISE_BYTES = 1024;

export interface SteadyAllocation {
  /** Bytes that BATCH_FRAMES frames allocate (below NOISE_BYTES: nothing). */
  readonly bytes: number;
  /** Every batch's reading, for the failure message. */
  readonly report: string;
}

/** Bytes in use on the JS heap (every space). */
function heapInUse(): number {
  let total = 0;
  for (const space of getHeapSpaceStatistics()) total += space.space_used_size;
  return total;
}

/** Bytes allocated while running `frames` frames from frame `first` (Infinity when a GC ran meanwhile). */
function allocatedBy(frame: (k: number) => void, first: number, frames: number): number {
  gc();
  frame(first);
  const profiler = new GCProfiler();
  profiler.start();
  const before = heapInUse();
  for (let k = first + 1; k <= first + frames; k++) frame(k);
  const after = heapInUse();
  const collections = profiler.stop().statistics.length;
  return collections > 0 ? Infinity : after - before;
}

/**
 * Collects earlier garbage, runs `warmFrames` frames, then measures (see the method above). `frame(k)`
 * runs frame k; frames are numbered on from the warm-up, so a script keyed on k keeps going.
 */
export function steadyAllocation(frame: (k: number) => void, warmFrames: number): SteadyAllocation {
  gc();
  let k = 0;
  for (; k < warmFrames; k++) frame(k);
  const empty: number[] = [];
  const full: number[] = [];
  let bytes = Infinity;
  while (full.length < MAX_PAIRS && (full.length < MIN_PAIRS || !(bytes < NOISE_BYTES))) {
    empty.push(allocatedBy(frame, k, 0));
    k++;
    full.push(allocatedBy(frame, k, BATCH_FRAMES));
    k += BATCH_FRAMES + 1;
    bytes = Math.min(...full) - Math.min(...empty);
  }
  const report = `batches of ${BATCH_FRAMES} frames: ${full.join(", ")}; empty: ${empty.join(", ")}`;
  return { bytes, report };
}
