import { mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { checkGraph, type CheckReport } from "../../check/check-graph.ts";
import { formatCheckReport } from "../../check/format-check-report.ts";
import { parseProperties, type CheckProperty } from "../../check/properties.ts";
import { ExitCode } from "../../diagnostics/exit-codes.ts";
import { writeFileAtomic } from "../../fs/atomic-write.ts";
import { decodeUtf8 } from "../../fs/decode-utf8.ts";
import { readInputFile } from "../../fs/read-input-file.ts";
import { compileGraph } from "../../graph/compile-graph.ts";
import { parseDt } from "../../graph/timeline.ts";
import { locateDiagnosticsUnchecked } from "../../spec/locate-pointer.ts";
import { readGraphInputs } from "../read-graph-inputs.ts";
import { CliUsageError, type CliCommand, type CliContext } from "../context.ts";

interface CheckCliOptions {
  clips?: string;
  bound?: string;
  prop?: string;
  json?: boolean;
  dt?: string;
  maxConfigurations?: string;
  timeLimit?: string;
  witnesses?: string;
}

/** Largest properties file read (bytes). */
const MAX_PROPERTIES_BYTES = 1024 * 1024;

/**
 * `animgraph check GRAPH [--clips FILE] [--bound N] [--prop FILE] [--json]`: explores the graph's
 * configurations with the runtime's own step and reports unreachable, stuck and trap states,
 * livelocks, trigger and transition faults, exit times never reached and property violations, each
 * with a witness timeline for `animgraph run --script` that the check has replayed. Exit 0 nothing
 * found, 1 findings, 2 unusable input (docs/check.md).
 */
export const checkCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command("check")
      .description("Explore a graph's reachable configurations with the runtime: unreachable/stuck states, livelocks, trigger and transition faults, exit times never reached, user properties; each finding with a replayed witness timeline")
      .argument("<graph>", "graph spec (*.animgraph.json)")
      .option("--clips <file>", "glTF/GLB, .bvh or .vrma file with the skeleton and clips (real clip lengths; without it 1-second stand-ins are used)")
      .option("--bound <n>", "most input changes along an explored path", "40")
      .option("--prop <file>", "properties file (docs/check.md): never … while …, always eventually … after …, from … reachable …")
      .option("--json", "print the report as JSON (findings with JSON pointers and witness timelines)")
      .option("--dt <seconds>", "step length of the exploration and the witnesses, a number or a fraction such as 1/60", "1/30")
      .option("--max-configurations <n>", "most configurations kept per layer group (memory bound)", "100000")
      .option("--time-limit <seconds>", "stop exploring after this many seconds and report what was covered", "60")
      .option("--witnesses <dir>", "also write each witness as DIR/NN-code.timeline.json, ready for animgraph run --script (the folder is made if missing)")
      .action((graph: string, options: CheckCliOptions) => run(ctx, graph, options));
  },
};

function positiveInteger(text: string | undefined, flag: string, max: number): number {
  const v = Number(text);
  if (!/^[0-9]+$/.test(text ?? "") || !Number.isSafeInteger(v) || v < 1 || v > max) throw new CliUsageError(`check: ${flag} must be a whole number from 1 to ${max}, got "${text}"`);
  return v;
}

async function run(ctx: CliContext, specPath: string, options: CheckCliOptions): Promise<void> {
  const { io } = ctx;
  const bound = positiveInteger(options.bound, "--bound", 10_000);
  const maxConfigurations = positiveInteger(options.maxConfigurations, "--max-configurations", 10_000_000);
  const timeLimit = Number(options.timeLimit);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(options.timeLimit ?? "") || !(timeLimit > 0)) throw new CliUsageError(`check: --time-limit must be a number of seconds > 0, got "${options.timeLimit}"`);
  const dtText = options.dt ?? "1/30";
  const dt = parseDt(dtText);
  if (dt === undefined || dt > 0.1) throw new CliUsageError(`check: --dt must be a number > 0 and ≤ 0.1 (the longest step taken whole) or a fraction such as 1/60, got "${dtText}"`);

  if (options.witnesses !== undefined && !witnessFolderUsable(ctx, options.witnesses)) return;
  const inputs = await readGraphInputs(ctx, specPath, options.clips);
  if (!inputs) return;
  const { spec, skeleton, clips } = inputs;
  const compiled = compileGraph(spec, skeleton, clips);
  const graph = compiled.graph;
  if (!graph) {
    // The runtime refuses this graph, so no witness could be replayed: lint's errors say why.
    ctx.printDiagnostics(compiled.diagnostics);
    ctx.exitCode = ExitCode.Unusable;
    return;
  }
  let properties: CheckProperty[] = [];
  if (options.prop !== undefined) {
    const read = readInputFile(resolve(io.cwd, options.prop), MAX_PROPERTIES_BYTES, options.prop);
    if (read.diagnostic) {
      ctx.printDiagnostics([read.diagnostic]);
      ctx.exitCode = ExitCode.Unusable;
      return;
    }
    const text = decodeUtf8(read.bytes);
    if (text === undefined) {
      ctx.printDiagnostics([{ code: "E_NOT_UTF8", severity: "error", file: options.prop, pointer: "", message: "the file is not UTF-8 text" }]);
      ctx.exitCode = ExitCode.Unusable;
      return;
    }
    const parsed = parseProperties(text.replace(/^\uFEFF/, ""), options.prop, graph);
    if (parsed.diagnostics.length > 0) {
      ctx.printDiagnostics(parsed.diagnostics);
      ctx.exitCode = ExitCode.Unusable;
      return;
    }
    properties = parsed.properties;
  }
  const checked: CheckReport = checkGraph(spec, graph, {
    bound, maxConfigurations, dt: dtText, timeLimit, properties,
    ...(options.prop !== undefined ? { propertiesFile: options.prop } : {}),
    clipLengthsKnown: options.clips !== undefined,
  });
  // Line and column, as lint gives them: from the JSON pointer in the graph, or the properties line.
  const report: CheckReport = {
    ...checked,
    findings: checked.findings.map((f) => {
      const propLine = f.file === options.prop ? /^line (\d+)$/.exec(f.pointer) : null;
      if (propLine) return { ...f, line: Number(propLine[1]) };
      const [d] = locateDiagnosticsUnchecked(inputs.document, [f]);
      return d && d.line !== undefined ? { ...f, line: d.line, ...(d.column !== undefined ? { column: d.column } : {}) } : f;
    }),
  };
  const written = options.witnesses !== undefined ? writeWitnesses(ctx, options.witnesses, report) : [];
  if (written === null) return;
  const replay = options.clips !== undefined ? `--clips ${shellQuote(options.clips)}` : "--stand-in-clips";
  if (options.json) io.stdout(`${JSON.stringify({ ...report, replayWith: `animgraph run ${shellQuote(specPath)} ${replay} --script WITNESS.json` }, null, 2)}\n`);
  else {
    for (const line of formatCheckReport(report, `animgraph run ${shellQuote(specPath)} ${replay} --script WITNESS.json`)) io.stdout(`${line}\n`);
    if (written.length > 0) io.stdout(`wrote ${written.length} witness${written.length === 1 ? "" : "es"}: ${written.join(", ")}\n`);
  }
  ctx.exitCode = report.findings.some((f) => f.severity !== "info") ? ExitCode.Findings : ExitCode.Clean;
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@=+-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

/** `--witnesses`: refused before any work when it names something that is not a folder. */
function witnessFolderUsable(ctx: CliContext, label: string): boolean {
  let isDirectory: boolean | undefined;
  try {
    isDirectory = statSync(resolve(ctx.io.cwd, label)).isDirectory();
  } catch {
    isDirectory = undefined; // made later
  }
  if (label.trim() !== "" && isDirectory !== false) return true;
  ctx.printDiagnostics([{ code: "E_FILE_WRITE", severity: "error", file: label === "" ? "--witnesses" : label, pointer: "", message: label === "" ? "--witnesses names no folder" : "--witnesses names a file, not a folder" }]);
  ctx.exitCode = ExitCode.Unusable;
  return false;
}

/** Writes each witness (atomically) as NN-code.timeline.json; the names written, or null after an error. */
function writeWitnesses(ctx: CliContext, label: string, report: CheckReport): string[] | null {
  const dir = resolve(ctx.io.cwd, label);
  const written: string[] = [];
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    ctx.printDiagnostics([{ code: "E_FILE_WRITE", severity: "error", file: label, pointer: "", message: `cannot write the witnesses (${(e as NodeJS.ErrnoException).code ?? "error"})` }]);
    ctx.exitCode = ExitCode.Unusable;
    return null;
  }
  for (const [i, f] of report.findings.entries()) {
    if (!f.witness) continue;
    const name = `${String(i + 1).padStart(2, "0")}-${f.code.toLowerCase().replace(/_/g, "-")}.timeline.json`;
    const failed = writeFileAtomic(join(dir, name), `${JSON.stringify(f.witness.timeline, null, 2)}\n`, join(label, name));
    if (failed.length > 0) {
      ctx.printDiagnostics(failed);
      ctx.exitCode = ExitCode.Unusable;
      return null;
    }
    written.push(join(label, name));
  }
  return written;
}
