import { compareDiagnosticsUnchecked, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { argumentError, expectArray, expectNumberArray, expectOptionalObject, rangeError } from "../errors/check-argument.ts";
import { isJsonDocument } from "../json/document-from-value.ts";
import { resolveGraphSpec, type GraphSpecInput } from "../spec/resolve-graph-spec.ts";
import { locateDiagnosticsUnchecked } from "../spec/locate-pointer.ts";
import { checkBlends } from "./check-blends.ts";
import { checkFlow } from "./check-flow.ts";
import { checkIkHierarchy } from "./check-ik-hierarchy.ts";
import { checkMirror } from "./check-mirror.ts";
import { checkReferences } from "./check-references.ts";
import { checkSharedTriggers } from "./check-shared-triggers.ts";
import { checkTransitions, PAIR_BUDGET } from "./check-transitions.ts";
import type { LintClipInfo, LintOptions } from "./lint-options.ts";
import { LintSink } from "./lint-sink.ts";
import { graphMachines } from "./machine-model.ts";

/**
 * Lints a parsed graph spec: broken names, mistyped conditions, unreachable and dead-end states,
 * transitions that never fire or are shadowed or ambiguous, instant cycles, crossfades outside the
 * frame budget, degenerate blend spaces, unused parameters and masks, mirrored clips whose joints do
 * not pair (codes in docs/spec-format.md). Clip and joint names are checked only when `options` gives
 * them, IK chains and mirrored joints' parents only when it also gives `jointParents`. Returns the
 * findings sorted (by position when `options.document` is given). The spec may also
 * be JSON text, a parsed document or a plain object: it is parsed first, and its parse problems are
 * returned if it has any. Never throws on a spec; options of the wrong type throw AnimgraphError.
 */
export function lintGraph(input: GraphSpecInput, options: LintOptions = {}): Diagnostic[] {
  expectOptionalObject("lintGraph", "options", options);
  if (options.clips !== undefined) expectArray("lintGraph", "options.clips", options.clips);
  if (options.joints !== undefined) expectArray("lintGraph", "options.joints", options.joints);
  if (options.jointParents !== undefined) {
    if (options.joints === undefined) throw argumentError("lintGraph", "options.joints", "the joint names that options.jointParents indexes", options.joints);
    expectNumberArray("lintGraph", "options.jointParents", options.jointParents, options.joints.length);
    for (let j = 0; j < options.joints.length; j++) {
      const p = options.jointParents[j];
      if (!(Number.isInteger(p) && p! >= -1 && p! < j)) throw rangeError("lintGraph", `options.jointParents[${j}]`, `-1 or a parent index below ${j} (parents before children, as Skeleton.parents)`, p);
    }
  }
  if (options.jointRest !== undefined) {
    if (options.jointParents === undefined) throw argumentError("lintGraph", "options.jointParents", "the parents of the joints options.jointRest places", options.jointParents);
    expectNumberArray("lintGraph", "options.jointRest", options.jointRest, 3 * options.joints!.length);
  }
  const resolved = resolveGraphSpec("lintGraph", "spec", input);
  const spec = resolved.spec;
  if (!spec) return resolved.diagnostics;
  const document = options.document !== undefined && isJsonDocument(options.document) ? options.document : resolved.document;
  const sink = new LintSink(spec.file);
  const clips = options.clips ? new Map<string, LintClipInfo>(options.clips.map((c) => [c.name, c])) : undefined;
  const joints = options.joints ? new Set(options.joints) : undefined;
  checkReferences(spec, clips, joints, sink);
  checkBlends(spec, sink);
  checkSharedTriggers(spec, sink);
  checkMirror(spec, options.joints, options.jointParents, sink);
  checkIkHierarchy(spec, options.joints, options.jointParents, options.jointRest, sink);
  const budget = { left: PAIR_BUDGET };
  for (const m of graphMachines(spec, clips)) {
    const dead = checkTransitions(m, spec.parameters, sink, budget);
    checkFlow(m, dead, sink);
    const frameBudget = spec.transitionBudget;
    if (!frameBudget) continue;
    for (const t of m.transitions) {
      if (t.frames < frameBudget.minFrames || t.frames > frameBudget.maxFrames) {
        sink.add(
          "E_TRANSITION_BUDGET",
          t.durationPointer,
          `crossfade of ${t.frames} frames (${t.duration} s at ${spec.frameRate} fps) is outside the budget ${frameBudget.minFrames}..${frameBudget.maxFrames} frames`,
        );
      }
    }
  }
  // Parse warnings (W_BOM…) of a spec parsed here come first; a GraphSpec brings none.
  const out = [...resolved.diagnostics, ...(document ? locateDiagnosticsUnchecked(document, sink.diagnostics) : sink.diagnostics)];
  return out.sort(compareDiagnosticsUnchecked);
}
