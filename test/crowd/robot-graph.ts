// The robot example graph (examples/robot) for the crowd tests, also usable as a worker recipe.
import type { RuntimeOptions } from "../../src/graph/compiled-graph.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import type { CompiledGraph } from "../../src/graph/compiled-graph.ts";
import { loadGltf } from "../../src/io/gltf/index.ts";
import { readGraphSpec } from "../../src/spec/parse-graph-spec.ts";
import { repoPath } from "../helpers/assets.ts";

/** examples/robot/robot.animgraph.json compiled against RobotExpressive (root motion on). */
export async function robotGraph(options: RuntimeOptions = {}): Promise<CompiledGraph> {
  const spec = readGraphSpec(repoPath("examples/robot/robot.animgraph.json")).spec;
  if (!spec) throw new Error("robot spec did not parse");
  const gltf = await loadGltf(repoPath("examples/robot/RobotExpressive.glb"));
  const compiled = compileGraph(spec, gltf.skeletons[0]!, gltf.clips, { rootMotion: "auto", ...options });
  if (!compiled.graph) throw new Error(JSON.stringify(compiled.diagnostics));
  return compiled.graph;
}
