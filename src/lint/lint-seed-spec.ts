import { compareDiagnosticsUnchecked, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { blendSpecFindings } from "../blend-check/blend-spec-findings.ts";
import type { BlendCheckSpec } from "../blend-check/blend-spec.ts";
import { validateBlendSpec } from "../blend-check/validate-blend-spec.ts";
import { isJsonDocument, toJsonDocument, type JsonInput } from "../json/document-from-value.ts";
import { locateDiagnosticsUnchecked } from "../spec/locate-pointer.ts";
import { checkFlow } from "./check-flow.ts";
import { LintSink } from "./lint-sink.ts";
import type { LintMachine, LintState, LintTransition } from "./machine-model.ts";

/**
 * Whether a document is in the seed's blend-check format (`blendSpace`, `clipSet`, `queryPoints`,
 * `states`, `transitionBudget`, `transitions` with `frames`/`exitPermille`) rather than a graph spec.
 */
export function isSeedSpec(spec: JsonInput): boolean {
  if (isJsonDocument(spec)) {
    const root = spec.root;
    return root?.kind === "object" && !root.members.has("animgraph") && (root.members.has("blendSpace") || root.members.has("clipSet"));
  }
  if (typeof spec === "string") return isSeedSpec(toJsonDocument("isSeedSpec", "spec", spec, "<spec>"));
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) return false;
  return !Object.hasOwn(spec, "animgraph") && (Object.hasOwn(spec, "blendSpace") || Object.hasOwn(spec, "clipSet"));
}

/** The outcome of linting a seed-format spec. */
export interface SeedLintResult {
  /** False when the document is not a usable seed spec (the diagnostics say why). */
  readonly usable: boolean;
  readonly diagnostics: Diagnostic[];
}

/**
 * Lints a seed-format spec: everything `animgraph blend-check` finds (blend space corners, clips,
 * unknown states, the crossfade budget, duplicate transitions — via `blendSpecFindings`), plus the
 * flow checks of the graph linter on its state list (entry = the first state, as the seed's state
 * machine starts there): W_UNREACHABLE_STATE and W_DEAD_END_STATE. The seed format does not write
 * transition conditions, so shadowing, ambiguity and instant cycles are not judged.
 */
export function lintSeedSpec(spec: JsonInput): SeedLintResult {
  const doc = toJsonDocument("lintSeedSpec", "spec", spec, "<spec>");
  const { spec: validated, diagnostics } = validateBlendSpec({ ...doc, diagnostics: [...doc.diagnostics] });
  if (!validated) return { usable: false, diagnostics };
  const sink = new LintSink(doc.file);
  checkFlow(seedMachine(validated), new Set(), sink, true);
  const findings = [...blendSpecFindings(validated, doc.file, doc), ...locateDiagnosticsUnchecked(doc, sink.diagnostics)];
  return { usable: true, diagnostics: [...diagnostics, ...findings.sort(compareDiagnosticsUnchecked)] };
}

/** Frames per second assumed for the seed's frame counts (it states none); only seconds in messages use it. */
const SEED_FRAME_RATE = 30;

function seedMachine(spec: BlendCheckSpec): LintMachine {
  const states = new Map<string, LintState>();
  spec.states.forEach((name, i) => {
    if (!states.has(name)) states.set(name, { name, pointer: `/states/${i}`, final: false, motionEnd: Infinity });
  });
  const transitions = spec.transitions.map((t, i): LintTransition => {
    const frames = Number(t.frames);
    return {
      pointer: `/transitions/${i}`, from: t.from, to: t.to, canTransitionToSelf: false, conditions: undefined,
      // exitPermille 0 means "any time" in the seed format.
      ...(t.exitPermille > 0n ? { exitTime: Number(t.exitPermille) / 1000, exitPermille: true } : {}),
      duration: frames / SEED_FRAME_RATE, frames, durationPointer: `/transitions/${i}/frames`, blend: "crossfade",
    };
  });
  return { pointer: "", entry: spec.states[0] ?? "", states, transitions };
}
