// Timing and heap measurement helpers for the benchmark (Node 20, one process).
import { readdirSync, readFileSync } from "node:fs";
import { PerformanceObserver, performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
/** A full garbage collection (the flag is set at run time, so `npm run bench` needs no node option). */
export const gc = runInNewContext("gc") as () => void;

let gcCount = 0;
const gcTimes: number[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcCount++;
    gcTimes.push(e.startTime);
  }
}).observe({ entryTypes: ["gc"] });

/** Lets queued performance entries (GC notifications) arrive. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Mean milliseconds per call of `frame` over `frames` calls. */
export function timeFrames(frame: () => void, frames: number): number {
  const t0 = performance.now();
  for (let i = 0; i < frames; i++) frame();
  return (performance.now() - t0) / frames;
}

/**
 * Mean wall-clock and CPU milliseconds per call of `frame` over `frames` calls. CPU time is the
 * process's (`process.cpuUsage`: every thread, so worker threads and V8's GC helpers count): on a
 * machine shared with other jobs, wall-clock time also counts the time slices the scheduler gives
 * them, CPU time only the work done, so a ratio of CPU times varies far less from round to round.
 */
export function timeFramesCpu(frame: () => void, frames: number): { wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < frames; i++) frame();
  const wall = (performance.now() - t0) / frames;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 / frames };
}

/** JS heap in use plus ArrayBuffer backing stores (which live outside the JS heap). */
function retained(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/**
 * Two full collections with a pause between: V8 sweeps and frees ArrayBuffer backing stores
 * concurrently after a collection, and a reading taken straight after one `gc()` swung by ~2 KiB per
 * character between identical crowd builds; after this it repeats to within ~50 bytes.
 */
async function settledGc(): Promise<void> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc();
}

/**
 * Retained bytes of what `build` creates: settled full GC, heapUsed + arrayBuffers, build (and warm
 * up), settled full GC, the same sum again; the returned value keeps the built objects alive.
 */
export async function retainedBytes<T>(build: () => T): Promise<{ value: T; bytes: number }> {
  await settledGc();
  const h0 = retained();
  const value = build();
  await settledGc();
  return { value, bytes: retained() - h0 };
}

/** Heap growth over `frames` calls of `frame` after a full GC, or NaN if a collection ran meanwhile. */
async function growth(frame: () => void, frames: number): Promise<number> {
  gc();
  await settle();
  const before = gcCount;
  const t0 = performance.now();
  const h0 = process.memoryUsage().heapUsed;
  for (let i = 0; i < frames; i++) frame();
  const h1 = process.memoryUsage().heapUsed;
  const t1 = performance.now();
  await settle();
  const collected = gcTimes.slice(before).some((t) => t >= t0 && t <= t1);
  return collected || h1 < h0 ? NaN : h1 - h0;
}

/**
 * Bytes allocated per frame on the JS heap: after a full GC, heapUsed grows by exactly what is
 * allocated as long as no collection runs, so frames run in short batches and batches during which a
 * GC happened (PerformanceObserver "gc" entries) are discarded. Reading heapUsed itself costs a fixed
 * few hundred bytes per batch, so for small allocators batches of F and 2F frames are compared:
 * (min growth over 2F − min growth over F) / F is the per-frame allocation with that cost cancelled;
 * above 4 KiB per frame the F-frame batches alone are reported. Node 20 has no
 * allocation counter (v8.getHeapStatistics lacks total_allocated_bytes), hence this method.
 * Typed-array backing stores live outside the JS heap but their JS objects (≥ 64 bytes each) are on
 * it, so any typed array created per frame shows. NaN if every batch saw a GC.
 */
export async function allocatedBytesPerFrame(frame: () => void, framesPerBatch: number, batches: number): Promise<number> {
  const single: number[] = [];
  const double: number[] = [];
  for (let b = 0; b < batches; b++) {
    const g1 = await growth(frame, framesPerBatch);
    if (!Number.isNaN(g1)) single.push(g1);
    const g2 = await growth(frame, 2 * framesPerBatch);
    if (!Number.isNaN(g2)) double.push(g2);
  }
  if (single.length === 0) return NaN;
  const simple = Math.min(...single) / framesPerBatch;
  if (double.length === 0) return simple;
  const differenced = Math.max(0, (Math.min(...double) - Math.min(...single)) / framesPerBatch);
  // The difference only matters next to the fixed cost (a few hundred bytes per batch). For heavy
  // allocators (three.js: megabytes per frame) an unnoticed scavenge inside a long batch can shrink
  // it, and the short batches' figure is the accurate one.
  return simple > 4096 ? simple : differenced;
}

/**
 * The memory-bandwidth probe: two 64 MiB Float64Arrays (far beyond the caches); each `copy()` is one
 * `TypedArray.prototype.set` (a memmove) and returns the bytes moved per ns (read + write). The bench
 * times it in the same alternating rounds as the crowds; its bandwidth limit per joint-clip is ~100
 * bytes divided by the median.
 */
export function createMemcpyProbe(): { copy: () => number } {
  const n = (64 << 20) / 8;
  const a = new Float64Array(n).fill(1);
  const b = new Float64Array(n);
  b.set(a); // first touch: page faults are not bandwidth
  return {
    copy: () => {
      const t0 = performance.now();
      b.set(a);
      return (2 * 8 * n) / ((performance.now() - t0) * 1e6);
    },
  };
}

/**
 * What the scheduler did, summed since boot (Linux; null elsewhere): this process's threads' time on a
 * core and time runnable but waiting for one (ns, `/proc/self/task/<tid>/schedstat`), and the time every
 * core of the machine spent busy (ms, `/proc/stat`'s user + nice + system + irq + softirq + steal, in
 * 10 ms ticks). Two snapshots around a batch of frames tell whether our threads waited for a core while
 * other processes ran on it, i.e. whether the machine was idle enough for a wall-clock figure on all
 * cores to mean anything. `waitOf`: count only these threads' wait (the ones doing the timed work; a
 * V8 helper thread waiting behind our own workers is not the machine being busy); run time is always
 * every thread's.
 */
export interface SchedSnapshot { readonly ownRunMs: number; readonly ownWaitMs: number; readonly machineBusyMs: number }

export function schedSnapshot(waitOf?: ReadonlySet<number>): SchedSnapshot | null {
  try {
    let run = 0, wait = 0;
    for (const tid of readdirSync("/proc/self/task")) {
      let text: string;
      try {
        text = readFileSync(`/proc/self/task/${tid}/schedstat`, "latin1");
      } catch {
        continue; // the thread ended between the listing and the read
      }
      const fields = text.split(" ");
      run += Number(fields[0]);
      if (!waitOf || waitOf.has(Number(tid))) wait += Number(fields[1]);
    }
    const cpu = readFileSync("/proc/stat", "latin1").split("\n", 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already inside user).
    const busyTicks = cpu[0]! + cpu[1]! + cpu[2]! + cpu[5]! + cpu[6]! + (cpu[7] ?? 0);
    if (!Number.isFinite(run + wait + busyTicks)) return null;
    return { ownRunMs: run / 1e6, ownWaitMs: wait / 1e6, machineBusyMs: busyTicks * 10 };
  } catch {
    return null;
  }
}

/** Per-frame scheduler figures between two snapshots: our threads' wait for a core, other processes' CPU. */
export interface SchedDelta { readonly waitMs: number; readonly othersMs: number }

export function schedDelta(a: SchedSnapshot | null, b: SchedSnapshot | null, frames: number): SchedDelta | null {
  if (!a || !b) return null;
  const others = b.machineBusyMs - a.machineBusyMs - (b.ownRunMs - a.ownRunMs);
  return { waitMs: (b.ownWaitMs - a.ownWaitMs) / frames, othersMs: Math.max(0, others) / frames };
}
