import { resolve } from "node:path";
import type { Command } from "commander";
import { ExitCode } from "../../diagnostics/exit-codes.ts";
import { blendCheckFile } from "../../blend-check/blend-check-file.ts";
import { formatBlendReportJson, formatBlendSummary } from "../../blend-check/format-report.ts";
import { checkOutputFile, writeOutputFile, type OutputFile } from "../output-file.ts";
import type { CliCommand, CliContext } from "../context.ts";

interface BlendCheckOptions {
  json?: boolean;
  out?: string;
  exitZero?: boolean;
}

/**
 * `animgraph blend-check SPEC [--json] [--out FILE] [--exit-zero]`: checks a blend space and transition
 * spec and prints the summary (or the JSON report) the Python reference prints; see docs/blend-check.md.
 */
export const blendCheckCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command("blend-check")
      .description("Check a 2D blend space and its transitions; print integer per-mille weights and digests")
      .argument("<spec>", "blend-check spec (JSON)")
      .option("--json", "print the report as JSON instead of the summary")
      .option("--out <file>", "also write the report (JSON) to this file, atomically")
      .option("--exit-zero", "exit 0 even when there are findings (unusable input still exits 2)")
      .action((spec: string, options: BlendCheckOptions) => run(ctx, spec, options));
  },
};

function run(ctx: CliContext, specPath: string, options: BlendCheckOptions): void {
  const { io } = ctx;
  let out: OutputFile | undefined;
  if (options.out !== undefined) {
    out = checkOutputFile(ctx, options.out, [{ label: specPath, path: specPath }]);
    if (!out) return;
  }
  const result = blendCheckFile(resolve(io.cwd, specPath), specPath);
  ctx.printDiagnostics(result.diagnostics);
  const report = result.report;
  if (!report) {
    ctx.exitCode = ExitCode.Unusable;
    return;
  }
  const json = formatBlendReportJson(report);
  if (out && !writeOutputFile(ctx, out, json)) return;
  if (options.json) io.stdout(json);
  else {
    const lines = formatBlendSummary(report);
    if (options.out !== undefined) lines.push(`wrote ${options.out}`);
    io.stdout(`${lines.join("\n")}\n`);
  }
  ctx.exitCode = options.exitZero ? ExitCode.Clean : result.exitCode;
}
