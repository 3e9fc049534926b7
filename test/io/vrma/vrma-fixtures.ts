// .vrma variants for tests: the real test asset with its JSON chunk edited (BIN chunk kept as is).
import { readFileSync } from "node:fs";
import { sharedAsset } from "../../helpers/assets.ts";

export const TEST_VRMA = sharedAsset("vrma/test.vrma");

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type GltfJson = any;

/** The asset's JSON and BIN chunk data. */
function split(glb: Uint8Array): { json: GltfJson; bin: Uint8Array } {
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength))) as GltfJson;
  const binLength = dv.getUint32(20 + jsonLength, true);
  return { json, bin: glb.subarray(28 + jsonLength, 28 + jsonLength + binLength) };
}

/** A GLB from JSON and BIN data (chunks padded to 4 bytes as GLB requires). */
export function buildGlb(json: GltfJson, bin: Uint8Array): Uint8Array {
  let text = JSON.stringify(json);
  while (text.length % 4 !== 0) text += " ";
  const jsonBytes = new TextEncoder().encode(text);
  const binPadded = (bin.length + 3) & ~3;
  const out = new Uint8Array(12 + 8 + jsonBytes.length + 8 + binPadded);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, out.length, true);
  dv.setUint32(12, jsonBytes.length, true);
  dv.setUint32(16, 0x4e4f534a, true);
  out.set(jsonBytes, 20);
  dv.setUint32(20 + jsonBytes.length, binPadded, true);
  dv.setUint32(24 + jsonBytes.length, 0x004e4942, true);
  out.set(bin, 28 + jsonBytes.length);
  return out;
}

/** The test asset's bytes. */
export function testVrmaBytes(): Uint8Array {
  return new Uint8Array(readFileSync(TEST_VRMA));
}

/** The test asset with its glTF JSON changed by `edit`. */
export function editedVrma(edit: (json: GltfJson) => void): Uint8Array {
  const { json, bin } = split(testVrmaBytes());
  edit(json);
  return buildGlb(json, bin);
}
