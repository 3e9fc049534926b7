import { formatDiagnostic } from "../diagnostics/diagnostic.ts";
import { argumentError, expectString } from "../errors/check-argument.ts";
import type { CheckReport } from "./check-graph.ts";

/**
 * The report as text: one diagnostic line per finding, its witness timeline (one JSON line, ready for
 * `animgraph run --script`) and the replay's outcome under it, then what was explored and a summary.
 */
export function formatCheckReport(report: CheckReport, replayCommand: string): string[] {
  if (!report || typeof report !== "object" || !Array.isArray(report.findings) || typeof report.exploration !== "object") throw argumentError("formatCheckReport", "report", "a CheckReport (checkGraph)", report);
  expectString("formatCheckReport", "replayCommand", replayCommand);
  const lines: string[] = [];
  for (const f of report.findings) {
    lines.push(formatDiagnostic(f));
    if (f.witness) {
      const w = f.witness;
      lines.push(`  witness (${w.steps} steps at dt ${String(w.timeline.dt)}; ${w.replayed ? "replayed: reproduced" : `replay did NOT reproduce it: ${w.replay}`}):`);
      lines.push(`    ${JSON.stringify({ dt: w.timeline.dt, duration: w.timeline.duration, events: w.timeline.events })}`);
    }
  }
  for (const p of report.properties) {
    lines.push(`property line ${p.line}: ${p.holds === true ? "holds" : p.holds === false ? "VIOLATED" : "not decided (bounded exploration)"}: ${p.text}`);
  }
  const x = report.exploration;
  lines.push(
    `explored ${x.configurations} configuration${x.configurations === 1 ? "" : "s"} in ${x.groups} layer group${x.groups === 1 ? "" : "s"}, depth ${x.depth} (bound ${report.bound}), ${x.steps} steps of ${round(report.dt)} s, ${(x.elapsedMs / 1000).toFixed(2)} s: ${x.complete ? "complete" : `bounded (stopped at ${x.limits.join("; ")})`}`,
  );
  if (report.witnesses.withdrawn > 0) lines.push(`${report.witnesses.withdrawn} claim${report.witnesses.withdrawn === 1 ? "" : "s"} that something never happens were contradicted by their own witness run and withdrawn`);
  const count = (s: string): number => report.findings.filter((f) => f.severity === s).length;
  const shown = report.findings.filter((f) => f.severity !== "info").length;
  lines.push(
    shown === 0
      ? `${report.file}: no findings`
      : `${report.file}: ${count("error")} error${count("error") === 1 ? "" : "s"}, ${count("warning")} warning${count("warning") === 1 ? "" : "s"}; ${report.witnesses.reproduced} of ${report.witnesses.total} witnesses reproduced by replay (replay one: ${replayCommand})`,
  );
  return lines;
}

function round(x: number): string {
  return String(Math.round(x * 1e6) / 1e6);
}
