import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";

/** What `readInputFile` gives: the bytes, or one diagnostic saying why there are none. */
export type InputFileResult =
  | { readonly bytes: Uint8Array; readonly diagnostic?: undefined }
  | { readonly bytes?: undefined; readonly diagnostic: Diagnostic };

/** Largest input file of any kind unless a reader sets its own limit (bytes). */
export const DEFAULT_MAX_INPUT_BYTES = 256 * 1024 * 1024;

const CHUNK = 1 << 20;

/**
 * Reads a whole input file through the one reader every command and file-path API uses. It refuses
 * anything but a regular file — a directory, a FIFO (opened non-blocking, so it never waits for a
 * writer), a character or block device such as /dev/zero, a socket — and stops reading once
 * `maxBytes` is passed, so a file that grows or lies about its size (stat says 0 for devices and
 * /proc files) cannot exhaust memory. Never throws: a missing or unreadable file is a diagnostic
 * (`E_FILE_NOT_FOUND`, `E_FILE_READ`, `E_FILE_TOO_LARGE`) naming `label`.
 */
export function readInputFile(path: string, maxBytes: number = DEFAULT_MAX_INPUT_BYTES, label: string = path): InputFileResult {
  const fail = (code: string, message: string): InputFileResult => ({
    diagnostic: { code, severity: "error", file: label, pointer: "", message },
  });
  if (path === "") return fail("E_FILE_NOT_FOUND", "no file name given");
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return fail("E_FILE_NOT_FOUND", "no such file");
    if (code === "EISDIR") return fail("E_FILE_READ", "is a directory, not a file");
    return fail("E_FILE_READ", `cannot open the file (${code ?? "unknown error"})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return fail("E_FILE_READ", `is ${describeNonRegular(st)}, not a regular file`);
    if (st.size > maxBytes) return fail("E_FILE_TOO_LARGE", `file is ${st.size} bytes; the limit is ${maxBytes}`);
    return readBounded(fd, st.size, maxBytes, fail);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return fail("E_FILE_READ", `cannot read the file (${code ?? "unknown error"})`);
  } finally {
    closeSync(fd);
  }
}

function readBounded(fd: number, sizeHint: number, maxBytes: number, fail: (code: string, message: string) => InputFileResult): InputFileResult {
  let buffer = new Uint8Array(Math.min(maxBytes + 1, Math.max(sizeHint + 1, 1)));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) return fail("E_FILE_TOO_LARGE", `file is more than ${maxBytes} bytes (the limit)`);
      const grown = new Uint8Array(Math.min(maxBytes + 1, buffer.length + Math.max(CHUNK, buffer.length)));
      grown.set(buffer);
      buffer = grown;
    }
    const n = readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) break;
    length += n;
  }
  if (length > maxBytes) return fail("E_FILE_TOO_LARGE", `file is more than ${maxBytes} bytes (the limit)`);
  return { bytes: buffer.subarray(0, length) };
}

function describeNonRegular(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "a special file";
}
