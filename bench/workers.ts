// The bench's worker rows: the synthetic-64 crowd at N = 5,000 in 1, 2 (and on ≥ 4 cores 4) workers
// against the in-thread kernel, in alternating rounds, with what the scheduler did in each round beside
// the times (docs/performance.md, "Workers").
import { readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { createCrowdWorkers, type GraphRecipe } from "../src/crowd/crowd-workers.ts";
import { gc, median, schedDelta, schedSnapshot, timeFrames, timeFramesCpu, type SchedDelta } from "./measure.ts";

/** This process's thread ids (Linux; empty elsewhere). */
function taskIds(): number[] {
  try {
    return readdirSync("/proc/self/task").map(Number);
  } catch {
    return [];
  }
}

/** Median, lowest and highest of per-round values. */
export interface Spread { readonly median: number; readonly low: number; readonly high: number }
const spread = (xs: readonly number[]): Spread => ({ median: median(xs), low: Math.min(...xs), high: Math.max(...xs) });

/**
 * A round counts as idle when neither the caller nor a worker thread waited for a core for more than this share of
 * the round's wall-clock time, in the one-worker and the two-worker batch alike.
 */
export const IDLE_WAIT_SHARE = 0.05;

/**
 * The rounds in which every batch (one per timed pool; wall-clock ms per frame and the scheduler's
 * figures per round) had the cores: the caller and the pool.s threads waited for a core at most IDLE_WAIT_SHARE
 * of the batch's time. Null when a round's scheduler figures are unknown (not Linux).
 */
export function idleRounds(walls: readonly (readonly number[])[], scheds: readonly (readonly (SchedDelta | null)[])[]): number[] | null {
  const out: number[] = [];
  for (let r = 0; r < walls[0]!.length; r++) {
    let idle = true;
    for (let k = 0; k < walls.length; k++) {
      const d = scheds[k]![r];
      if (!d) return null;
      if (d.waitMs > IDLE_WAIT_SHARE * walls[k]![r]!) idle = false;
    }
    if (idle) out.push(r);
  }
  return out;
}

export interface WorkerRow {
  readonly threads: number; // 0: the in-thread kernel
  readonly ms: Spread;
  readonly vsOne: Spread;
  readonly cpuMs: number;
  readonly coresUsed: number;
  /** Median ms per frame the caller and the pool's threads were runnable but had no core (null off Linux). */
  readonly waitMs: number | null;
  /** Other processes' CPU over this row's rounds, in cores (null off Linux). */
  readonly otherCores: number | null;
  /**
   * Median ms per frame a worker spent asleep at the barrier: its frame's wall-clock time neither on a
   * core nor waiting for one, i.e. waiting for the slower worker (null for the in-thread row, off Linux).
   */
  readonly asleepMs: number | null;
}

export interface WorkerFigures {
  readonly n: number;
  readonly cores: number;
  readonly rounds: number;
  readonly framesPerRound: number;
  readonly rows: readonly WorkerRow[];
  readonly twoVsOne: Spread;
  readonly fourVsOne: Spread | null;
  /** Rounds in which neither the 1- nor the 2-worker batch waited for a core (null off Linux). */
  readonly idleRounds: number | null;
  /** Two workers vs one over the idle rounds only (null when there are none). */
  readonly twoVsOneIdle: Spread | null;
  readonly loadAverage: number;
}

/**
 * Times the in-thread crowd (`inThread`, one frame per call) and worker pools of the recipe's crowd in
 * alternating rounds (forward, then reversed order), each pool warmed first, after a full collection of
 * this thread's heap (what the bench built before must not be swept while the workers run).
 */
export async function workerFigures(inThread: () => void, recipe: GraphRecipe, n: number, startTimes: Float64Array, cores: number, quick: boolean, dt: number): Promise<WorkerFigures> {
  const pools = [1, 2, ...(cores >= 4 ? [4] : [])];
  const workers = [];
  // The threads doing each batch's work: the caller, and the pool's threads (those that appeared while
  // it started). Only their wait for a core says the machine was busy.
  const threads: Set<number>[] = [new Set([process.pid])];
  for (const count of pools) {
    const before = new Set(taskIds());
    workers.push(await createCrowdWorkers(recipe, n, { workers: count, startTimes, kernel: true, localPoses: false }));
    threads.push(new Set([process.pid, ...taskIds().filter((t) => !before.has(t))]));
  }
  const fns = [inThread, ...workers.map((w) => () => w.evaluate(dt))];
  const rounds = quick ? 11 : 21;
  const frames = quick ? 6 : 8;
  gc();
  // Warm-up: each worker compiles its own copy of the kernel and tiers it up on its own.
  for (const f of fns) timeFrames(f, 3 * frames);
  const wall = fns.map(() => [] as number[]);
  const cpu = fns.map(() => [] as number[]);
  const sched = fns.map(() => [] as (SchedDelta | null)[]);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < fns.length; i++) {
      const k = r % 2 === 0 ? i : fns.length - 1 - i;
      const s0 = schedSnapshot(threads[k]);
      const m = timeFramesCpu(fns[k]!, frames);
      sched[k]!.push(schedDelta(s0, schedSnapshot(threads[k]), frames));
      wall[k]!.push(m.wall);
      cpu[k]!.push(m.cpu);
    }
  }
  const loadAverage = loadavg()[0]!;
  for (const w of workers) await w.terminate();
  const ratios = (a: readonly number[], b: readonly number[]): number[] => a.map((x, r) => x / b[r]!);
  const rows: WorkerRow[] = fns.map((_, k) => {
    const s = sched[k]!;
    const known = s.every((d) => d !== null) ? (s as SchedDelta[]) : null;
    const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
    return {
      threads: k === 0 ? 0 : pools[k - 1]!,
      ms: spread(wall[k]!),
      vsOne: spread(ratios(wall[1]!, wall[k]!)),
      cpuMs: median(cpu[k]!),
      coresUsed: median(ratios(cpu[k]!, wall[k]!)),
      waitMs: known ? median(known.map((d) => d.waitMs)) : null,
      otherCores: known ? sum(known.map((d) => d.othersMs)) / sum(wall[k]!) : null,
      // Per worker: the frame's time neither on a core nor waiting for one (the caller's bit of CPU is
      // counted as work, so this errs low).
      asleepMs: k === 0 || !known ? null : median(wall[k]!.map((w, r) => Math.max(0, (pools[k - 1]! * w - cpu[k]![r]! - known[r]!.waitMs) / pools[k - 1]!))),
    };
  });
  const idleIdx = idleRounds([wall[1]!, wall[2]!], [sched[1]!, sched[2]!]);
  return {
    n, cores, rounds, framesPerRound: frames, rows,
    twoVsOne: rows[2]!.vsOne,
    fourVsOne: rows[3]?.vsOne ?? null,
    idleRounds: idleIdx ? idleIdx.length : null,
    twoVsOneIdle: idleIdx?.length ? spread(idleIdx.map((r) => wall[1]![r]! / wall[2]![r]!)) : null,
    loadAverage,
  };
}

const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const range = (s: Spread): string => `${f2(s.median)} (${f2(s.low)}–${f2(s.high)})`;

/** The markdown table and the notes under it. */
export function workerTable(f: WorkerFigures): string[] {
  const out: string[] = [];
  out.push(`workers: synthetic-64, N = ${f.n}, the kernel in every worker, model matrices shared (localPoses: false, as the in-thread crowd), ${f.cores} cores, load average ${f.loadAverage.toFixed(1)}; ${f.rounds} alternating rounds of ${f.framesPerRound} frames`);
  out.push("");
  out.push("CPU ms/frame is every thread's CPU time (process.cpuUsage) per frame: the work. Cores used = CPU ÷ wall-clock time: what the");
  out.push("scheduler gave the process. Waiting for a core: the time the caller and the pool's threads were runnable but had no core (Linux");
  out.push("schedstat); other processes: the machine's busy time (/proc/stat) minus this process's, in cores. With autogroup scheduling a");
  out.push("process's threads share one group's slice, so while another process runs, two workers get about one core between them.");
  out.push("Asleep at the barrier: a worker's frame neither on a core nor waiting for one, i.e. waiting for the slower worker.");
  out.push("");
  out.push("| threads | ms/frame | vs 1 worker (rounds' range) | CPU ms/frame (all threads) | cores used | waiting for a core, ms/frame | asleep at the barrier, ms/frame per worker | other processes, cores |");
  out.push("|---|---|---|---|---|---|---|---|");
  for (const r of f.rows) {
    const label = r.threads === 0 ? "in-thread kernel (no worker)" : `${r.threads} worker${r.threads > 1 ? "s" : ""}`;
    out.push(`| ${label} | ${f2(r.ms.median)} | ${range(r.vsOne)}× | ${f2(r.cpuMs)} | ${f2(r.coresUsed)} | ${r.waitMs === null ? "n/a" : f2(r.waitMs)} | ${r.asleepMs === null ? "—" : f2(r.asleepMs)} | ${r.otherCores === null ? "n/a" : f2(r.otherCores)} |`);
  }
  if (f.cores < 4) out.push(`| 4 workers | skipped: this machine has ${f.cores} cores | | | | | | |`);
  out.push("");
  out.push(idleNote(f));
  return out;
}

/** Which rounds had the cores to themselves, and the two-worker figure over those. */
function idleNote(f: WorkerFigures): string {
  if (f.idleRounds === null) return "rounds with idle cores: not known here (no Linux schedstat)";
  const head = `rounds in which neither the caller nor a worker waited for a core (≤ ${IDLE_WAIT_SHARE * 100} % of the batch, 1- and 2-worker batch alike): ${f.idleRounds} of ${f.rounds}`;
  return f.twoVsOneIdle ? `${head}; two workers vs one in them: ${range(f.twoVsOneIdle)}×` : `${head}: other processes held a core throughout, so the two-worker figure is what was left of the machine, not the workers' scaling`;
}

/** The two target rows (issue 20). The verdict is on every round; a busy machine is said beside it. */
export function workerTargetRows(f: WorkerFigures, met: (ok: boolean | null) => string): string[] {
  const two = f.rows[2]!;
  const busy = two.waitMs !== null && two.waitMs > IDLE_WAIT_SHARE * two.ms.median
    ? `; the machine was not idle: the caller and the workers waited ${f2(two.waitMs)} ms per frame for a core while other processes used ${f2(two.otherCores ?? NaN)} cores${f.twoVsOneIdle ? ` (${f.idleRounds} idle rounds: ${range(f.twoVsOneIdle)}×)` : ""}`
    : two.waitMs !== null ? `; waiting for a core ${f2(two.waitMs)} ms per frame` : "";
  return [
    `| two workers vs one, N = 5,000 (bit-equal: test/crowd/crowd-workers.test.ts) | ≥ 1.7× | ${range(f.twoVsOne)}×${busy} | ${met(f.twoVsOne.median >= 1.7)} |`,
    `| four workers vs one, N = 5,000 | ≥ 3× on ≥ 4 cores | ${f.fourVsOne ? `${range(f.fourVsOne)}×` : `skipped: ${f.cores} cores`} | ${met(f.fourVsOne ? f.fourVsOne.median >= 3 : null)} |`,
  ];
}

/** The JSON keys besides `twoWorkerSpeedup` (today's, and the scheduler's figures). */
export function workerJson(f: WorkerFigures): Record<string, unknown> {
  const r2 = (x: number): number => Number(x.toFixed(2));
  const two = f.rows[2]!;
  return {
    twoWorkerCoresUsed: r2(two.coresUsed),
    twoWorkerSpeedupRange: [r2(f.twoVsOne.low), r2(f.twoVsOne.high)],
    twoWorkerWaitMsPerFrame: two.waitMs === null ? null : r2(two.waitMs),
    twoWorkerAsleepMsPerFrame: two.asleepMs === null ? null : r2(two.asleepMs),
    twoWorkerOtherProcessesCores: two.otherCores === null ? null : r2(two.otherCores),
    workerIdleRounds: f.idleRounds === null ? null : [f.idleRounds, f.rounds],
    twoWorkerSpeedupIdleRounds: f.twoVsOneIdle ? r2(f.twoVsOneIdle.median) : null,
    fourWorkerSpeedup: f.fourVsOne ? r2(f.fourVsOne.median) : null,
  };
}
