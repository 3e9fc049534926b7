import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { ExitCode } from "../diagnostics/exit-codes.ts";
import { expectString } from "../errors/check-argument.ts";
import { toJsonDocument, type JsonInput } from "../json/document-from-value.ts";
import { parseJsonText } from "../json/parse-json.ts";
import { analyzeBlendSpec, type BlendCheckReport } from "./analyze-blend-spec.ts";
import { blendSpecFindings } from "./blend-spec-findings.ts";
import { validateBlendSpec } from "./validate-blend-spec.ts";

/** The outcome of checking one spec file. */
export interface BlendCheckResult {
  /** The report; undefined when the input is unusable (then nothing should be written). */
  readonly report: BlendCheckReport | undefined;
  /** Input problems (and warnings such as W_BOM), then the findings, each with a JSON pointer. */
  readonly diagnostics: readonly Diagnostic[];
  /** 0 clean, 1 findings (any finding, W_QUERY_OUT_OF_RANGE included), 2 unusable input. */
  readonly exitCode: 0 | 1 | 2;
}


/** Validates and analyzes a blend-check spec held in memory (`blendCheckFile` in animgraph/node reads a path). */
export function blendCheckText(text: string, label = "<input>"): BlendCheckResult {
  expectString("blendCheckText", "text", text);
  expectString("blendCheckText", "label", label);
  return blendCheckDocument(parseJsonText(text, label));
}

/** Validates and analyzes a spec: a parsed document, JSON text or a plain object. */
export function blendCheckDocument(input: JsonInput): BlendCheckResult {
  const doc = toJsonDocument("blendCheckDocument", "spec", input, "<input>");
  const { spec, diagnostics } = validateBlendSpec(doc);
  if (!spec) return { report: undefined, diagnostics, exitCode: ExitCode.Unusable };
  const findings = blendSpecFindings(spec, doc.file, doc);
  return {
    report: analyzeBlendSpec(spec),
    diagnostics: [...diagnostics, ...findings],
    exitCode: findings.length > 0 ? ExitCode.Findings : ExitCode.Clean,
  };
}
