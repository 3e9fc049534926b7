// The fox example graph (examples/fox) for the crowd tests: a synchronised Walk/Run blend with root motion.
import { compileGraph } from "../../src/graph/compile-graph.ts";
import type { CompiledGraph, RuntimeOptions } from "../../src/graph/compiled-graph.ts";
import { loadGltf } from "../../src/io/gltf/index.ts";
import { readGraphSpec } from "../../src/spec/parse-graph-spec.ts";
import { repoPath } from "../helpers/assets.ts";

/** examples/fox/fox.animgraph.json compiled against the Khronos Fox (root motion "auto"). */
export async function foxGraph(options: RuntimeOptions = {}): Promise<CompiledGraph> {
  const spec = readGraphSpec(repoPath("examples/fox/fox.animgraph.json")).spec;
  if (!spec) throw new Error("fox spec did not parse");
  const gltf = await loadGltf(repoPath("examples/fox/Fox.glb"));
  const compiled = compileGraph(spec, gltf.skeletons[0]!, gltf.clips, { rootMotion: "auto", ...options });
  if (!compiled.graph) throw new Error(JSON.stringify(compiled.diagnostics));
  return compiled.graph;
}
