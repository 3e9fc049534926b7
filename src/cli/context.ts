import type { Command } from "commander";
import { formatDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";

/** Most diagnostic lines printed for one file by one command (`I_MORE_FINDINGS` counts the rest). */
export const MAX_PRINTED_PER_FILE = 200;

/** Where a command writes; tests pass buffers, the binary passes the process streams. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Working directory used to resolve relative paths. */
  readonly cwd: string;
}

/** What a command's action gets: the io and a way to set the exit code. */
export interface CliContext {
  readonly io: CliIo;
  exitCode: number;
  /** Prints diagnostics to stderr, one `file: pointer: message [CODE]` line each. */
  printDiagnostics(diagnostics: readonly Diagnostic[]): void;
}

/** A CLI command: one file per command under src/cli/commands, registered in commands/index.ts. */
export interface CliCommand {
  register(program: Command, ctx: CliContext): void;
}

/** A bad command line (unknown flag value, wrong combination): exit 2 with the message. */
export class CliUsageError extends Error {}

/**
 * The value parser of an option that takes one value: a second occurrence is a usage error naming both
 * values, where commander would keep the last one silently (`retarget --clip Walk --clip Run` retargeted
 * only Run, exit 0).
 */
export function onlyOnce(flag: string): (value: string, previous: string | undefined) => string {
  return (value, previous) => {
    if (previous !== undefined) throw new CliUsageError(`${flag} is given twice ("${previous}", then "${value}"); give it once`);
    return value;
  };
}

export function createContext(io: CliIo): CliContext {
  return {
    io,
    exitCode: 0,
    printDiagnostics(diagnostics) {
      for (const line of cappedDiagnosticLines(diagnostics)) io.stderr(`${line}\n`);
    },
  };
}

/**
 * The printed lines of `diagnostics`: at most MAX_PRINTED_PER_FILE per file, then one
 * `I_MORE_FINDINGS` line per file saying how many more there were.
 */
export function cappedDiagnosticLines(diagnostics: readonly Diagnostic[]): string[] {
  const lines: string[] = [];
  const printed = new Map<string, number>();
  for (const d of diagnostics) {
    const n = printed.get(d.file) ?? 0;
    printed.set(d.file, n + 1);
    if (n < MAX_PRINTED_PER_FILE) lines.push(formatDiagnostic(d));
  }
  for (const [file, n] of printed) {
    if (n <= MAX_PRINTED_PER_FILE) continue;
    lines.push(formatDiagnostic({
      code: "I_MORE_FINDINGS", severity: "info", file, pointer: "",
      message: `${n - MAX_PRINTED_PER_FILE} more findings not shown (only the first ${MAX_PRINTED_PER_FILE} of each file are printed)`,
    }));
  }
  return lines;
}
