import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { ExitCode } from "../diagnostics/exit-codes.ts";
import { COMMANDS } from "./commands/index.ts";
import { CliUsageError, createContext, type CliIo } from "./context.ts";

const processIo: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
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
