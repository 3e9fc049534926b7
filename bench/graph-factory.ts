// Graph recipes for crowd workers (src/crowd/crowd-workers.ts): each worker thread rebuilds the graph.
import type { CompiledGraph } from "../src/graph/compiled-graph.ts";
import { benchGraph, synthWorkload } from "./workloads.ts";

/** The benchmark graph on the synthetic 64-joint rig. */
export function synthBenchGraph(): CompiledGraph {
  return benchGraph(synthWorkload(), { eventCapacity: 16, maxStackDepth: 4 });
}
