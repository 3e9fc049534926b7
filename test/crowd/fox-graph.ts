// The fox example graph (examples/fox) for the crowd tests: a synchronised Walk/Run blend with root motion.
import type { CompiledGraph, RuntimeOptions } from "../../src/graph/compiled-graph.ts";
import { exampleGraph } from "./example-graph.ts";

/** examples/fox/fox.animgraph.json compiled against the Khronos Fox (root motion "auto"). */
export function foxGraph(options: RuntimeOptions = {}): Promise<CompiledGraph> {
  return exampleGraph("fox/fox.animgraph.json", "fox/Fox.glb", options);
}
