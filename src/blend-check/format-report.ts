import type { BlendCheckReport } from "./analyze-blend-spec.ts";
import { expectShape, type FieldKind } from "../errors/check-shape.ts";
import { dumpPythonJson } from "./python-json-dump.ts";

const REPORT = "a BlendCheckReport (from analyzeBlendSpec)";
const REPORT_SHAPE: Readonly<Record<string, FieldKind>> = {
  project: "string", blendSpace: "string", sampleCount: "number", queryCount: "number", transitionCount: "number", badSamples: "array",
  missingClipRefs: "array", danglingTransitions: "array", outOfBudget: "array", duplicateTransitions: "array", weights: "array",
  weightDigest: "string", transitionDigest: "string",
};

/**
 * The human summary, line by line, exactly as the Python reference prints it (without its final
 * `wrote <file>` line, which the caller adds when it wrote a file).
 */
export function formatBlendSummary(report: BlendCheckReport): string[] {
  expectShape("formatBlendSummary", "report", report, REPORT, REPORT_SHAPE);
  return [
    `samples=${report.sampleCount} queries=${report.weights.length} transitions=${report.transitionCount}`,
    `dangling=${report.danglingTransitions.length} outOfBudget=${report.outOfBudget.length} ` +
      `dup=${report.duplicateTransitions.length} badSamples=${report.badSamples.length} missingRefs=${report.missingClipRefs.length}`,
    ...report.weights.map((w) => `  ${w}`),
    ...report.outOfBudget.map((t) => `  outOfBudget ${t}`),
    ...report.danglingTransitions.map((t) => `  dangling    ${t}`),
    `weightDigest=${report.weightDigest}`,
    `transitionDigest=${report.transitionDigest}`,
  ];
}

/** The report file's text, byte for byte what the reference's `json.dump(…, indent=2, sort_keys=True)` + "\n" writes. */
export function formatBlendReportJson(report: BlendCheckReport): string {
  expectShape("formatBlendReportJson", "report", report, REPORT, REPORT_SHAPE);
  return dumpPythonJson({
    project: report.project,
    blendSpace: report.blendSpace,
    sampleCount: report.sampleCount,
    queryCount: report.queryCount,
    transitionCount: report.transitionCount,
    badSamples: report.badSamples,
    missingClipRefs: report.missingClipRefs,
    danglingTransitions: report.danglingTransitions,
    outOfBudget: report.outOfBudget,
    duplicateTransitions: report.duplicateTransitions,
    weights: report.weights,
    weightDigest: report.weightDigest,
    transitionDigest: report.transitionDigest,
  });
}
