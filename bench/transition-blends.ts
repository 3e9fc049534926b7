// `npm run bench:transitions [-- --quick]`: a crowd held mid-transition (robot Walking → Running, the
// transition longer than the run) under each blend mode, timed in one process with interleaved rounds.
// A crossfade evaluates both clips per character; an inertialization evaluates the target only, plus a
// per-joint offset; a dead blend the target plus an extrapolation and a blend. Prints per-frame medians
// and the ratio to the crossfade measured in the same run (docs/transitions.md, "Cost").
import { createCrowd, evaluateCrowd, loadCrowdKernelSync, type Crowd, type CrowdKernel } from "../src/crowd/index.ts";
import { compileGraph } from "../src/graph/compile-graph.ts";
import type { CompiledGraph } from "../src/graph/compiled-graph.ts";
import { setParam } from "../src/graph/commands.ts";
import { step } from "../src/graph/step.ts";
import { loadGltfFile } from "../src/io/gltf/load-gltf-file.ts";
import { parseJsonText } from "../src/json/index.ts";
import { parseGraphSpec } from "../src/spec/parse-graph-spec.ts";
import { median, timeFrames } from "./measure.ts";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 5 : 9;
const FRAMES = quick ? 20 : 40;
const N = quick ? 300 : 1000;
const DT = 1 / 60;
const MODES = ["crossfade", "inertialize", "deadBlend"] as const;

const gltf = await loadGltfFile(new URL("../examples/robot/RobotExpressive.glb", import.meta.url).pathname);
const skeleton = gltf.skeletons[0]!;

function graphFor(blend: string): CompiledGraph {
  const json = {
    animgraph: 1, name: `bench-${blend}`, parameters: { speed: { type: "float", default: 0 } },
    layers: [{ name: "base", machine: {
      entry: "Walk", states: { Walk: { clip: "Walking" }, Run: { clip: "Running" } },
      // 10 minutes: every character stays mid-transition for the whole measurement.
      transitions: [{ from: "Walk", to: "Run", conditions: [{ param: "speed", op: ">", value: 1 }], duration: 600, blend }],
    } }],
  };
  const spec = parseGraphSpec(parseJsonText(JSON.stringify(json), "bench.animgraph.json")).spec!;
  return compileGraph(spec, skeleton, gltf.clips, { eventCapacity: 16, maxStackDepth: 4 }).graph!;
}

/** N characters out of phase, each with its Walk → Run transition started 0.1–0.6 s ago. */
function midTransition(graph: CompiledGraph, kernel: CrowdKernel | null): Crowd {
  const crowd = createCrowd(graph, N, kernel ? { kernel } : {});
  for (let i = 0; i < N; i++) {
    const inst = crowd.instances[i]!;
    step(graph, inst, ((i * 7919) % 1000) / 500);
    setParam(inst, "speed", 3);
    step(graph, inst, DT);
    step(graph, inst, DT);
    step(graph, inst, 0.1 + ((i * 104729) % 1000) / 2000);
  }
  evaluateCrowd(crowd, DT);
  evaluateCrowd(crowd, DT);
  return crowd;
}

const kernel = loadCrowdKernelSync();
const rows: string[] = [];
const result: Record<string, Record<string, number>> = {};
for (const [path, k] of [["JS", null], ["kernel", kernel]] as const) {
  const crowds = MODES.map((m) => midTransition(graphFor(m), k));
  for (const c of crowds) for (let w = 0; w < 5; w++) evaluateCrowd(c, DT);
  const times: number[][] = MODES.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    // Interleaved, so machine load affects every mode alike.
    crowds.forEach((c, m) => times[m]!.push(timeFrames(() => evaluateCrowd(c, DT), FRAMES)));
  }
  const med = times.map(median);
  result[path] = Object.fromEntries(MODES.map((m, i) => [m, med[i]!]));
  MODES.forEach((m, i) => rows.push(`| ${path} | ${m} | ${med[i]!.toFixed(2)} | ${(med[i]! / med[0]!).toFixed(2)}× |`));
}
console.log(`Crowd of ${N} robots mid-transition (Walking → Running), ms per frame, median of ${ROUNDS} rounds of ${FRAMES} frames:\n`);
console.log("| path | blend | ms / frame | vs crossfade |\n| --- | --- | ---: | ---: |");
console.log(rows.join("\n"));
console.log(`\n${JSON.stringify({ transitionBlends: { characters: N, ...result } })}`);
