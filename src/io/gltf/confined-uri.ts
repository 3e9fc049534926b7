import { realpathSync, statSync } from "node:fs";
import { isAbsolute, resolve, sep } from "node:path";
import { readInputFile } from "../../fs/read-input-file.ts";
import type { DiagnosticSink } from "./gltf-json.ts";
import type { ExternalReader } from "./read-gltf-container.ts";

const EMPTY = new Uint8Array(0);

/** Total bytes a glTF and all its external files may bring in (bytes). */
export const MAX_GLTF_TOTAL_BYTES = 512 * 1024 * 1024;

/**
 * A reader for a glTF's external URIs that only reads inside `baseDir`: the URI must be a relative path
 * (no scheme, no absolute path, no `..` segment, no NUL) that, with symlinks resolved, stays inside
 * the folder and names a regular file. Anything else is `E_GLTF_URI` at the URI's pointer. Every file
 * goes through the bounded reader, and all of them together share `budget` bytes. With `checkOnly`
 * the URI is confined and checked but not read (images, when only the animation is wanted).
 */
export function confinedUriReader(baseDir: string, sink: DiagnosticSink, budget: { remaining: number }): ExternalReader {
  let realBase: string | undefined;
  return (uri, pointer, checkOnly = false) => {
    const refuse = (why: string): undefined => {
      sink.error("E_GLTF_URI", pointer, `${why}: ${JSON.stringify(uri.length > 120 ? `${uri.slice(0, 120)}…` : uri)}`);
      return undefined;
    };
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri)) return refuse("only relative file paths and data: URIs are allowed, not this URI");
    let path: string;
    try {
      path = decodeURIComponent(uri);
    } catch {
      return refuse("the URI's percent-encoding is malformed");
    }
    if (path === "" || path.includes("\0")) return refuse("the URI is empty or holds a NUL character");
    if (isAbsolute(path) || path.startsWith("/") || path.startsWith("\\")) return refuse("the URI is an absolute path; it must be relative to the glTF's folder");
    if (path.split(/[/\\]/).includes("..")) return refuse("the URI leaves the glTF's folder (\"..\")");
    try {
      realBase ??= realpathSync(baseDir);
    } catch {
      return refuse("the glTF's folder cannot be resolved");
    }
    let real: string;
    try {
      real = realpathSync(resolve(baseDir, path));
    } catch (err) {
      if (checkOnly) return EMPTY; // a missing texture does not stop loading the animation
      const code = (err as NodeJS.ErrnoException).code;
      sink.error("E_GLTF_READ", pointer, `cannot read the file the URI names (${code === "ENOENT" ? "no such file" : code ?? "unknown error"}): ${JSON.stringify(uri)}`);
      return undefined;
    }
    if (!real.startsWith(realBase.endsWith(sep) ? realBase : realBase + sep)) return refuse("the URI resolves (through a symbolic link) outside the glTF's folder");
    if (checkOnly) {
      let regular = false;
      try {
        regular = statSync(real).isFile();
      } catch {
        // vanished between realpath and stat: as not regular
      }
      return regular ? EMPTY : refuse("the URI does not name a regular file");
    }
    const read = readInputFile(real, budget.remaining, uri);
    if (!read.bytes) {
      const d = read.diagnostic;
      if (d.code === "E_FILE_READ") return refuse(`the URI names ${d.message.replace(/, not a regular file$/, "")}`);
      sink.error(d.code === "E_FILE_TOO_LARGE" ? "E_FILE_TOO_LARGE" : "E_GLTF_READ", pointer, `${d.message} (${JSON.stringify(uri)}; all files of one glTF share ${MAX_GLTF_TOTAL_BYTES} bytes)`);
      return undefined;
    }
    budget.remaining -= read.bytes.byteLength;
    return read.bytes;
  };
}
