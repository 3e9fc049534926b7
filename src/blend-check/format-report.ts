import type { BlendCheckReport } from "./analyze-blend-spec.ts";
import { dumpPythonJson } from "./python-json-dump.ts";

/**
 * The human summary, line by line, exactly as the Python reference prints it (without its final
 * `wrote <file>` line, which the caller adds when it wrote a file).
 */
export function formatBlendSummary(report: BlendCheckReport): string[] {
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
