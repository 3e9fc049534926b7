// Loads a glTF binary with three.js's own GLTFLoader in Node (no WebGL, no DOM), as an independent
// reference for animgraph's loader and sampler. Node has no image decoding (GLTFLoader's TextureLoader
// needs `document`), so textures are stripped from the JSON chunk first: animation and skeleton data do
// not depend on them.
import { readFileSync } from "node:fs";
import { GLTFLoader, type GLTF } from "three/examples/jsm/loaders/GLTFLoader.js";

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a;

/** Removes every `…Texture` reference (baseColorTexture, normalTexture, extension textures…) below `value`. */
function dropTextureRefs(value: unknown): void {
  if (Array.isArray(value)) {
    for (const v of value) dropTextureRefs(v);
  } else if (value !== null && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      if (/Texture$/.test(key)) delete obj[key];
      else dropTextureRefs(obj[key]);
    }
  }
}

/** A copy of the GLB with images, textures and samplers removed from its JSON chunk (BIN chunk kept). */
export function glbWithoutTextures(glb: Uint8Array): ArrayBuffer {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  if (view.getUint32(0, true) !== GLB_MAGIC) throw new Error("not a GLB file");
  const jsonLength = view.getUint32(12, true);
  if (view.getUint32(16, true) !== CHUNK_JSON) throw new Error("GLB: first chunk is not JSON");
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength))) as Record<string, unknown>;
  delete json.images;
  delete json.textures;
  delete json.samplers;
  dropTextureRefs(json.materials);
  const rest = glb.subarray(20 + jsonLength); // the BIN chunk header and data, unchanged
  let text = JSON.stringify(json);
  while (text.length % 4 !== 0) text += " "; // GLB chunks are 4-byte aligned; JSON pads with spaces
  const jsonBytes = new TextEncoder().encode(text);
  const out = new Uint8Array(12 + 8 + jsonBytes.length + rest.length);
  const outView = new DataView(out.buffer);
  outView.setUint32(0, GLB_MAGIC, true);
  outView.setUint32(4, 2, true);
  outView.setUint32(8, out.length, true);
  outView.setUint32(12, jsonBytes.length, true);
  outView.setUint32(16, CHUNK_JSON, true);
  out.set(jsonBytes, 20);
  out.set(rest, 20 + jsonBytes.length);
  return out.buffer;
}

/** Parses a .glb file with three.js's GLTFLoader (textures stripped). */
export function loadGltfWithThree(path: string): Promise<GLTF> {
  const data = glbWithoutTextures(readFileSync(path));
  return new GLTFLoader().parseAsync(data, "");
}
