import { decodeUtf8 } from "../../fs/decode-utf8.ts";
import { readInputFile } from "../../fs/read-input-file.ts";
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
  const read = readInputFile(path, MAX_BVH_BYTES, label);
  if (!read.bytes) return { diagnostics: [read.diagnostic] };
  const text = decodeUtf8(read.bytes);
  if (text === undefined) return fail("E_NOT_UTF8", "the file is not UTF-8 (or ASCII) text");
  return parseBvh(text, label, options);
}
