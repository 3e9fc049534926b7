import { statSync, type Stats } from "node:fs";
import { resolve } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { ExitCode } from "../diagnostics/exit-codes.ts";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import type { CliContext } from "./context.ts";

/** An output file a command will write, checked before any work is done. */
export interface OutputFile {
  /** As the user wrote it (for messages). */
  readonly label: string;
  /** Absolute path. */
  readonly path: string;
}

/**
 * Checks `--out` before a command reads or computes anything: it must be a non-empty path; if it
 * exists it must be a regular file (not a directory, device, FIFO or socket); and it must not be the
 * same file as any input — compared by device and inode, so another spelling, a symbolic link or a
 * hard link to an input is caught too. Returns the output or prints the diagnostic (`E_FILE_WRITE`,
 * `E_OUT_IS_INPUT`), sets exit 2 and returns undefined. The one mechanism every writing command uses.
 */
export function checkOutputFile(ctx: CliContext, label: string, inputs: readonly { label: string; path: string }[]): OutputFile | undefined {
  const refuse = (code: string, message: string): undefined => {
    ctx.printDiagnostics([{ code, severity: "error", file: label === "" ? "--out" : label, pointer: "", message } satisfies Diagnostic]);
    ctx.exitCode = ExitCode.Unusable;
    return undefined;
  };
  if (label.trim() === "") return refuse("E_FILE_WRITE", "--out names no file");
  const path = resolve(ctx.io.cwd, label);
  const out = statOrUndefined(path);
  if (out && !out.isFile()) return refuse("E_FILE_WRITE", `--out is ${out.isDirectory() ? "a directory" : "not a regular file (a device, FIFO or socket)"}; name a file to write`);
  for (const input of inputs) {
    const inPath = resolve(ctx.io.cwd, input.path);
    const st = statOrUndefined(inPath);
    const same = inPath === path || (out !== undefined && st !== undefined && st.dev === out.dev && st.ino === out.ino);
    if (same) return refuse("E_OUT_IS_INPUT", `--out is the same file as the input ${JSON.stringify(input.label)}; inputs are never overwritten`);
  }
  return { label, path };
}

/**
 * Writes an output atomically (temporary file, then rename). A failure — a missing or read-only
 * folder, a full disk — prints `E_FILE_WRITE` naming the file and the system's reason, sets exit 2 and
 * returns false; nothing is left behind.
 */
export function writeOutputFile(ctx: CliContext, out: OutputFile, data: string | Uint8Array): boolean {
  const failed = writeFileAtomic(out.path, data, out.label);
  if (failed.length === 0) return true;
  ctx.printDiagnostics(failed);
  ctx.exitCode = ExitCode.Unusable;
  return false;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
