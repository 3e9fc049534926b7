import { dirname, resolve } from "node:path";
import { NodeIO, type Document } from "@gltf-transform/core";
import type { Diagnostic } from "../../diagnostics/diagnostic.ts";
import { readInputFile } from "../../fs/read-input-file.ts";
import { confinedUriReader, MAX_GLTF_TOTAL_BYTES } from "./confined-uri.ts";
import { DiagnosticSink } from "./gltf-json.ts";
import { readGltfContainer } from "./read-gltf-container.ts";

/** What `readGltfDocument` gives: a gltf-transform Document to edit and write, or why there is none. */
export interface GltfDocumentResult {
  readonly doc?: Document;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Reads a .glb or .gltf file, with its buffers and images, into a @gltf-transform/core Document for
 * editing and writing back. Every byte comes through the same bounded reader and URI confinement as
 * `loadGltf` (a URI may only name a regular file inside the glTF's folder), so nothing outside the
 * folder can be copied into an output. `io` is the NodeIO with the extensions to keep registered.
 */
export async function readGltfDocument(path: string, io: NodeIO, label: string = path): Promise<GltfDocumentResult> {
  const sink = new DiagnosticSink(label);
  const read = readInputFile(path, MAX_GLTF_TOTAL_BYTES, label);
  if (!read.bytes) return { diagnostics: [read.diagnostic] };
  const budget = { remaining: MAX_GLTF_TOTAL_BYTES - read.bytes.byteLength };
  const container = await readGltfContainer(read.bytes, sink, {
    readExternal: confinedUriReader(dirname(resolve(path)), sink, budget),
    readImages: true,
  });
  if (!container) return { diagnostics: sink.list };
  try {
    const doc = await io.readJSON({ json: container.json as never, resources: container.resources as never });
    return { doc, diagnostics: sink.list };
  } catch (err) {
    sink.error("E_GLTF_READ", "", `the glTF could not be read for writing: ${err instanceof Error ? err.message : String(err)}`);
    return { diagnostics: sink.list };
  }
}
