// Node only (animgraph/node): loading a .vrma by path, with a .gltf's external buffers read from its folder.
import { dirname, resolve } from "node:path";
import { readInputFile } from "../../fs/read-input-file.ts";
import { MAX_GLTF_TOTAL_BYTES } from "../gltf/confined-uri.ts";
import { loadGltfFile } from "../gltf/load-gltf-file.ts";
import { failedVrma, vrmaFromGltf, type VrmaLoadResult } from "./load-vrma.ts";

/**
 * `loadVrma` on a file: read with the glTF size limit; a .gltf's external buffers are read from its own
 * folder, confined there as `loadGltfFile` confines them. `label` is the name diagnostics show (default:
 * the path). Never throws on user data.
 */
export async function loadVrmaFile(path: string, label: string = path): Promise<VrmaLoadResult> {
  const read = readInputFile(path, MAX_GLTF_TOTAL_BYTES, label);
  if (!read.bytes) return failedVrma(label, [read.diagnostic]);
  const gltf = await loadGltfFile(read.bytes, { fileName: label, baseDir: dirname(resolve(path)) });
  return vrmaFromGltf(read.bytes, gltf);
}
