// An independent reader of GLB accessor data for tests: splits the chunks and reads floats with a
// DataView, so the loader's output can be compared with the file's bytes without sharing its code.
import { readFileSync } from "node:fs";

export interface RawGlb {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly json: any;
  readonly bin: DataView;
}

export function readRawGlb(path: string): RawGlb {
  const bytes = readFileSync(path);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = dv.getUint32(12, true);
  const json = JSON.parse(bytes.subarray(20, 20 + jsonLength).toString("utf8"));
  const binStart = 20 + jsonLength;
  const binLength = dv.getUint32(binStart, true);
  return { json, bin: new DataView(bytes.buffer, bytes.byteOffset + binStart + 8, binLength) };
}

const SIZE: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };

/** The float components of accessor `index` (float accessors only, which is all the test assets use). */
export function rawAccessorFloats(glb: RawGlb, index: number): number[] {
  const acc = glb.json.accessors[index];
  if (acc.componentType !== 5126) throw new Error(`accessor ${index} is not FLOAT`);
  const view = glb.json.bufferViews[acc.bufferView];
  const n = SIZE[acc.type]!;
  const stride = view.byteStride ?? 4 * n;
  const base = (view.byteOffset ?? 0) + (acc.byteOffset ?? 0);
  const out: number[] = [];
  for (let i = 0; i < acc.count; i++) for (let k = 0; k < n; k++) out.push(glb.bin.getFloat32(base + i * stride + 4 * k, true));
  return out;
}
