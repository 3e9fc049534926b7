// Node only (animgraph/node): loading a glTF by path, with its external buffers read from its own folder.
import { dirname, resolve } from "node:path";
import { readInputFile } from "../../fs/read-input-file.ts";
import { confinedUriReader, MAX_GLTF_TOTAL_BYTES } from "./confined-uri.ts";
import { DiagnosticSink } from "./gltf-json.ts";
import { emptyGltfResult, expectGltfOptions, loadGltfBytes, type GltfLoadResult, type LoadGltfOptions } from "./load-gltf.ts";
import { argumentError, expectString } from "../../errors/check-argument.ts";
import { expectNonEmptyString } from "../../errors/check-shape.ts";

/** `loadGltf`'s options for a file on disk: `resources` is replaced by the folder external buffers come from. */
export interface LoadGltfFileOptions extends Omit<LoadGltfOptions, "resources"> {
  /**
   * The folder external buffers are read from (never outside it: `E_GLTF_URI`). Default: the file's own
   * folder for a path; for bytes, without it, external buffers are an error.
   */
  readonly baseDir?: string;
}

/**
 * `loadGltf` for a path (or bytes with a `baseDir`): the file is read with a size limit, and external
 * `uri`s resolve inside its folder only. Never throws on user data; an unreadable file is a diagnostic.
 */
export async function loadGltfFile(source: string | Uint8Array, options: LoadGltfFileOptions = {}): Promise<GltfLoadResult> {
  if (typeof source === "string") expectNonEmptyString("loadGltfFile", "source", source);
  else if (!(source instanceof Uint8Array)) throw argumentError("loadGltfFile", "source", "a path or a Uint8Array of the file's bytes", source);
  expectGltfOptions("loadGltfFile", options);
  if (options.baseDir !== undefined) expectString("loadGltfFile", "options.baseDir", options.baseDir);
  const file = options.fileName ?? (typeof source === "string" ? source : "<input>");
  const sink = new DiagnosticSink(file);
  const budget = { remaining: MAX_GLTF_TOTAL_BYTES };
  let bytes: Uint8Array;
  let baseDir = options.baseDir;
  if (typeof source === "string") {
    const read = readInputFile(source, MAX_GLTF_TOTAL_BYTES, file);
    if (!read.bytes) {
      sink.error(read.diagnostic.code, "", read.diagnostic.message);
      return emptyGltfResult(file, sink);
    }
    bytes = read.bytes;
    budget.remaining -= bytes.byteLength;
    baseDir ??= dirname(resolve(source));
  } else {
    bytes = source;
  }
  const readExternal = baseDir === undefined ? undefined : confinedUriReader(baseDir, sink, budget);
  return loadGltfBytes(bytes, file, options, readExternal, sink);
}
