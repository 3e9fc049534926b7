// `npm run bench:transitions [-- --quick]`: a crowd kept mid-transition (robot Walking ⇄ Running, 0.3 s,
// every character turning around one frame after its transition ends) under each blend mode, timed in one
// process with interleaved rounds, on the JS path and on the WebAssembly kernel. A crossfade evaluates both
// clips per character; an inertialization evaluates the target only, plus a per-joint offset; a dead blend
// the target plus an extrapolation and a blend. Prints per-frame medians and the ratio to the crossfade
// measured in the same run (docs/transitions.md, "Cost").
import { createCrowd, evaluateCrowd, loadCrowdKernelSync, type Crowd, type CrowdKernel } from "../src/crowd/index.ts";
import { compileGraph } from "../src/graph/compile-graph.ts";
import type { CompiledGraph } from "../src/graph/compiled-graph.ts";
import { setParam } from "../src/graph/commands.ts";
import { step } from "../src/graph/step.ts";
import { loadGltfFile } from "../src/io/gltf/load-gltf-file.ts";
import { parseJsonText } from "../src/json/index.ts";
import { parseGraphSpec } from "../src/spec/parse-graph-spec.ts";
import { availableParallelism, loadavg } from "node:os";
import { median, timeFramesCpu } from "./measure.ts";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 5 : 9;
const FRAMES = quick ? 20 : 40;
const N = quick ? 300 : 1000;
const DT = 1 / 60;
const MODES = ["crossfade", "inertialize", "deadBlend"] as const;

const gltf = await loadGltfFile(new URL("../examples/robot/RobotExpressive.glb", import.meta.url).pathname);
const skeleton = gltf.skeletons[0]!;

/** Frames between a character's turns: its 0.3 s transition (18 frames) ends one frame before the next. */
const PERIOD = 19;

function graphFor(blend: string): CompiledGraph {
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
}

/** Turns the characters whose turn it is at frame k (character i at frames ≡ −7i mod PERIOD). */
function turn(crowd: Crowd, k: number): void {
  for (let i = 0; i < N; i++) {
    if ((k + 7 * i) % PERIOD !== 0) continue;
    const inst = crowd.instances[i]!;
    setParam(inst, "speed", inst.params[0]! > 1 ? 0 : 3);
  }
}

/** N characters out of phase in their clips and in their turns, stepped until every one has turned. */
function turning(graph: CompiledGraph, kernel: CrowdKernel | null): { crowd: Crowd; frame: () => void; midTransition: () => number } {
  const crowd = createCrowd(graph, N, kernel ? { kernel } : {});
  for (let i = 0; i < N; i++) step(graph, crowd.instances[i]!, ((i * 7919) % 1000) / 500);
  let k = 0;
  const frame = (): void => {
    turn(crowd, k++);
    evaluateCrowd(crowd, DT);
  };
  for (let f = 0; f < 2 * PERIOD; f++) frame();
  /** Fraction of the crowd mid-transition now. */
  const midTransition = (): number => crowd.instances.filter((inst) => inst.layers[0]!.depth > 0).length / N;
  return { crowd, frame, midTransition };
}

const kernel = loadCrowdKernelSync();
const rows: string[] = [];
const result: Record<string, Record<string, { cpu: number; wall: number; ratio: number; ratioMin: number; ratioMax: number }>> = {};
let busy = 1;
for (const [path, k] of [["JS", null], ["kernel", kernel]] as const) {
  const crowds = MODES.map((m) => turning(graphFor(m), k));
  for (const c of crowds) for (let w = 0; w < 5; w++) c.frame();
  // Per round: wall and CPU time (process.cpuUsage: on a shared machine the wall clock also counts other
  // jobs' slices); ratios are per round against the crossfade of the same round, then the median.
  const cpu: number[][] = MODES.map(() => []);
  const wall: number[][] = MODES.map(() => []);
  const ratios: number[][] = MODES.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    // Interleaved, so machine load affects every mode alike.
    const round = crowds.map((c) => timeFramesCpu(c.frame, FRAMES));
    round.forEach((t, m) => {
      cpu[m]!.push(t.cpu);
      wall[m]!.push(t.wall);
      ratios[m]!.push(t.cpu / round[0]!.cpu);
    });
    for (const c of crowds) busy = Math.min(busy, c.midTransition());
  }
  const med = cpu.map(median);
  result[path] = Object.fromEntries(MODES.map((m, i) => [m, { cpu: med[i]!, wall: median(wall[i]!), ratio: median(ratios[i]!), ratioMin: Math.min(...ratios[i]!), ratioMax: Math.max(...ratios[i]!) }]));
  const range = (xs: number[]): string => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
  MODES.forEach((m, i) => rows.push(`| ${path} | ${m} | ${med[i]!.toFixed(2)} | ${median(wall[i]!).toFixed(2)} | ${median(ratios[i]!).toFixed(2)}× | ${range(ratios[i]!)} |`));
}
console.log(`Crowd of ${N} robots turning Walking ⇄ Running every ${PERIOD} frames (0.3 s transitions; at least ${(100 * busy).toFixed(0)} % mid-transition at every round's end), CPU and wall ms per frame, medians of ${ROUNDS} rounds of ${FRAMES} frames:\n`);
console.log(`Load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(", ")} (${availableParallelism()} cores).\n`);
console.log("| path | blend | CPU ms / frame | wall ms / frame | CPU vs crossfade (median of rounds) | range over rounds |\n| --- | --- | ---: | ---: | ---: | ---: |");
console.log(rows.join("\n"));
console.log(`\n${JSON.stringify({ transitionBlends: { characters: N, midTransition: busy, ...result } })}`);
