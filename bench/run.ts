// `npm run bench [-- --quick] [-- --json] [-- --no-compress]`: animgraph's crowd evaluation against
// three.js's AnimationMixer in one process, worker scaling, crowd-size scaling, compression at 30 fps,
// every figure next to issue 20's target (docs/performance.md describes the method). Prints markdown
// tables, then one JSON line; with --json only the JSON line goes to stdout (tables to stderr), for CI
// history (`npm run -s bench -- --quick --json >> bench-history.jsonl`).
import { availableParallelism, cpus, loadavg } from "node:os";
import { step } from "../src/graph/step.ts";
import { createCrowd, evaluateCrowd, loadCrowdKernelSync, type Crowd, type CrowdKernel } from "../src/crowd/index.ts";
import type { CompiledGraph } from "../src/graph/compiled-graph.ts";
import { compressClip } from "../src/compress/compress-clip.ts";
import { compressionFigures as compression30, compressionJson, compressionTable, compressionTargetRows, type CompressionFigures } from "./compress-figures.ts";
import { loadBvh } from "../src/io/bvh/load-bvh.ts";
import { sharedAsset } from "../test/helpers/assets.ts";
import { allocatedBytesPerFrame, createMemcpyProbe, median, retainedBytes, timeFrames, timeFramesCpu } from "./measure.ts";
import { createThreeCrowd, stepThreeCrowd } from "./three-crowd.ts";
import { workerFigures, workerJson, workerTable, workerTargetRows } from "./workers.ts";
import { benchGraph, offsets, robotWorkload, synthWorkload, type Workload } from "./workloads.ts";

const quick = process.argv.includes("--quick");
const jsonOnly = process.argv.includes("--json");
/** Tables: stdout, or stderr with --json (stdout then carries the JSON line alone). */
const print = (text: string): void => void (jsonOnly ? process.stderr : process.stdout).write(`${text}\n`);
const ROUNDS = quick ? 7 : 11;
const DT = 1 / 60;
/** Clips blended per character: walk, run, the additive layer. */
const L = 3;
/** Bytes a joint-clip must move at least: two keys read (2 × 40 B) and a third of a 64 B matrix written. */
const BYTES_PER_JOINT_CLIP = 100;
/**
 * Runtime options of the benchmark graph: a 16-event queue per character (the default 256 preallocated
 * event objects are ~20 KiB per character; a two-state crowd graph emits a handful per step) and a
 * 4-deep crossfade stack (default 8). Everything else at its default (exact slerp).
 */
const CROWD_OPTIONS = { eventCapacity: 16, maxStackDepth: 4 } as const;


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
  /**
   * `speedup` is the median of the per-round ratios three.js / animgraph (each round times both back to
   * back, so load that comes and goes cancels better than in a ratio of medians); lowest and highest.
   */
  speedupLow: number;
  speedupHigh: number;
  /**
   * The same per-round ratio of CPU times (process.cpuUsage): on a shared machine wall-clock rounds
   * also count other jobs' time slices, CPU time only the work; median, lowest and highest round.
   */
  speedupCpu: number;
  speedupCpuLow: number;
  speedupCpuHigh: number;
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
  const tc: number[] = [];
  const ac: number[] = [];
  const timeThree = (): void => { const m = timeFramesCpu(threeFrame, frames); t.push(m.wall); tc.push(m.cpu); };
  const timeAg = (): void => { const m = timeFramesCpu(agFrame, frames); a.push(m.wall); ac.push(m.cpu); };
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which library goes first, so drift (thermal, other processes) cancels.
    if (r % 2 === 0) {
      timeThree();
      timeAg();
    } else {
      timeAg();
      timeThree();
    }
  }
  const threeMs = median(t);
  const agMs = median(a);
  const ratios = t.map((x, r) => x / a[r]!);
  const cpuRatios = tc.map((x, r) => x / ac[r]!);
  const per = (ms: number): number => (ms * 1e6) / (n * w.jointCount * L);
  const allocFrames = Math.max(2, Math.min(quick ? 3 : 20, frames));
  // "Steady state": V8 optimises rarely run code only after many calls, and until then its interpreter
  // boxes doubles. Warm animgraph for ~1 s of frames (at least 300 frames) before measuring allocation.
  const warmUntil = performance.now() + 1000;
  for (let k = 0; k < 300 || performance.now() < warmUntil; k++) agFrame();
  const row: Row = {
    workload: w.name, joints: w.jointCount, n, threeMs, agMs, threeNs: per(threeMs), agNs: per(agMs), speedup: median(ratios),
    speedupLow: Math.min(...ratios), speedupHigh: Math.max(...ratios),
    speedupCpu: median(cpuRatios), speedupCpuLow: Math.min(...cpuRatios), speedupCpuHigh: Math.max(...cpuRatios),
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

/** Median, lowest and highest of per-round values. */
interface Spread { readonly median: number; readonly low: number; readonly high: number }
const spread = (xs: readonly number[]): Spread => ({ median: median(xs), low: Math.min(...xs), high: Math.max(...xs) });
const range = (s: Spread, f: (x: number) => string): string => `${f(s.median)} (${f(s.low)}–${f(s.high)})`;

/**
 * Times `fns` in `rounds` alternating rounds (forward, then reversed order), `frames` calls each per
 * round; returns each one's per-round wall-clock ms per call (and, in `cpuTimes`, CPU ms per call).
 */
function alternate(fns: readonly (() => void)[], frames: number, rounds: number, cpuTimes?: number[][]): number[][] {
  for (const f of fns) timeFrames(f, 2);
  const times = fns.map(() => [] as number[]);
  if (cpuTimes) for (let k = 0; k < fns.length; k++) cpuTimes[k] = [];
  for (let r = 0; r < rounds; r++) {
    const order = fns.map((_, k) => (r % 2 === 0 ? k : fns.length - 1 - k));
    for (const k of order) {
      const m = timeFramesCpu(fns[k]!, frames);
      times[k]!.push(m.wall);
      cpuTimes?.[k]!.push(m.cpu);
    }
  }
  return times;
}

/** Per-round ratios a[r] / b[r]. */
const ratiosOf = (a: readonly number[], b: readonly number[]): number[] => a.map((x, r) => x / b[r]!);

interface Scaling { n: number; agMs: Spread; threeMs: Spread | null }

/**
 * Time per frame against crowd size, RobotExpressive on the kernel (model-space output), N = 1 … 10,000,
 * with three.js beside it up to 1,000 (10,000 three.js robots would hold ≈ 2 GB).
 */
async function scaling(robot: Workload): Promise<Scaling[]> {
  const graph = benchGraph(robot, CROWD_OPTIONS);
  const out: Scaling[] = [];
  for (const n of [1, 10, 100, 1000, 10000]) {
    const offs = offsets(n, 777 + n);
    const crowd = staggered(graph, n, offs, true);
    const fns: (() => void)[] = [() => evaluateCrowd(crowd, DT)];
    const three = n <= 1000 ? createThreeCrowd(robot, n, offs) : null;
    if (three) fns.push(() => stepThreeCrowd(three, DT));
    // About 50 ms (quick) or 150 ms of animgraph work per round.
    const frames = Math.max(3, Math.round((quick ? 50 : 150) / (0.003 * n + 0.002)));
    const t = alternate(fns, frames, ROUNDS);
    out.push({ n, agMs: spread(t[0]!), threeMs: three ? spread(t[1]!) : null });
  }
  return out;
}

async function main(): Promise<void> {
  const started = Date.now();
  const cores = availableParallelism();
  // The machine's load when the run starts and ends (1-minute average): on a shared machine it says
  // how far wall-clock figures can be trusted, and is printed beside them.
  const loadStart = loadavg()[0]!;
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
  out.push(`animgraph bench${quick ? " (--quick)" : ""}: node ${process.version}, ${cores} cores (${cpus()[0]?.model ?? "?"}), ${ROUNDS} alternating rounds, medians (lowest–highest round); load average ${loadStart.toFixed(1)} at the start`);
  out.push("");
  out.push("| workload | J | N | three.js ms/frame | animgraph ms/frame | three.js ns/joint-clip | animgraph ns/joint-clip | speed-up (rounds' range) | speed-up in CPU time (rounds' range) | three.js KiB/char | animgraph KiB/char | animgraph KiB/char with local poses | three.js B alloc/frame | animgraph B alloc/frame |");
  out.push("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    out.push(`| ${r.workload} | ${r.joints} | ${r.n} | ${f2(r.threeMs)} | ${f2(r.agMs)} | ${f1(r.threeNs)} | ${f1(r.agNs)} | ${f1(r.speedup)}× (${f1(r.speedupLow)}–${f1(r.speedupHigh)}) | ${f1(r.speedupCpu)}× (${f1(r.speedupCpuLow)}–${f1(r.speedupCpuHigh)}) | ${kb(r.threeBytesPerChar)} | ${kb(r.agBytesPerChar)} | ${kb(r.agBytesPerCharLocal)} | ${Math.round(r.threeAllocPerFrame)} | ${Math.round(r.agAllocPerFrame)} |`);
  }
  const head = rows.find((r) => r.workload === synth.name && r.n === 1000)!;
  const robotRow = rows.find((r) => r.workload === robot.name && r.n === 1000)!;
  const compression = process.argv.includes("--no-compress")
    ? { ratio: null, maxErrorMm: null, note: "skipped (--no-compress)" }
    : compressionFigures();

  // Variants on the headline workload (synthetic-64, N = 1,000) and the memcpy probe, alternating rounds.
  const N = 1000;
  const { graph, crowd: stag, three: threeCrowd, offsets: offs } = headline!;
  const jsPath = staggered(graph, N, offs, true, null);
  const inPhase = staggered(graph, N, null, true, null);
  const quantised = createCrowd(graph, N, { timeQuantum: 1 / 60 });
  evaluateCrowd(quantised, 0);
  for (let i = 0; i < N; i++) step(graph, quantised.instances[i]!, offs[i]!);
  const recipe = { module: new URL("./graph-factory.ts", import.meta.url).href, exportName: "synthBenchGraph" };
  const probe = createMemcpyProbe();
  const bandwidth: number[] = [];
  const variants: [string, () => void][] = [
    ["three.js AnimationMixer (same rounds)", () => stepThreeCrowd(threeCrowd, DT)],
    ["WebAssembly SIMD kernel, in-thread, out of phase (headline)", () => evaluateCrowd(stag, DT)],
    ["JS path, in-thread, out of phase", () => evaluateCrowd(jsPath, DT)],
    ["JS path, in phase (shared sampling hits)", () => evaluateCrowd(inPhase, DT)],
    ["JS path, out of phase, quantised sharing q = 1/60 s", () => evaluateCrowd(quantised, DT)],
    ["memcpy probe, 64 MiB (not a crowd)", () => void bandwidth.push(probe.copy())],
  ];
  const frames = quick ? 2 : framesFor(N, synth.jointCount);
  const vTimes = alternate(variants.map((v) => v[1]), frames, ROUNDS);
  const vMs = vTimes.map(median);
  /** Median per-round ratio of variant 0 (three.js) over variant v. */
  const vsThree = (v: number): number => median(ratiosOf(vTimes[0]!, vTimes[v]!));
  const bytesPerNs = spread(bandwidth);
  const limitNs = BYTES_PER_JOINT_CLIP / bytesPerNs.median;
  out.push("");
  out.push(`synthetic-64, N = ${N}: variants, timed in the same alternating rounds as three.js`);
  out.push("");
  out.push("| variant | ms/frame | ns/joint-clip | vs three.js |");
  out.push("|---|---|---|---|");
  variants.forEach(([name], v) => {
    const ms = vMs[v]!;
    if (v === variants.length - 1) out.push(`| ${name} | ${f2(ms)} | ${f1(limitNs)} (the limit: ${BYTES_PER_JOINT_CLIP} B at ${f1(bytesPerNs.median)} GB/s) | |`);
    else out.push(`| ${name} | ${f2(ms)} | ${f1((ms * 1e6) / (N * synth.jointCount * L))} | ${f1(vsThree(v))}× |`);
  });
  const kernelNs = spread(vTimes[1]!.map((ms) => (ms * 1e6) / (N * synth.jointCount * L)));
  const bandwidthRatio = spread(vTimes[1]!.map((ms, r) => (ms * 1e6) / (N * synth.jointCount * L) / (BYTES_PER_JOINT_CLIP / bandwidth[r]!)));
  out.push("");
  out.push(`kernel vs JS path: ${f2(median(ratiosOf(vTimes[2]!, vTimes[1]!)))}×; memory bandwidth (memcpy probe, read + write): ${range(bytesPerNs, f1)} GB/s; kernel ${range(kernelNs, f1)} ns per joint-clip = ${range(bandwidthRatio, f1)} × the bandwidth limit (per-round ratio)`);

  // Workers: synthetic-64, N = 5,000, kernel in each worker, against one worker and the in-thread kernel.
  const NW = 5000;
  const wOffs = offsets(NW, 4242);
  const inThread = staggered(graph, NW, wOffs, true);
  const workers = await workerFigures(() => evaluateCrowd(inThread, DT), recipe, NW, wOffs, cores, quick, DT);
  const loadWorkers = workers.loadAverage;
  out.push("");
  out.push(...workerTable(workers));

  // Crowd size: 1 … 10,000 robots.
  const scale = await scaling(robot);
  out.push("");
  out.push("scaling: RobotExpressive, kernel crowd (model-space output), one thread; three.js beside it up to 1,000");
  out.push("");
  out.push("| N | animgraph ms/frame | animgraph µs/character | three.js ms/frame | three.js µs/character |");
  out.push("|---|---|---|---|---|");
  for (const s of scale) {
    out.push(`| ${s.n} | ${range(s.agMs, (x) => x.toPrecision(3))} | ${f2((s.agMs.median * 1000) / s.n)} | ${s.threeMs ? s.threeMs.median.toPrecision(3) : "—"} | ${s.threeMs ? f1((s.threeMs.median * 1000) / s.n) : "—"} |`);
  }
  const perChar = (n: number): number => { const s = scale.find((x) => x.n === n)!; return (s.agMs.median * 1000) / n; };
  const linearity = perChar(10000) / perChar(100);

  let c30: CompressionFigures | null = null;
  let c30Note = "skipped (--no-compress)";
  if (!process.argv.includes("--no-compress")) {
    try {
      c30 = await compression30(ROUNDS);
      c30Note = "the CMU takes (131_01, 131_03, pirouette) and RobotExpressive's 14 clips resampled to 30 fps; 0.1 mm on virtual vertices 1 m from each joint";
    } catch (e) {
      c30Note = `compression failed: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  if (c30) out.push(...compressionTable(c30, c30Note));

  // Every target of issue 20 next to its figure.
  const met = (ok: boolean | null): string => (ok === null ? "—" : ok ? "met" : "**not met**");
  out.push("");
  out.push("| target (issue 20) | goal | measured (median, rounds' range) | |");
  out.push("|---|---|---|---|");
  out.push(`| RobotExpressive crowd, N = 1,000, vs three.js (output equal within 1e-5 rad: test/crowd/robot-three-crowd.test.ts) | ≥ 30× | ${f1(robotRow.speedup)}× (${f1(robotRow.speedupLow)}–${f1(robotRow.speedupHigh)}); CPU time ${f1(robotRow.speedupCpu)}× (${f1(robotRow.speedupCpuLow)}–${f1(robotRow.speedupCpuHigh)}) | ${met(robotRow.speedup >= 30)} |`);
  out.push(`| synthetic-64 crowd, N = 1,000, vs three.js | ≥ 40× | ${f1(head.speedup)}× (${f1(head.speedupLow)}–${f1(head.speedupHigh)}); CPU time ${f1(head.speedupCpu)}× (${f1(head.speedupCpuLow)}–${f1(head.speedupCpuHigh)}) | ${met(head.speedup >= 40)} |`);
  out.push(`| synthetic-64 kernel vs the memcpy probe's bandwidth limit | ≤ 4× | ${range(bandwidthRatio, f1)}× | ${met(bandwidthRatio.median <= 4)} |`);
  out.push(...workerTargetRows(workers, met));
  if (c30) out.push(...compressionTargetRows(c30, met));
  out.push(`| allocation per frame, steady state (kernel crowd) | 0 B | ${Math.round(head.agAllocPerFrame)} B (robot ${Math.round(robotRow.agAllocPerFrame)} B) | ${met(head.agAllocPerFrame === 0 && robotRow.agAllocPerFrame === 0)} |`);
  out.push(`| memory per character (robot, N = 1,000) | printed | ${kb(robotRow.agBytesPerChar)} KiB (${kb(robotRow.agBytesPerCharLocal)} KiB with local poses; three.js ${kb(robotRow.threeBytesPerChar)} KiB) | |`);
  out.push(`| scaling 1 … 10,000 characters | linear | µs/character at 10,000 ÷ at 100 = ${f2(linearity)} | ${met(linearity <= 1.5)} |`);
  out.push("");
  out.push(`load average (1 min): ${loadStart.toFixed(1)} at the start, ${loadWorkers.toFixed(1)} after the workers, ${loadavg()[0]!.toFixed(1)} at the end; ${cores} cores`);
  out.push(`compression at the clips' own rate (today's figure): ${compression.ratio === null ? "n/a" : `${f2(compression.ratio)}:1, max error ${compression.maxErrorMm!.toFixed(4)} mm`} (${compression.note})`);
  print(out.join("\n"));
  const round2 = (x: number): number => Number(x.toFixed(2));
  const json = {
    speedupVsThree: round2(head.speedup),
    nsPerJointClip: round2(head.agNs),
    threeNsPerJointClip: round2(head.threeNs),
    bandwidthRatio: round2(bandwidthRatio.median),
    bytesPerCharacter: Math.round(robotRow.agBytesPerChar),
    bytesPerCharacterWithLocalPoses: Math.round(robotRow.agBytesPerCharLocal),
    allocBytesPerFrame: Math.round(head.agAllocPerFrame),
    threeAllocBytesPerFrame: Math.round(head.threeAllocPerFrame),
    speedupJsPath: round2(vsThree(2)),
    kernelVsJsPath: round2(median(ratiosOf(vTimes[2]!, vTimes[1]!))),
    twoWorkerSpeedup: round2(workers.twoVsOne.median),
    speedupInPhaseShared: round2(vsThree(3)),
    speedupQuantised: round2(vsThree(4)),
    // three.js per character (N = 1,000, variant rounds) over two workers per character (N = 5,000).
    speedupTwoWorkers: round2((median(vTimes[0]!) / N) / (workers.rows[2]!.ms.median / NW)),
    compressionRatio: compression.ratio === null ? null : round2(compression.ratio),
    maxErrorMm: compression.maxErrorMm === null ? null : Number(compression.maxErrorMm.toFixed(4)),
    compressionNote: compression.note,
    robotSpeedupVsThree: round2(robotRow.speedup),
    robotSpeedupRange: [round2(robotRow.speedupLow), round2(robotRow.speedupHigh)],
    robotSpeedupVsThreeCpu: round2(robotRow.speedupCpu),
    speedupVsThreeCpu: round2(head.speedupCpu),
    loadAverage: [round2(loadStart), round2(loadavg()[0]!)],
    speedupRange: [round2(head.speedupLow), round2(head.speedupHigh)],
    ...workerJson(workers),
    cores,
    memcpyGBps: round2(bytesPerNs.median),
    ...compressionJson(c30),
    compression30fpsNote: c30Note,
    scaling: scale.map((s) => ({ n: s.n, msPerFrame: Number(s.agMs.median.toPrecision(4)), usPerCharacter: Number(((s.agMs.median * 1000) / s.n).toPrecision(4)), threeMsPerFrame: s.threeMs ? Number(s.threeMs.median.toPrecision(4)) : null })),
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
  console.log(JSON.stringify(json));
}

await main();
