// Runs the CLI in this process (src/cli/main.ts) with captured output: the end-to-end tests of commands
// whose figures they then read from the written files.
import { main } from "../../src/cli/main.ts";

export interface CliRun { code: number; out: string; err: string }

/** `animgraph <args>` with stdout and stderr captured, in the current directory. */
export async function runCli(args: string[]): Promise<CliRun> {
  let out = "";
  let err = "";
  const code = await main(args, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), cwd: process.cwd() });
  return { code, out, err };
}
