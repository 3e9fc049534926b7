// The graph that plays: the document compiled for the character, its instance, its recording. A new
// compile takes over the last one's parameter values and clock, so an edit never restarts the run.
import {
  compileGraph, copyPose, createInstance, getParam, hasErrors, lintDocument, locateDiagnostics, parseJsonText, setParam,
  type CompiledGraph, type Crowd, type Diagnostic, type GraphInstance, type GraphSpec,
} from "animgraph";
import type { Character } from "./character.ts";
import { createRecording, type Recording } from "./recorder.ts";
import type { Analysis } from "./store.ts";

export interface Live {
  readonly spec: GraphSpec;
  readonly graph: CompiledGraph;
  readonly file: string;
  /** A graph the studio made for the character because the document does not fit it. */
  readonly isDefault: boolean;
  instance: GraphInstance;
  recording: Recording;
  crowd: Crowd | null;
}

/** The outcome of compiling: the graph when it compiled, and every finding (located: line and column). */
export interface Compiled {
  readonly spec: GraphSpec | undefined;
  readonly graph: CompiledGraph | undefined;
  readonly findings: readonly Diagnostic[];
}

/** Compiles an analysed document for the character (compile findings get the line and column the editor marks). */
export function compileAnalysis(analysis: Analysis, character: Character | undefined): Compiled {
  const findings: Diagnostic[] = [...analysis.diagnostics];
  let graph: CompiledGraph | undefined;
  if (analysis.spec && character && !hasErrors(findings)) {
    const result = compileGraph(analysis.spec, character.skeleton, character.clips, { rootMotion: "auto" });
    findings.push(...result.diagnostics);
    graph = result.graph;
  }
  return { spec: analysis.spec, graph, findings: locateDiagnostics(analysis.tree, findings) };
}

/** Lints and compiles a text that is not the document (the default graph of a character's clips). */
export function compileText(text: string, file: string, character: Character): Compiled {
  const tree = parseJsonText(text, file);
  const lint = lintDocument(tree, { clips: character.clips, joints: character.skeleton.names, jointParents: character.skeleton.parents });
  return compileAnalysis({ tree, spec: lint.spec, diagnostics: lint.diagnostics }, character);
}

/**
 * The new graph's run: a fresh instance that keeps the previous run's parameter values (by name, when the
 * type still fits) and simulation time, when both animate the same skeleton. Until its first step it shows
 * the pose the last run drew (or the rest pose), not a pose of zeros: an edit made while paused would
 * otherwise fold the character into its root, and a click on it would pick nothing sensible.
 */
export function startLive(previous: Live | undefined, spec: GraphSpec, graph: CompiledGraph, file: string, isDefault: boolean): Live {
  const instance = createInstance(graph);
  const carried = previous && previous.graph.skeleton === graph.skeleton ? previous : undefined;
  if (carried) {
    for (const p of graph.params) {
      if (p.type === "trigger" || !carried.graph.paramIndex.has(p.name)) continue;
      try { setParam(instance, p.name, getParam(carried.instance, p.name)); } catch { /* the type changed: keep the default */ }
    }
    instance.time = carried.instance.time;
  }
  copyPose(instance.result.pose, carried ? carried.instance.result.pose : graph.skeleton.rest);
  return { spec, graph, file, isDefault, instance, recording: createRecording(graph), crowd: null };
}
