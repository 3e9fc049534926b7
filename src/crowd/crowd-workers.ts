import { Worker } from "node:worker_threads";
import type { CompiledGraph } from "../graph/compiled-graph.ts";
import { poseStride } from "./crowd.ts";
import { expectBuiltGraph, expectCrowdWorkersArguments, expectGraphFactory, expectGraphRecipe, expectWorkersStep, importRecipeModule } from "./check-crowd-workers.ts";

/**
 * How a worker gets the compiled graph: a compiled graph holds clips, Maps and closures and cannot be
 * sent between threads, so every worker (and the caller) builds it from the same recipe: module
 * `module` (a file URL or path) exports an (async) function `exportName(args)` returning the graph.
 */
export interface GraphRecipe {
  /** The module to import: a file URL or an absolute path. */
  readonly module: string;
  /** The name of the module's export that builds the graph (a {@link GraphFactory}). */
  readonly exportName: string;
  /** Structured-cloneable arguments for the factory. */
  readonly args?: unknown;
}

/** The function a {@link GraphRecipe} names: builds the compiled graph from the recipe's `args` (may be async). */
export type GraphFactory = (args: unknown) => CompiledGraph | Promise<CompiledGraph>;

/** How `createCrowdWorkers` splits and evaluates a crowd: thread count, sharing, start times and the kernel. */
export interface CrowdWorkersOptions {
  /** Worker threads (≥ 1). Characters are split into contiguous, near-equal ranges. */
  readonly workers: number;
  /** Shared sampling inside each worker (see CrowdOptions.share). Default true. */
  readonly share?: boolean;
  /** Per character: seconds to step it by once at creation (desynchronised starts). */
  readonly startTimes?: Float64Array;
  /**
   * Each worker evaluates with the WebAssembly SIMD kernel (see CrowdOptions.kernel) in its own
   * memory and copies its characters' poses and matrices into the shared buffers. Default false.
   */
  readonly kernel?: boolean;
  /**
   * Keep every character's local pose in `poseBuffer` (default true). False shares only the model
   * matrices (what GPU skinning reads): workers then neither write nor copy local poses, and
   * `poseBuffer` is empty. See CrowdOptions.localPoses.
   */
  readonly localPoses?: boolean;
}

/**
 * A crowd split across worker threads. Every character's local pose, model matrices and
 * parameters live in SharedArrayBuffers, laid out as in `Crowd` (character i at the same offsets), so
 * the caller reads results in place. Frames are driven with `Atomics` (no message per frame).
 */
export interface CrowdWorkers {
  /** Number of characters, over all workers. */
  readonly count: number;
  /** Joints per character. */
  readonly jointCount: number;
  /** Every character's local pose, 10·J floats each, in a SharedArrayBuffer (as `Crowd.poseBuffer`); empty with `localPoses: false`. */
  readonly poseBuffer: Float32Array;
  /** Every character's model-space matrices, 16·J floats each, in a SharedArrayBuffer (as `Crowd.model`). */
  readonly model: Float32Array;
  /** Parameters, graph.params.length per character (slot order); workers copy them in before each step. */
  readonly params: Float64Array;
  /** Steps every character by `dt` and waits until all workers are done. */
  evaluate(dt: number): void;
  /** Stops the workers. */
  terminate(): Promise<void>;
}

// Control block, one 64-byte cache line per writer so that a worker counting itself done does not
// invalidate the line the other workers poll for the next frame (Int32 indices):
//   line 0, written by the caller: [SEQ] frame sequence, then the Float64 dt at byte DT_BYTE;
//   line 1, written by the workers: [DONE] workers done with the current frame;
//   line 2, start-up and failure: [READY] workers ready, [FAILED] a worker failed.
// crowd-worker.ts reads the same constants.
export const SEQ = 0, DONE = 16, READY = 32, FAILED = 33;
export const DT_BYTE = 8;
export const CONTROL_BYTES = 192;

/**
 * Where worker w of n starts, in characters. Near-equal contiguous ranges; when each range is long
 * enough, boundaries move to characters whose local pose starts on a 64-byte line, so no cache line of
 * the shared pose buffer is written by two workers (model matrices, 64·J bytes per character, always
 * start on one).
 */
export function workerRangeStart(w: number, n: number, count: number, jointCount: number): number {
  const even = Math.floor((w * count) / n);
  const poseBytes = 4 * poseStride(jointCount);
  let g = 64;
  for (let a = poseBytes % 64; a !== 0;) [g, a] = [a, g % a];
  const step = 64 / g; // characters per whole number of lines
  if (w === 0 || w === n || count / n < 8 * step) return even;
  return Math.min(count, Math.round(even / step) * step);
}

/** Where the worker script is (the .ts source under tsx, the .js build otherwise). */
function workerUrl(): URL {
  const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  return new URL(`./crowd-worker${ext}`, import.meta.url);
}

/** Builds the graph from a recipe (in whichever thread calls it). */
export async function buildGraph(recipe: GraphRecipe): Promise<CompiledGraph> {
  expectGraphRecipe("buildGraph", "recipe", recipe);
  const mod = await importRecipeModule("buildGraph", recipe);
  const factory = mod[recipe.exportName];
  expectGraphFactory("buildGraph", recipe, factory);
  const graph = await (factory as GraphFactory)(recipe.args);
  expectBuiltGraph("buildGraph", recipe, graph);
  return graph;
}

/**
 * Starts `options.workers` threads evaluating `count` characters of the recipe's graph. Resolves once
 * every worker has built its part. Throws (rejects) when a worker fails to start.
 */
export async function createCrowdWorkers(recipe: GraphRecipe, count: number, options: CrowdWorkersOptions): Promise<CrowdWorkers> {
  expectCrowdWorkersArguments(recipe, count, options);
  const graph = await buildGraph(recipe);
  const J = graph.skeleton.jointCount;
  const P = poseStride(J);
  const nParams = graph.params.length;
  const localPoses = options.localPoses !== false;
  const pose = new SharedArrayBuffer(localPoses ? 4 * count * P : 0);
  const model = new SharedArrayBuffer(4 * count * 16 * J);
  const params = new SharedArrayBuffer(8 * Math.max(1, count * nParams));
  const control = new SharedArrayBuffer(CONTROL_BYTES);
  const paramView = new Float64Array(params);
  for (let i = 0; i < count; i++) for (const p of graph.params) paramView[i * nParams + p.slot] = p.default;
  const ctl = new Int32Array(control);
  const dtView = new Float64Array(control, DT_BYTE, 1);
  const n = Math.max(1, Math.floor(options.workers));
  const workers: Worker[] = [];
  const failures: Promise<never>[] = [];
  for (let w = 0; w < n; w++) {
    const first = workerRangeStart(w, n, count, J);
    const last = workerRangeStart(w + 1, n, count, J);
    const url = workerUrl();
    // Running from the TypeScript sources (development, tests, the bench), the worker loads them through
    // tsx: its entry is a one-line script that registers tsx's loader hooks, then imports the worker
    // (Node 20 applies neither the parent's hooks nor `--import tsx` to a worker's .ts entry).
    const fromSource = url.pathname.endsWith(".ts");
    const entry = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
    const worker = new Worker(fromSource ? entry : url, {
      eval: fromSource,
      workerData: {
        recipe, first, count: last - first, workers: n, share: options.share !== false, kernel: options.kernel === true, localPoses,
        startTimes: options.startTimes ? options.startTimes.slice(first, last) : null,
        pose, model, params, control,
      },
    });
    failures.push(new Promise<never>((_, reject) => worker.once("error", (e) => {
      Atomics.store(ctl, FAILED, 1);
      Atomics.notify(ctl, READY);
      reject(e);
    })));
    workers.push(worker);
  }
  const ready = (async (): Promise<void> => {
    for (;;) {
      const r = Atomics.load(ctl, READY);
      if (r >= n || Atomics.load(ctl, FAILED)) return;
      await Atomics.waitAsync(ctl, READY, r).value;
    }
  })();
  await Promise.race([ready, ...failures]);
  let terminated = false;
  if (Atomics.load(ctl, FAILED)) await Promise.race(failures);
  return {
    count, jointCount: J,
    poseBuffer: new Float32Array(pose), model: new Float32Array(model), params: paramView,
    evaluate(dt: number): void {
      expectWorkersStep(terminated, dt);
      dtView[0] = dt;
      Atomics.store(ctl, DONE, 0);
      Atomics.add(ctl, SEQ, 1);
      Atomics.notify(ctl, SEQ);
      // The last worker to finish wakes this thread (crowd-worker.ts): one wake-up per frame.
      for (;;) {
        const done = Atomics.load(ctl, DONE);
        if (done >= n) return;
        if (Atomics.load(ctl, FAILED)) throw new Error("crowd workers: a worker failed");
        Atomics.wait(ctl, DONE, done, 1000);
      }
    },
    async terminate(): Promise<void> {
      terminated = true;
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
