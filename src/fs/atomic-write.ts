import { randomBytes } from "node:crypto";
import { renameSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { argumentError, expectString } from "../errors/check-argument.ts";
import { expectNonEmptyString } from "../errors/check-shape.ts";

/**
 * Writes a file atomically: the data goes to a temporary file beside the target, which is then renamed
 * over it, so a reader (or a crash) never sees half a file. The temporary file is removed on failure.
 * A write the system refuses (a missing or read-only folder, a full disk, a name too long) is not thrown
 * but returned as an `E_FILE_WRITE` diagnostic naming `label` (default: the path) and the system's
 * reason, as readers return `E_FILE_NOT_FOUND`; no diagnostic means the file was written. Wrong
 * argument types throw AnimgraphError.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, label: string = path): Diagnostic[] {
  expectNonEmptyString("writeFileAtomic", "path", path);
  if (typeof data !== "string" && !(data instanceof Uint8Array)) throw argumentError("writeFileAtomic", "data", "a string or a Uint8Array", data);
  expectString("writeFileAtomic", "label", label);
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    writeFileSync(tmp, data, { flag: "wx" });
    renameSync(tmp, path);
    return [];
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // the temporary file was never created
    }
    const reason = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
    return [{ code: "E_FILE_WRITE", severity: "error", file: label, pointer: "", message: `cannot write the file (${reason})` }];
  }
}
