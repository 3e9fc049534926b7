// `npm run bench [-- --quick]`: animgraph's crowd evaluation against three.js's AnimationMixer in one
// process (docs/performance.md describes the method). Prints a markdown table, then one JSON line.
import { cpus } from "node:os";
import { step } from "../src/graph/step.ts";
import { createCrowd, evaluateCrowd, loadCrowdKernelSync, type Crowd, type CrowdKernel } from "../src/crowd/index.ts";
import { createCrowdWorkers } from "../src/crowd/crowd-workers.ts";
import type { CompiledGraph } from "../src/graph/compiled-graph.ts";
import { compressClip } from "../src/compress/compress-clip.ts";
import { loadBvh } from "../src/io/bvh/load-bvh.ts";
import { sharedAsset } from "../test/helpers/assets.ts";
import { allocatedBytesPerFrame, median, retainedBytes, timeFrames } from "./measure.ts";
import { createThreeCrowd, stepThreeCrowd } from "./three-crowd.ts";
import { benchGraph, robotWorkload, synthWorkload, type Workload } from "./workloads.ts";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 5 : 9;
const DT = 1 / 60;
/** Clips blended per character: walk, run, the additive layer. */
const L = 3;
/** The issue's physical limit: 28 GB/s of memory bandwidth, ~100 bytes per joint-clip. */
const BANDWIDTH_NS = 3.6;
/**
 * Runtime options of the benchmark graph: a 16-event queue per character (the default 256 preallocated
 * event objects are ~20 KiB per character; a two-state crowd graph emits a handful per step) and a
 * 4-deep crossfade stack (default 8). Everything else at its default (exact slerp).
 */
const CROWD_OPTIONS = { eventCapacity: 16, maxStackDepth: 4 } as const;

/** Deterministic offsets in [0, 2) s so characters are out of phase (no accidental sharing). */
function offsets(n: number, seed: number): Float64Array {
  const out = new Float64Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = (x / 2 ** 32) * 2;
  }
  return out;
}

/** The WebAssembly SIMD kernel: the headline path (the JS path is measured as a variant). */
const kernel = loadCrowdKernelSync();

/**
 * The headline crowd: the kernel, keeping model-space matrices only (`localPoses: false`), which is
 * what the workload asks for ("then model-space transforms") and what a renderer consumes; the JS-path
 * variants keep local poses too, as does the memory figure `bytesPerCharacterWithLocalPoses`.
 */
function staggered(graph: CompiledGraph, n: number, offs: Float64Array | null, share: boolean, withKernel: CrowdKernel | null = kernel, localPoses = withKernel === null): Crowd {
  const crowd = createCrowd(graph, n, withKernel ? { kernel: withKernel, localPoses } : { share });
  if (offs) for (let i = 0; i < n; i++) step(graph, crowd.instances[i]!, offs[i]!);
  evaluateCrowd(crowd, 0);
  return crowd;
}

export interface Row {
  workload: string;
  joints: number;
  n: number;
  threeMs: number;
  agMs: number;
  threeNs: number;
  agNs: number;
  speedup: number;
  threeBytesPerChar: number;
  agBytesPerChar: number;
  agBytesPerCharLocal: number;
  threeAllocPerFrame: number;
  agAllocPerFrame: number;
}

/** Frames per timed round: about 0.1 s (quick) or 0.3 s of three.js work. */
function framesFor(n: number, j: number): number {
  const estimateMs = (n * j * L * 420) / 1e6;
  return Math.max(3, Math.round((quick ? 50 : 300) / estimateMs));
}

interface Compared {
  readonly row: Row;
  readonly three: ReturnType<typeof createThreeCrowd>;
  readonly crowd: Crowd;
  readonly graph: CompiledGraph;
  readonly offsets: Float64Array;
}

async function compare(w: Workload, n: number): Promise<Compared> {
  const offs = offsets(n, 12345 + n);
  // Build (and run) a small crowd on each side first, so the code and type feedback that creation
  // compiles are not counted as per-character memory below.
  stepThreeCrowd(createThreeCrowd(w, 8, offs), DT);
  evaluateCrowd(staggered(benchGraph(w, CROWD_OPTIONS), 8, offs, true), DT);
  const three = await retainedBytes(() => createThreeCrowd(w, n, offs));
  const graph = benchGraph(w, CROWD_OPTIONS);
  // The kernel's memory (a WebAssembly.Memory, outside the JS heap and its ArrayBuffer count) holds
  // the crowd's poses and matrices and the packed clips: counted in full.
  const measured = async (build: () => Crowd): Promise<{ value: Crowd; bytes: number }> => {
    const r = await retainedBytes(build);
    return { value: r.value, bytes: r.bytes + (r.value.wasm ? r.value.wasm.memory.buffer.byteLength : 0) };
  };
  const ag = await measured(() => staggered(graph, n, offs, true));
  const agBytes = ag.bytes;
  const agBytesLocal = (await measured(() => staggered(graph, n, offs, true, kernel, true))).bytes;
  const threeFrame = (): void => stepThreeCrowd(three.value, DT);
  const agFrame = (): void => evaluateCrowd(ag.value, DT);
  const frames = framesFor(n, w.jointCount);
  timeFrames(threeFrame, 2); // warm-up (JIT)
  timeFrames(agFrame, 2);
  const t: number[] = [];
  const a: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which library goes first, so drift (thermal, other processes) cancels.
    if (r % 2 === 0) {
      t.push(timeFrames(threeFrame, frames));
      a.push(timeFrames(agFrame, frames));
    } else {
      a.push(timeFrames(agFrame, frames));
      t.push(timeFrames(threeFrame, frames));
    }
  }
  const threeMs = median(t);
  const agMs = median(a);
  const per = (ms: number): number => (ms * 1e6) / (n * w.jointCount * L);
  const allocFrames = Math.max(2, Math.min(quick ? 3 : 20, frames));
  // "Steady state": V8 optimises rarely run code only after many calls, and until then its interpreter
  // boxes doubles. Warm animgraph for ~1 s of frames (at least 300 frames) before measuring allocation.
  const warmUntil = performance.now() + 1000;
  for (let k = 0; k < 300 || performance.now() < warmUntil; k++) agFrame();
  const row: Row = {
    workload: w.name, joints: w.jointCount, n, threeMs, agMs, threeNs: per(threeMs), agNs: per(agMs), speedup: threeMs / agMs,
    threeBytesPerChar: three.bytes / n, agBytesPerChar: agBytes / n, agBytesPerCharLocal: agBytesLocal / n,
    threeAllocPerFrame: await allocatedBytesPerFrame(threeFrame, allocFrames, quick ? 2 : 5),
    agAllocPerFrame: await allocatedBytesPerFrame(agFrame, allocFrames, quick ? 4 : 6),
  };
  return { row, three: three.value, crowd: ag.value, graph, offsets: offs };
}

/**
 * The compression helper's figures (src/compress) on the two CMU takes at their own key rate, with
 * bench/compress.ts's settings (0.1 mm virtual-vertex tolerance, CMU units of 1/0.45 inch):
 * ratio = Σ raw bytes / Σ compressed bytes, max error over both takes in mm. Null with the reason when
 * the API fails (it is another helper's module).
 */
function compressionFigures(): { ratio: number | null; maxErrorMm: number | null; note: string } {
  const t0 = performance.now();
  try {
    let raw = 0, packed = 0, maxError = 0;
    for (const file of ["bvh-cmu-131/131_01.bvh", "bvh-cmu-131/131_03.bvh"]) {
      const { clip } = loadBvh(sharedAsset(file));
      if (!clip) throw new Error(`${file} did not load`);
      const result = compressClip(clip, { tolerance: 1e-4, unitsPerMetre: 1 / (2.54 / 0.45 / 100) });
      const stats = result.stats;
      if (!stats) throw new Error(`${file}: ${JSON.stringify(result.diagnostics)}`);
      raw += stats.rawBytes;
      packed += stats.compressedBytes;
      maxError = Math.max(maxError, stats.maxError);
    }
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    return { ratio: raw / packed, maxErrorMm: maxError * 1000, note: `CMU 131_01 + 131_03 at their own rate, 0.1 mm tolerance (compressClip, ${seconds} s)` };
  } catch (e) {
    return { ratio: null, maxErrorMm: null, note: `compressClip failed: ${e instanceof Error ? e.message : String(e)}; see bench/compress.ts` };
  }
}

const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : "n/a");
const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const kb = (x: number): string => (x / 1024).toFixed(1);

async function main(): Promise<void> {
  const started = Date.now();
  const robot = await robotWorkload();
  const synth = synthWorkload();
  const rows: Row[] = [];
  let headline: Compared | undefined;
  for (const w of [robot, synth]) {
    for (const n of [100, 1000]) {
      const c = await compare(w, n);
      if (process.env.BENCH_VERBOSE) console.error(`${w.name} N=${n} done at ${((Date.now() - started) / 1000).toFixed(1)} s`);
      rows.push(c.row);
      if (w === synth && n === 1000) headline = c;
    }
  }

  const out: string[] = [];
  out.push(`animgraph bench${quick ? " (--quick)" : ""}: node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${ROUNDS} alternating rounds, medians`);
  out.push("");
  out.push("| workload | J | N | three.js ms/frame | animgraph ms/frame | three.js ns/joint-clip | animgraph ns/joint-clip | speed-up | three.js KiB/char | animgraph KiB/char | animgraph KiB/char with local poses | three.js B alloc/frame | animgraph B alloc/frame |");
  out.push("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    out.push(`| ${r.workload} | ${r.joints} | ${r.n} | ${f2(r.threeMs)} | ${f2(r.agMs)} | ${f1(r.threeNs)} | ${f1(r.agNs)} | ${f1(r.speedup)}× | ${kb(r.threeBytesPerChar)} | ${kb(r.agBytesPerChar)} | ${kb(r.agBytesPerCharLocal)} | ${Math.round(r.threeAllocPerFrame)} | ${Math.round(r.agAllocPerFrame)} |`);
  }
  const head = rows.find((r) => r.workload === synth.name && r.n === 1000)!;
  const compression = process.argv.includes("--no-compress")
    ? { ratio: null, maxErrorMm: null, note: "skipped (--no-compress)" }
    : compressionFigures();

  // Variants on the headline workload (synthetic-64, N = 1,000), alternating rounds again.
  const N = 1000;
  const { graph, crowd: stag, three: threeCrowd, offsets: offs } = headline!;
  const jsPath = staggered(graph, N, offs, true, null);
  const inPhase = staggered(graph, N, null, true, null);
  const quantised = createCrowd(graph, N, { timeQuantum: 1 / 60 });
  evaluateCrowd(quantised, 0);
  for (let i = 0; i < N; i++) step(graph, quantised.instances[i]!, offs[i]!);
  const recipe = { module: new URL("./graph-factory.ts", import.meta.url).href, exportName: "synthBenchGraph" };
  const w1 = await createCrowdWorkers(recipe, N, { workers: 1, startTimes: offs, kernel: true });
  const w2 = await createCrowdWorkers(recipe, N, { workers: 2, startTimes: offs, kernel: true });
  const variants: [string, () => void][] = [
    ["three.js AnimationMixer (same rounds)", () => stepThreeCrowd(threeCrowd, DT)],
    ["WebAssembly SIMD kernel, in-thread, out of phase (headline)", () => evaluateCrowd(stag, DT)],
    ["JS path, in-thread, out of phase", () => evaluateCrowd(jsPath, DT)],
    ["JS path, in phase (shared sampling hits)", () => evaluateCrowd(inPhase, DT)],
    ["JS path, out of phase, quantised sharing q = 1/60 s", () => evaluateCrowd(quantised, DT)],
    ["kernel, 1 worker thread, out of phase", () => w1.evaluate(DT)],
    ["kernel, 2 worker threads, out of phase", () => w2.evaluate(DT)],
  ];
  const frames = quick ? 2 : framesFor(N, synth.jointCount);
  const times = variants.map(() => [] as number[]);
  for (const [, f] of variants) timeFrames(f, 2);
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? [0, 1, 2, 3, 4, 5, 6] : [6, 5, 4, 3, 2, 1, 0];
    for (const v of order) times[v]!.push(timeFrames(variants[v]![1], frames));
  }
  await w1.terminate();
  await w2.terminate();
  const vMs = times.map(median);
  out.push("");
  out.push(`synthetic-64, N = ${N}: variants, timed in the same alternating rounds as three.js`);
  out.push("");
  out.push("| variant | ms/frame | ns/joint-clip | vs three.js |");
  out.push("|---|---|---|---|");
  variants.forEach(([name], v) => {
    const ms = vMs[v]!;
    out.push(`| ${name} | ${f2(ms)} | ${f1((ms * 1e6) / (N * synth.jointCount * L))} | ${f1(vMs[0]! / ms)}× |`);
  });
  out.push("");
  out.push(`kernel vs JS path: ${f2(vMs[2]! / vMs[1]!)}×; worker speed-up: 2 workers vs 1 = ${f2(vMs[5]! / vMs[6]!)}×; 2 workers vs in-thread = ${f2(vMs[1]! / vMs[6]!)}×`);
  out.push("");
  out.push(`bandwidth limit: ${f1(head.agNs)} ns per joint-clip = ${f1(head.agNs / BANDWIDTH_NS)} × the ~${BANDWIDTH_NS} ns physical limit (28 GB/s, ~100 B per joint-clip)`);
  out.push(`compression: ${compression.ratio === null ? "n/a" : `${f2(compression.ratio)}:1, max error ${compression.maxErrorMm!.toFixed(4)} mm`} (${compression.note})`);
  console.log(out.join("\n"));
  const json = {
    speedupVsThree: Number(head.speedup.toFixed(2)),
    nsPerJointClip: Number(head.agNs.toFixed(2)),
    threeNsPerJointClip: Number(head.threeNs.toFixed(2)),
    bandwidthRatio: Number((head.agNs / BANDWIDTH_NS).toFixed(2)),
    bytesPerCharacter: Math.round(rows.find((r) => r.workload === robot.name && r.n === 1000)!.agBytesPerChar),
    bytesPerCharacterWithLocalPoses: Math.round(rows.find((r) => r.workload === robot.name && r.n === 1000)!.agBytesPerCharLocal),
    allocBytesPerFrame: Math.round(head.agAllocPerFrame),
    threeAllocBytesPerFrame: Math.round(head.threeAllocPerFrame),
    speedupJsPath: Number((vMs[0]! / vMs[2]!).toFixed(2)),
    kernelVsJsPath: Number((vMs[2]! / vMs[1]!).toFixed(2)),
    twoWorkerSpeedup: Number((vMs[5]! / vMs[6]!).toFixed(2)),
    speedupInPhaseShared: Number((vMs[0]! / vMs[3]!).toFixed(2)),
    speedupQuantised: Number((vMs[0]! / vMs[4]!).toFixed(2)),
    speedupTwoWorkers: Number((vMs[0]! / vMs[6]!).toFixed(2)),
    compressionRatio: compression.ratio === null ? null : Number(compression.ratio.toFixed(2)),
    maxErrorMm: compression.maxErrorMm === null ? null : Number(compression.maxErrorMm.toFixed(4)),
    compressionNote: compression.note,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
  console.log(JSON.stringify(json));
}

await main();
