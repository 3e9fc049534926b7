// The bundled example graphs compiled against their characters, for the crowd tests (also usable as
// worker recipes through robot-graph.ts and fox-graph.ts).
import { compileGraph } from "../../src/graph/compile-graph.ts";
import type { CompiledGraph, RuntimeOptions } from "../../src/graph/compiled-graph.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { readGraphSpec } from "../../src/spec/read-graph-spec-file.ts";
import { repoPath } from "../helpers/assets.ts";

/** examples/<specPath> compiled against examples/<glbPath> with root motion "auto" (unless overridden). */
export async function exampleGraph(specPath: string, glbPath: string, options: RuntimeOptions = {}): Promise<CompiledGraph> {
  const spec = readGraphSpec(repoPath(`examples/${specPath}`)).spec;
  if (!spec) throw new Error(`${specPath} did not parse`);
  const gltf = await loadGltfFile(repoPath(`examples/${glbPath}`));
  const compiled = compileGraph(spec, gltf.skeletons[0]!, gltf.clips, { rootMotion: "auto", ...options });
  if (!compiled.graph) throw new Error(JSON.stringify(compiled.diagnostics));
  return compiled.graph;
}
