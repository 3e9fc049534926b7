import { Buffer } from "node:buffer";
import { readFileSync, writeSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { ExitCode } from "../diagnostics/exit-codes.ts";
import { COMMANDS } from "./commands/index.ts";
import { CliUsageError, createContext, type CliIo } from "./context.ts";

/** Thrown by the process io when the reader of stdout or stderr has gone (`animgraph run … | head -1`). */
class OutputClosed extends Error {}

/**
 * Writes all of `text` to a file descriptor synchronously: output streams as it is produced (nothing
 * piles up in memory when the reader is slow) and a closed pipe is seen at once, as OutputClosed.
 */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") Atomics.wait(PAUSE, 0, 0, 1); // a non-blocking pipe is full: wait for the reader
      else if (code === "EPIPE") throw new OutputClosed();
      else throw err;
    }
  }
}
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

const processIo: CliIo = {
  stdout: (text) => writeAll(1, text),
  stderr: (text) => writeAll(2, text),
  cwd: process.cwd(),
};

/**
 * Runs the CLI with `argv` (without the node and script paths) and returns the exit code. Never
 * throws: usage errors give 2, unexpected errors 3 with a one-line message (the stack only with
 * ANIMGRAPH_DEBUG=1).
 */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const ctx = createContext(io);
  const program = new Command("animgraph")
    .description("Animation graphs: check, lint, run, inspect, retarget and compress character animation.")
    .version(packageVersion(), "-V, --version")
    .exitOverride()
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });
  for (const command of COMMANDS) command.register(program, ctx);
  for (const sub of program.commands) sub.exitOverride();
  try {
    await program.parseAsync([...argv], { from: "user" });
    return ctx.exitCode;
  } catch (err) {
    // The reader went away: stop quietly, as Unix tools do, with the outcome so far.
    if (err instanceof OutputClosed) return ctx.exitCode;
    if (err instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      return err.exitCode === 0 ? ExitCode.Clean : ExitCode.Unusable;
    }
    if (err instanceof CliUsageError) {
      io.stderr(`animgraph: ${err.message}\n`);
      return ExitCode.Unusable;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`animgraph: internal error: ${message}\n`);
    if (process.env["ANIMGRAPH_DEBUG"] === "1" && err instanceof Error) io.stderr(`${err.stack}\n`);
    return ExitCode.Internal;
  }
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
    return pkg.version ?? "unknown";
  } catch {
    return "unknown";
  }
}
