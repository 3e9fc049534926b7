import { tooDeepAt } from "../../json/nesting-depth.ts";
import { arrayOf, isObject, type DiagnosticSink, type JsonObject } from "./gltf-json.ts";

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
/** Deepest nesting of arrays and objects accepted in glTF JSON (extras included). */
export const MAX_GLTF_JSON_DEPTH = 64;
/** The resource key @gltf-transform/core uses for a GLB's BIN chunk. */
export const GLB_BUFFER_KEY = "@glb.bin";

/** A glTF split into its JSON and its binary resources, before any interpretation. */
export interface GltfContainer {
  readonly json: JsonObject;
  /** Resources by URI (and `@glb.bin` for a GLB's BIN chunk), as @gltf-transform/core's JSONDocument. */
  readonly resources: Record<string, Uint8Array>;
  /** The data found for each `buffers[i]` (undefined when missing). */
  readonly bufferBytes: (Uint8Array | undefined)[];
}

/**
 * Reads the file a relative glTF URI names, or reports why not to the sink (at `pointer`) and returns
 * undefined. Paths are confined by the caller (see confined-uri.ts); `data:` URIs never reach it.
 */
export type ExternalReader = (uri: string, pointer: string, checkOnly?: boolean) => Uint8Array | undefined;

export interface ContainerOptions {
  /** Reads external (non-`data:`) URIs; without it they are left missing. */
  readonly readExternal?: ExternalReader;
  /** Also read `images[].uri` (needed to write the document back out; loading animation does not). */
  readonly readImages?: boolean;
}

/**
 * Splits a GLB (checking the header and chunk lengths against the real byte count, so a truncated file
 * is named as such) or parses glTF JSON text, then finds each buffer's bytes: the BIN chunk, an
 * embedded `data:` URI, or (with `readExternal`) a file beside the glTF. Adds diagnostics and returns
 * undefined when the container is unusable.
 */
export async function readGltfContainer(
  bytes: Uint8Array,
  sink: DiagnosticSink,
  options: ContainerOptions = {},
): Promise<GltfContainer | undefined> {
  const { readExternal } = options;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let jsonBytes: Uint8Array;
  const resources: Record<string, Uint8Array> = {};
  const isGlb = bytes.byteLength >= 4 && dv.getUint32(0, true) === GLB_MAGIC;
  if (isGlb) {
    if (bytes.byteLength < 20) {
      sink.error("E_GLB_TRUNCATED", "", `the GLB has ${bytes.byteLength} bytes, fewer than its 12-byte header and a chunk header`);
      return undefined;
    }
    const version = dv.getUint32(4, true);
    if (version !== 2) {
      sink.error("E_GLTF_READ", "", `GLB version ${version} is not supported (only 2)`);
      return undefined;
    }
    const declared = dv.getUint32(8, true);
    if (declared > bytes.byteLength) {
      sink.error("E_GLB_TRUNCATED", "", `the GLB header declares ${declared} bytes but the file has ${bytes.byteLength}`);
      return undefined;
    }
    let offset = 12;
    let json: Uint8Array | undefined;
    let chunkIndex = 0;
    while (offset + 8 <= declared) {
      const length = dv.getUint32(offset, true);
      const type = dv.getUint32(offset + 4, true);
      if (offset + 8 + length > declared) {
        sink.error("E_GLB_TRUNCATED", "", `GLB chunk ${chunkIndex} (${length} bytes at byte ${offset + 8}) runs past the end of the file (${declared} bytes)`);
        return undefined;
      }
      const data = bytes.subarray(offset + 8, offset + 8 + length);
      if (chunkIndex === 0) {
        if (type !== CHUNK_JSON) {
          sink.error("E_GLTF_READ", "", "the GLB's first chunk is not JSON");
          return undefined;
        }
        json = data;
      } else if (type === CHUNK_BIN && chunkIndex === 1) {
        resources[GLB_BUFFER_KEY] = data;
      }
      offset += 8 + length;
      chunkIndex++;
    }
    if (!json) {
      sink.error("E_GLB_TRUNCATED", "", "the GLB has no JSON chunk");
      return undefined;
    }
    jsonBytes = json;
  } else {
    jsonBytes = bytes;
  }

  let json: unknown;
  // A BOM and NUL padding (some exporters pad the JSON chunk with zeros, not spaces) are tolerated.
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(trimPadding(jsonBytes)).replace(/^\uFEFF/, "");
    const deepAt = tooDeepAt(text, MAX_GLTF_JSON_DEPTH);
    if (deepAt >= 0) {
      sink.error("E_JSON_TOO_DEEP", "", `the glTF JSON nests deeper than ${MAX_GLTF_JSON_DEPTH} levels (at character ${deepAt})`);
      return undefined;
    }
    json = JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    sink.error("E_GLTF_READ", "", `${isGlb ? "the GLB's JSON chunk" : "the file"} is not valid glTF JSON: ${why}`);
    return undefined;
  }
  if (!isObject(json)) {
    sink.error("E_GLTF_READ", "", "the glTF JSON is not an object");
    return undefined;
  }

  const bufferBytes: (Uint8Array | undefined)[] = [];
  const buffers = arrayOf(json, "buffers");
  for (let i = 0; i < buffers.length; i++) {
    const b = buffers[i];
    const uri = isObject(b) ? b["uri"] : undefined;
    if (uri === undefined) {
      bufferBytes.push(i === 0 ? resources[GLB_BUFFER_KEY] : undefined);
    } else if (typeof uri !== "string") {
      bufferBytes.push(undefined);
    } else if (uri.startsWith("data:")) {
      const comma = uri.indexOf(",");
      const data = comma >= 0 && /;base64$/i.test(uri.slice(0, comma)) ? decodeBase64(uri.slice(comma + 1)) : undefined;
      if (data) resources[uri] = data;
      bufferBytes.push(data);
    } else if (readExternal) {
      const data = readExternal(uri, `/buffers/${i}/uri`);
      if (data) resources[uri] = data;
      bufferBytes.push(data);
    } else {
      bufferBytes.push(undefined);
    }
  }
  if (readExternal) {
    // Image URIs obey the same confinement whether or not the images are needed (read only to write).
    const images = arrayOf(json, "images");
    for (let i = 0; i < images.length; i++) {
      const img = images[i];
      const uri = isObject(img) ? img["uri"] : undefined;
      if (typeof uri !== "string" || uri.startsWith("data:") || resources[uri]) continue;
      const data = readExternal(uri, `/images/${i}/uri`, options.readImages !== true);
      if (data && options.readImages) resources[uri] = data;
    }
  }
  if (sink.errorCount > 0) return undefined;
  return { json, resources, bufferBytes };
}

/** Decodes base64 with the platform's atob (Node 16+ and browsers), undefined when it is not base64. */
function decodeBase64(text: string): Uint8Array | undefined {
  try {
    const binary = atob(text);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/**
 * The JSON bytes without trailing NUL or ASCII whitespace padding, found by one backward loop (a
 * regular expression such as /[\0\s]+$/ is quadratic on a long run of whitespace that does not end the text).
 */
function trimPadding(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  while (end > 0) {
    const c = bytes[end - 1]!;
    if (c !== 0 && c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    end--;
  }
  return bytes.subarray(0, end);
}
