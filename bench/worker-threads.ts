// `npm run bench:workers [-- --prefix]`: where a worker frame's wall-clock time goes, thread by thread
// (Linux schedstat: time on a core, time runnable without one, and the rest asleep at the barrier).
// The bench's worker rows at N = 5,000 (in-thread kernel, 1 and 2 workers, alternating rounds); with
// --prefix it first does what the full bench has done by then (compress the two CMU takes, keep a
// 1,000-character three.js crowd), to tell whether that changes the workers. Env: N, ROUNDS, FRAMES.
// docs/performance.md ("Workers: why a full run read 1.33×") shows what it found.
import { readdirSync, readFileSync } from "node:fs";
import { compressClip } from "../src/compress/compress-clip.ts";
import { createCrowdWorkers } from "../src/crowd/crowd-workers.ts";
import { createCrowd, evaluateCrowd, loadCrowdKernelSync } from "../src/crowd/index.ts";
import { step } from "../src/graph/step.ts";
import { loadBvh } from "../src/io/bvh/load-bvh.ts";
import { sharedAsset } from "../test/helpers/assets.ts";
import { median } from "./measure.ts";
import { createThreeCrowd, stepThreeCrowd } from "./three-crowd.ts";
import { synthBenchGraph } from "./graph-factory.ts";
import { offsets, synthWorkload } from "./workloads.ts";

const N = Number(process.env.N ?? 5000);
const ROUNDS = Number(process.env.ROUNDS ?? 11);
const FRAMES = Number(process.env.FRAMES ?? 10);
const DT = 1 / 60;

const tids = (): number[] => readdirSync("/proc/self/task").map(Number);
/** [ms on a core, ms runnable without one] since the thread started. */
function sched(tid: number): [number, number] {
  try {
    const [run, wait] = readFileSync(`/proc/self/task/${tid}/schedstat`, "latin1").split(" ").map(Number);
    return [run! / 1e6, wait! / 1e6];
  } catch {
    return [0, 0];
  }
}

let kept: unknown = null;
if (process.argv.includes("--prefix")) {
  const t0 = performance.now();
  for (const file of ["bvh-cmu-131/131_01.bvh", "bvh-cmu-131/131_03.bvh"]) {
    const { clip } = loadBvh(sharedAsset(file));
    if (!clip) throw new Error(`${file} did not load`);
    compressClip(clip, { tolerance: 1e-4, unitsPerMetre: 1 / (2.54 / 0.45 / 100) });
  }
  const three = createThreeCrowd(synthWorkload(), 1000, offsets(1000, 1));
  for (let i = 0; i < 30; i++) stepThreeCrowd(three, DT);
  kept = three;
  console.log(`prefix: ${((performance.now() - t0) / 1000).toFixed(1)} s, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`);
}
const graph = synthBenchGraph();
const starts = offsets(N, 4242);
const inThread = createCrowd(graph, N, { kernel: loadCrowdKernelSync(), localPoses: false });
for (let i = 0; i < N; i++) step(graph, inThread.instances[i]!, starts[i]!);
evaluateCrowd(inThread, 0);
const recipe = { module: new URL("./graph-factory.ts", import.meta.url).href, exportName: "synthBenchGraph" };
interface Pool { readonly name: string; readonly evaluate: () => void; readonly threads: number[]; readonly terminate?: () => Promise<void> }
const pools: Pool[] = [{ name: "in-thread", evaluate: () => evaluateCrowd(inThread, DT), threads: [] }];
for (const count of [1, 2]) {
  const before = new Set(tids());
  const w = await createCrowdWorkers(recipe, N, { workers: count, startTimes: starts, kernel: true, localPoses: false });
  pools.push({ name: `${count} worker${count > 1 ? "s" : ""}`, evaluate: () => w.evaluate(DT), threads: tids().filter((t) => !before.has(t)), terminate: () => w.terminate() });
}

interface Round { wall: number; main: [number, number]; threads: [number, number][]; others: number }
const rounds = new Map<Pool, Round[]>(pools.map((p) => [p, []]));
const snapshot = (): Map<number, [number, number]> => new Map(tids().map((t) => [t, sched(t)]));
for (const p of pools) for (let i = 0; i < 3 * FRAMES; i++) p.evaluate();
for (let r = 0; r < ROUNDS; r++) {
  for (const p of r % 2 === 0 ? pools : [...pools].reverse()) {
    const s0 = snapshot();
    const t0 = performance.now();
    for (let f = 0; f < FRAMES; f++) p.evaluate();
    const wall = (performance.now() - t0) / FRAMES;
    const s1 = snapshot();
    const delta = (t: number): [number, number] => {
      const a = s0.get(t) ?? [0, 0], b = s1.get(t) ?? [0, 0];
      return [(b[0] - a[0]) / FRAMES, (b[1] - a[1]) / FRAMES];
    };
    let others = 0;
    for (const t of s1.keys()) if (t !== process.pid && !p.threads.includes(t)) others += delta(t)[0];
    rounds.get(p)!.push({ wall, main: delta(process.pid), threads: p.threads.map(delta), others });
  }
}
const f2 = (x: number): string => x.toFixed(2);
console.log(`N = ${N}, ${ROUNDS} alternating rounds of ${FRAMES} frames; medians in ms per frame`);
console.log("| threads | wall | caller on a core | caller waiting | worker: on a core / waiting for a core / asleep | other threads of the process on a core |");
console.log("|---|---|---|---|---|---|");
for (const p of pools) {
  const rs = rounds.get(p)!;
  const med = (g: (r: Round) => number): string => f2(median(rs.map(g)));
  // A worker is two OS threads (its event loop and its isolate's); the busy one is the one that ran.
  const busy = p.threads.map((_, k) => k).filter((k) => median(rs.map((r) => r.threads[k]![0])) > 0.05);
  const workers = busy.map((k) => `${med((r) => r.threads[k]![0])} / ${med((r) => r.threads[k]![1])} / ${med((r) => r.wall - r.threads[k]![0] - r.threads[k]![1])}`).join("; ");
  console.log(`| ${p.name} | ${med((r) => r.wall)} | ${med((r) => r.main[0])} | ${med((r) => r.main[1])} | ${workers || "—"} | ${med((r) => r.others)} |`);
}
const one = rounds.get(pools[1]!)!, two = rounds.get(pools[2]!)!;
const ratios = one.map((r, k) => r.wall / two[k]!.wall);
console.log(`two workers vs one, per round: ${ratios.map(f2).join(" ")}; median ${f2(median(ratios))}`);
for (const p of pools) await p.terminate?.();
void kept;
