import { readFileSync, statSync } from "node:fs";
import { parseBvh, type BvhOptions, type BvhResult } from "./parse-bvh.ts";

/** Largest BVH file read (bytes). The bundled CMU takes are under 1 MB. */
export const MAX_BVH_BYTES = 256 * 1024 * 1024;

/**
 * Reads and parses a BVH file (see parseBvh). A missing or unreadable file, a directory, one over
 * MAX_BVH_BYTES or one that is not UTF-8 text gives a diagnostic (`E_FILE_NOT_FOUND`, `E_FILE_READ`,
 * `E_FILE_TOO_LARGE`, `E_NOT_UTF8`) instead of an exception. `label` names the file in diagnostics.
 */
export function loadBvh(path: string, options: BvhOptions = {}, label: string = path): BvhResult {
  const fail = (code: string, message: string): BvhResult => ({
    diagnostics: [{ code, severity: "error", file: label, pointer: "", message }],
  });
  let bytes: Buffer;
  try {
    const st = statSync(path);
    if (st.isDirectory()) return fail("E_FILE_READ", "is a directory, not a file");
    if (st.size > MAX_BVH_BYTES) return fail("E_FILE_TOO_LARGE", `file is ${st.size} bytes; the limit is ${MAX_BVH_BYTES}`);
    bytes = readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return fail("E_FILE_NOT_FOUND", "no such file");
    return fail("E_FILE_READ", `cannot read the file (${code ?? "unknown error"})`);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return fail("E_NOT_UTF8", "the file is not UTF-8 (or ASCII) text");
  }
  return parseBvh(text, label, options);
}
