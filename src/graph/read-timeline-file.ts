// Node only (animgraph/node): reading a timeline by path.
import { readJsonFile } from "../json/read-json-file.ts";
import type { CompiledGraph } from "./compiled-graph.ts";
import { parseTimeline, type ParseTimelineResult } from "./timeline.ts";

/** Reads and validates a timeline file (see parseTimeline). `label` names it in diagnostics. */
export function readTimeline(path: string, graph: CompiledGraph, label: string = path): ParseTimelineResult {
  return parseTimeline(readJsonFile(path, {}, label), graph);
}
