// `npm run bench:transitions [-- --quick]`: robot crowds turning Walking ⇄ Running with a 0.3 s transition
// under each blend mode, on the JS path and on the WebAssembly kernel, timed by process CPU time with the
// three modes interleaved round by round; every ratio is to the crossfade of the same round.
// - In phase: the whole crowd turns at once, every 19 frames (the transition's 18 frames and a settled
//   one). Each frame is timed alone, so the 16 frames the crowd spends mid-transition after a transition's
//   first two are measured apart from those two — the capture (the last output and its velocity, the
//   offset) and the frame that finds the offset's velocity — which are reported as the extra µs per
//   transition against the crossfade's own two.
// - Out of phase: every character turns one frame after its last transition ended, characters out of phase
//   (about 53 of 1,000 start a transition in every frame, ~89 % are mid-transition): a mixed workload, the
//   whole cost per frame of a crowd turning 3.2 times a second.
// Each path runs in processes of its own (REPEATS of them, JS and kernel alternating), as an application
// runs one: with the JS path's crowds in the same process the kernel's inertialization read 0.91× → 1.21×
// mid-transition (which code V8 optimised for what, and where the heap put each crowd's objects), and a
// process's figures differ from the next one's by more than its rounds do. Figures pool the rounds of
// every process of a path. A crossfade evaluates both clips per character; an inertialization the target
// only, plus a per-joint offset; a dead blend the target plus an extrapolation and a blend.
// docs/transitions.md, "Cost".
import { createCrowd, evaluateCrowd, loadCrowdKernelSync, type Crowd, type CrowdKernel } from "../src/crowd/index.ts";
import { compileGraph } from "../src/graph/compile-graph.ts";
import type { CompiledGraph } from "../src/graph/compiled-graph.ts";
import { setParam } from "../src/graph/commands.ts";
import { step } from "../src/graph/step.ts";
import { loadGltfFile } from "../src/io/gltf/load-gltf-file.ts";
import { parseJsonText } from "../src/json/index.ts";
import { parseGraphSpec } from "../src/spec/parse-graph-spec.ts";
import { execFileSync } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { median, timeFramesCpu } from "./measure.ts";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 5 : 9;
const FRAMES = quick ? 20 : 40;
const N = quick ? 300 : 1000;
const REPEATS = quick ? 1 : 3;
const DT = 1 / 60;
const MODES = ["crossfade", "inertialize", "deadBlend"] as const;
type Mode = (typeof MODES)[number];
/** Frames between a character's turns: its 0.3 s transition (18 frames) ends one frame before the next. */
const PERIOD = 19;
/** The mid-transition frames of an in-phase cycle: after the turn's frame and the one after it, before the settled frame. */
const MID_FROM = 2, MID_TO = PERIOD - 1;

/** What one process measures of one path: per mode, every round's figures. */
interface PathRounds {
  /** In phase, per round: mean CPU ms of the mid-transition frames, its ratio to the crossfade's, the two start frames' extra µs per character, the whole cycle's ratio. */
  mid: number[]; midRatio: number[]; startExtraUs: number[]; cycleRatio: number[];
  /** Out of phase, per round: CPU ms per frame and the ratio to the crossfade's. */
  mixed: number[]; mixedRatio: number[];
}

async function measurePath(path: string): Promise<Record<Mode, PathRounds>> {
  const gltf = await loadGltfFile(new URL("../examples/robot/RobotExpressive.glb", import.meta.url).pathname);
  const skeleton = gltf.skeletons[0]!;
  const kernel: CrowdKernel | null = path === "kernel" ? loadCrowdKernelSync() : null;
  const graphFor = (blend: string): CompiledGraph => {
    const json = {
      animgraph: 1, name: `bench-${blend}`, parameters: { speed: { type: "float", default: 0 } },
      layers: [{ name: "base", machine: {
        entry: "Walk", states: { Walk: { clip: "Walking" }, Run: { clip: "Running" } },
        transitions: [
          { from: "Walk", to: "Run", conditions: [{ param: "speed", op: ">", value: 1 }], duration: 0.3, blend },
          { from: "Run", to: "Walk", conditions: [{ param: "speed", op: "<", value: 1 }], duration: 0.3, blend },
        ],
      } }],
    };
    const spec = parseGraphSpec(parseJsonText(JSON.stringify(json), "bench.animgraph.json")).spec!;
    return compileGraph(spec, skeleton, gltf.clips, { eventCapacity: 16, maxStackDepth: 4 }).graph!;
  };
  /** N characters out of phase in their clips. */
  const crowdOf = (blend: string): Crowd => {
    const graph = graphFor(blend);
    const crowd = createCrowd(graph, N, kernel ? { kernel } : {});
    for (let i = 0; i < N; i++) step(graph, crowd.instances[i]!, ((i * 7919) % 1000) / 500);
    return crowd;
  };
  const turnAround = (crowd: Crowd, i: number): void => {
    const inst = crowd.instances[i]!;
    setParam(inst, "speed", inst.params[0]! > 1 ? 0 : 3);
  };
  const out = Object.fromEntries(MODES.map((m) => [m, { mid: [], midRatio: [], startExtraUs: [], cycleRatio: [], mixed: [], mixedRatio: [] }])) as unknown as Record<Mode, PathRounds>;

  // In phase: frame k of a cycle; every character turns at k = 0.
  const phased = MODES.map((m) => {
    const crowd = crowdOf(m);
    return (k: number): void => {
      if (k === 0) for (let i = 0; i < N; i++) turnAround(crowd, i);
      evaluateCrowd(crowd, DT);
    };
  });
  for (const frame of phased) for (let r = 0; r < 3; r++) for (let k = 0; k < PERIOD; k++) frame(k);
  for (let r = 0; r < ROUNDS; r++) {
    const round = phased.map((frame) => {
      const ms: number[] = [];
      for (let k = 0; k < PERIOD; k++) ms.push(timeFramesCpu(() => frame(k), 1).cpu);
      return ms;
    });
    const midMean = round.map((ms) => ms.slice(MID_FROM, MID_TO).reduce((a, b) => a + b, 0) / (MID_TO - MID_FROM));
    const startMs = round.map((ms) => ms[0]! + ms[1]!);
    const cycle = round.map((ms) => ms.reduce((a, b) => a + b, 0));
    MODES.forEach((m, i) => {
      const o = out[m];
      o.mid.push(midMean[i]!);
      o.midRatio.push(midMean[i]! / midMean[0]!);
      o.startExtraUs.push((1000 * (startMs[i]! - startMs[0]!)) / N);
      o.cycleRatio.push(cycle[i]! / cycle[0]!);
    });
  }

  // Out of phase: character i turns at frames ≡ −7i (mod PERIOD).
  const mixed = MODES.map((m) => {
    const crowd = crowdOf(m);
    let k = 0;
    const frame = (): void => {
      for (let i = 0; i < N; i++) if ((k + 7 * i) % PERIOD === 0) turnAround(crowd, i);
      k++;
      evaluateCrowd(crowd, DT);
    };
    for (let f = 0; f < 2 * PERIOD + 5; f++) frame();
    return frame;
  });
  for (let r = 0; r < ROUNDS; r++) {
    const round = mixed.map((frame) => timeFramesCpu(frame, FRAMES).cpu);
    MODES.forEach((m, i) => {
      out[m].mixed.push(round[i]!);
      out[m].mixedRatio.push(round[i]! / round[0]!);
    });
  }
  return out;
}

const child = process.argv.indexOf("--child");
if (child >= 0) {
  process.stdout.write(JSON.stringify(await measurePath(process.argv[child + 1]!)));
} else {
  const PATHS = ["JS", "kernel"] as const;
  const runs: Record<string, Record<Mode, PathRounds>[]> = { JS: [], kernel: [] };
  const self = fileURLToPath(import.meta.url);
  for (let rep = 0; rep < REPEATS; rep++) {
    for (const path of PATHS) {
      const text = execFileSync(process.execPath, ["--import", "tsx", self, "--child", path, ...(quick ? ["--quick"] : [])], { encoding: "utf8", maxBuffer: 1 << 24 });
      runs[path]!.push(JSON.parse(text) as Record<Mode, PathRounds>);
    }
  }
  const pooled = (path: string, m: Mode, key: keyof PathRounds): number[] => runs[path]!.flatMap((r) => r[m][key]);
  const perProcess = (path: string, m: Mode, key: keyof PathRounds): string => runs[path]!.map((r) => median(r[m][key]).toFixed(2)).join(", ");
  const range = (xs: number[]): string => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
  const result: Record<string, Record<string, Record<string, number>>> = {};
  const phasedRows: string[] = [], mixedRows: string[] = [];
  for (const path of PATHS) {
    result[path] = {};
    for (const m of MODES) {
      const midRatio = pooled(path, m, "midRatio"), mixedRatio = pooled(path, m, "mixedRatio");
      const f = {
        mid: median(pooled(path, m, "mid")), midRatio: median(midRatio), midRatioMin: Math.min(...midRatio), midRatioMax: Math.max(...midRatio),
        startExtraUs: median(pooled(path, m, "startExtraUs")), cycleRatio: median(pooled(path, m, "cycleRatio")),
        mixed: median(pooled(path, m, "mixed")), mixedRatio: median(mixedRatio), mixedRatioMin: Math.min(...mixedRatio), mixedRatioMax: Math.max(...mixedRatio),
      };
      result[path]![m] = f;
      phasedRows.push(`| ${path} | ${m} | ${f.mid.toFixed(2)} | ${f.midRatio.toFixed(2)}× | ${range(midRatio)} | ${perProcess(path, m, "midRatio")} | ${f.startExtraUs.toFixed(2)} | ${f.cycleRatio.toFixed(2)}× |`);
      mixedRows.push(`| ${path} | ${m} | ${f.mixed.toFixed(2)} | ${f.mixedRatio.toFixed(2)}× | ${range(mixedRatio)} | ${perProcess(path, m, "mixedRatio")} |`);
    }
  }
  console.log(`${N} robots turning Walking ⇄ Running (0.3 s transitions), CPU time; each path in ${REPEATS} processes of its own, ${ROUNDS} rounds each, the modes interleaved; ratios are medians of the per-round ratios to the crossfade, pooled over the processes (the range is over every round, then each process's median).\n`);
  console.log(`In phase (the whole crowd turns every ${PERIOD} frames; mid-transition = the ${MID_TO - MID_FROM} frames after a transition's first two, each frame timed alone):\n`);
  console.log("| path | blend | mid-transition CPU ms / frame | vs crossfade | range over rounds | per process | start: extra µs per transition vs crossfade | whole cycle vs crossfade |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  console.log(phasedRows.join("\n"));
  console.log(`\nOut of phase (every character turns one frame after its transition ends, ~53 of ${N} starting one each frame), ${FRAMES}-frame rounds:\n`);
  console.log("| path | blend | CPU ms / frame | vs crossfade | range over rounds | per process |\n| --- | --- | ---: | ---: | ---: | ---: |");
  console.log(mixedRows.join("\n"));
  console.log(`\nLoad average at the end: ${loadavg().map((l) => l.toFixed(1)).join(", ")} (${availableParallelism()} cores).`);
  console.log(`\n${JSON.stringify({ transitionBlends: { characters: N, processes: REPEATS, rounds: ROUNDS, ...result } })}`);
}
