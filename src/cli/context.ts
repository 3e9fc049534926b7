import type { Command } from "commander";
import { formatDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";

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

export function createContext(io: CliIo): CliContext {
  return {
    io,
    exitCode: 0,
    printDiagnostics(diagnostics) {
      for (const d of diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
    },
  };
}
