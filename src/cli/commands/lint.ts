import { resolve } from "node:path";
import type { Command } from "commander";
import type { Diagnostic } from "../../diagnostics/diagnostic.ts";
import { ExitCode } from "../../diagnostics/exit-codes.ts";
import { readJsonFile } from "../../json/read-json-file.ts";
import { lintAssetsFromGltf } from "../../lint/clips-from-gltf.ts";
import { lintDocument } from "../../lint/lint-document.ts";
import type { LintOptions } from "../../lint/lint-options.ts";
import { toSarif } from "../../lint/sarif.ts";
import { DEFAULT_SPEC_LIMITS } from "../../spec/spec-limits.ts";
import { cappedDiagnosticLines, CliUsageError, type CliCommand, type CliContext } from "../context.ts";
import { appendAll } from "../../diagnostics/append-all.ts";

interface LintCliOptions {
  clips?: string;
  format: string;
}

const FORMATS = ["text", "json", "sarif"] as const;

/**
 * `animgraph lint SPEC… [--clips FILE.glb] [--format text|json|sarif]`: lints graph specs (or
 * seed-format blend-check specs). Exit 0 nothing found, 1 findings (warnings too), 2 unusable input.
 */
export const lintCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command("lint")
      .description("Lint animation graph specs: names, types, reachability, dead ends, never-firing, shadowed and ambiguous transitions, instant cycles, budgets, blend spaces")
      .argument("<spec...>", "graph spec(s) (JSON), or seed-format blend-check specs")
      .option("--clips <file>", "glTF/GLB, .bvh or .vrma file whose clips and joints the spec must name")
      .option("--format <format>", "output: text (one line per finding), json (array of diagnostics) or sarif (SARIF 2.1.0)", "text")
      .action((specs: string[], options: LintCliOptions) => run(ctx, specs, options));
  },
};

async function run(ctx: CliContext, specs: readonly string[], options: LintCliOptions): Promise<void> {
  const { io } = ctx;
  const format = options.format as (typeof FORMATS)[number];
  if (!FORMATS.includes(format)) throw new CliUsageError(`--format must be one of ${FORMATS.join(", ")}, not "${options.format}"`);

  const diagnostics: Diagnostic[] = [];
  let exit: number = ExitCode.Clean;
  let lintOptions: Omit<LintOptions, "document"> = {};
  if (options.clips !== undefined) {
    const assets = await lintAssetsFromGltf(resolve(io.cwd, options.clips), options.clips);
    if (!assets.ok) {
      appendAll(diagnostics, assets.diagnostics);
      exit = ExitCode.Unusable;
    } else lintOptions = { clips: assets.clips, joints: assets.joints, jointParents: assets.jointParents, jointRest: assets.jointRest };
  }
  if (exit === ExitCode.Clean) {
    for (const spec of specs) {
      const doc = readJsonFile(resolve(io.cwd, spec), { maxBytes: DEFAULT_SPEC_LIMITS.maxBytes }, spec);
      const result = lintDocument(doc, lintOptions);
      appendAll(diagnostics, result.diagnostics);
      exit = Math.max(exit, result.exitCode);
    }
  }

  if (format === "json") io.stdout(`${JSON.stringify(diagnostics, null, 2)}\n`);
  else if (format === "sarif") io.stdout(`${JSON.stringify(toSarif(diagnostics, { baseDirectory: io.cwd }), null, 2)}\n`);
  else {
    for (const line of cappedDiagnosticLines(diagnostics)) io.stdout(`${line}\n`);
    io.stdout(`${summary(diagnostics, specs.length, exit)}\n`);
  }
  ctx.exitCode = exit;
}

function summary(diagnostics: readonly Diagnostic[], files: number, exit: number): string {
  const count = (s: Diagnostic["severity"]): number => diagnostics.filter((d) => d.severity === s).length;
  const [e, w, i] = [count("error"), count("warning"), count("info")];
  const what = `${files} file${files === 1 ? "" : "s"}`;
  if (diagnostics.length === 0) return `${what}: no findings`;
  const parts = [`${e} error${e === 1 ? "" : "s"}`, `${w} warning${w === 1 ? "" : "s"}`, ...(i > 0 ? [`${i} info`] : [])];
  return `${what}: ${parts.join(", ")}${exit === ExitCode.Unusable ? " (unusable input)" : ""}`;
}
