import { compareDiagnosticsUnchecked, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { ExitCode } from "../diagnostics/exit-codes.ts";
import { expectOptionalObject } from "../errors/check-argument.ts";
import { toJsonDocument, type JsonInput } from "../json/document-from-value.ts";
import type { GraphSpec } from "../spec/graph-spec.ts";
import { parseGraphSpec, type ParseGraphSpecOptions } from "../spec/parse-graph-spec.ts";
import { lintGraph } from "./lint-graph.ts";
import type { LintOptions } from "./lint-options.ts";
import { isSeedSpec, lintSeedSpec } from "./lint-seed-spec.ts";

/** The outcome of linting one spec file. */
export interface LintDocumentResult {
  /** Which format the document was read as. */
  readonly format: "animgraph" | "seed";
  /** The parsed graph spec (animgraph format, when its structure is valid). */
  readonly spec?: GraphSpec;
  /** Input problems first, then findings, in source order. */
  readonly diagnostics: Diagnostic[];
  /** 0 nothing found, 1 findings (warnings included), 2 the input is unusable (not a spec). */
  readonly exitCode: 0 | 1 | 2;
}

/**
 * Parses and lints a document in either format, detected by shape: the seed's blend-check format
 * (a `blendSpace` or `clipSet` member, no `animgraph`) or a graph spec. The spec may be JSON text, a
 * parsed document or a plain object (see `parseGraphSpec`). Never throws on bad input.
 */
export function lintDocument(spec: JsonInput, options: Omit<LintOptions, "document"> & ParseGraphSpecOptions = {}): LintDocumentResult {
  expectOptionalObject("lintDocument", "options", options);
  const doc = toJsonDocument("lintDocument", "spec", spec, options.file ?? "<spec>", options.json);
  if (isSeedSpec(doc)) {
    const r = lintSeedSpec(doc);
    return { format: "seed", diagnostics: r.diagnostics, exitCode: !r.usable ? ExitCode.Unusable : r.diagnostics.length > 0 ? ExitCode.Findings : ExitCode.Clean };
  }
  const parsed = parseGraphSpec(doc, options);
  if (!parsed.spec) return { format: "animgraph", diagnostics: parsed.diagnostics, exitCode: ExitCode.Unusable };
  const findings = lintGraph(parsed.spec, { ...options, document: doc });
  const diagnostics = [...parsed.diagnostics, ...findings].sort(compareDiagnosticsUnchecked);
  return { format: "animgraph", spec: parsed.spec, diagnostics, exitCode: diagnostics.length > 0 ? ExitCode.Findings : ExitCode.Clean };
}
