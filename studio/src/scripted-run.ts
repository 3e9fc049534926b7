// The deterministic scripted run, computed in the browser with the same library calls the Node side
// uses (test/studio compares the two digests): parse → compile (deterministic) → timeline → digest.
import {
  compileGraph, digestRun, hasErrors, parseGraphSpec, parseJsonText, parseTimeline,
  type Clip, type Skeleton,
} from "animgraph";

export function runBundledScript(graphText: string, timelineText: string, skeleton: Skeleton, clips: readonly Clip[]): string {
  const spec = parseGraphSpec(parseJsonText(graphText, "robot.animgraph.json")).spec;
  if (!spec) throw new Error("the bundled graph does not parse");
  const compiled = compileGraph(spec, skeleton, clips, { deterministic: true });
  if (!compiled.graph || hasErrors(compiled.diagnostics)) throw new Error("the bundled graph does not compile");
  const timeline = parseTimeline(parseJsonText(timelineText, "walk-run-jump.timeline.json"), compiled.graph);
  if (!timeline.timeline) throw new Error("the bundled timeline does not parse");
  return digestRun(compiled.graph, timeline.timeline).digest;
}
