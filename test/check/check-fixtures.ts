// Builds small graphs for the checker's tests: a spec object → parsed, compiled with stand-in clips
// (1-second loops), checked.
import { checkGraph, type CheckOptions, type CheckReport } from "../../src/check/check-graph.ts";
import { parseProperties } from "../../src/check/properties.ts";
import { standInClips } from "../../src/demo/stand-in-clips.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import type { CompiledGraph } from "../../src/graph/compiled-graph.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { parseGraphSpec } from "../../src/spec/parse-graph-spec.ts";
import type { GraphSpec } from "../../src/spec/graph-spec.ts";

export interface Built {
  readonly spec: GraphSpec;
  readonly graph: CompiledGraph;
}

export function build(doc: object, file = "planted.animgraph.json"): Built {
  const parsed = parseGraphSpec(parseJsonText(JSON.stringify({ animgraph: 1, name: "planted", ...doc }), file));
  if (!parsed.spec) throw new Error(`spec did not parse: ${parsed.diagnostics.map((d) => `${d.pointer}: ${d.message}`).join("; ")}`);
  const { skeleton, clips } = standInClips(parsed.spec);
  const compiled = compileGraph(parsed.spec, skeleton, clips);
  if (!compiled.graph) throw new Error(`graph did not compile: ${compiled.diagnostics.map((d) => `${d.pointer}: ${d.message} [${d.code}]`).join("; ")}`);
  return { spec: parsed.spec, graph: compiled.graph };
}

export function check(doc: object, options: CheckOptions & { props?: string } = {}): CheckReport {
  const b = build(doc);
  const properties = options.props !== undefined ? parseProperties(options.props, "props.txt", b.graph) : undefined;
  if (properties && properties.diagnostics.length > 0) throw new Error(properties.diagnostics.map((d) => d.message).join("; "));
  return checkGraph(b.spec, b.graph, { clipLengthsKnown: true, ...options, ...(properties ? { properties: properties.properties, propertiesFile: "props.txt" } : {}) });
}

/** One machine in one layer. */
export function machine(entry: string, states: Record<string, object>, transitions: object[], parameters: Record<string, object> = {}): object {
  return { parameters, layers: [{ name: "base", machine: { entry, states, transitions } }] };
}

export const clip = (name: string, extra: object = {}): object => ({ clip: name, ...extra });
