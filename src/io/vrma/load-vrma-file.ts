import { dirname, resolve } from "node:path";
import { readInputFile } from "../../fs/read-input-file.ts";
import { mat4Identity } from "../../math/mat4.ts";
import { MAX_GLTF_TOTAL_BYTES } from "../gltf/confined-uri.ts";
import { loadVrma, type VrmaLoadResult } from "./load-vrma.ts";

/**
 * `loadVrma` on a file (Node only: it reads by path). A .gltf's external buffers are read from its own
 * folder, confined there as loadGltf confines them. `label` is the name diagnostics show (default: the path).
 */
export async function loadVrmaFile(path: string, label: string = path): Promise<VrmaLoadResult> {
  const read = readInputFile(path, MAX_GLTF_TOTAL_BYTES, label);
  if (!read.bytes) {
    return { ok: false, file: label, rootTransform: mat4Identity(new Float32Array(16)), clips: [], humanBones: new Map(), expressions: [], diagnostics: [read.diagnostic] };
  }
  return loadVrma(read.bytes, { fileName: label, baseDir: dirname(resolve(path)) });
}
