// glTF accessors read straight from the buffers (glTF 2.0 §3.6), so loading animation needs no glTF
// library: the same code serves loadGltf's bytes and three.js's already-loaded buffers (fromThreeGltf).
// The JSON has been through validateGltfJson, which checks every range read here.
import { COMPONENT_SIZE, FLOAT, TYPE_SIZE, arrayOf, isObject, type JsonObject } from "./gltf-json.ts";

/** An accessor's raw elements: components in file order, sparse substitutions applied. */
export interface AccessorData {
  readonly type: string;
  readonly componentType: number;
  readonly normalized: boolean;
  /** Number of elements. */
  readonly count: number;
  /** count × components values, as stored (normalized integers not yet decoded). */
  readonly values: Float64Array;
}

/** The glTF JSON and the bytes of each of its buffers: everything accessors are read from. */
export interface GltfBuffers {
  readonly json: JsonObject;
  readonly bufferBytes: readonly (Uint8Array | undefined)[];
}

const BYTE = 5120, UNSIGNED_BYTE = 5121, SHORT = 5122, UNSIGNED_SHORT = 5123, UNSIGNED_INT = 5125;

function readComponent(dv: DataView, at: number, componentType: number): number {
  switch (componentType) {
    case BYTE: return dv.getInt8(at);
    case UNSIGNED_BYTE: return dv.getUint8(at);
    case SHORT: return dv.getInt16(at, true);
    case UNSIGNED_SHORT: return dv.getUint16(at, true);
    case UNSIGNED_INT: return dv.getUint32(at, true);
    default: return dv.getFloat32(at, true);
  }
}

/** The view's bytes as a DataView, with its stride (0: tightly packed). */
function viewOf(gltf: GltfBuffers, viewIndex: number): { dv: DataView; stride: number } | undefined {
  const view = arrayOf(gltf.json, "bufferViews")[viewIndex];
  if (!isObject(view)) return undefined;
  const bytes = gltf.bufferBytes[view["buffer"] as number];
  if (!bytes) return undefined;
  const offset = (view["byteOffset"] as number | undefined) ?? 0;
  const dv = new DataView(bytes.buffer, bytes.byteOffset + offset, view["byteLength"] as number);
  return { dv, stride: (view["byteStride"] as number | undefined) ?? 0 };
}

function readElements(
  out: Float64Array, gltf: GltfBuffers, viewIndex: number, byteOffset: number, count: number, components: number, componentType: number,
  target: (i: number) => number,
): void {
  const view = viewOf(gltf, viewIndex);
  if (!view) return;
  const size = COMPONENT_SIZE.get(componentType)!;
  const stride = view.stride || size * components;
  for (let i = 0; i < count; i++) {
    const at = byteOffset + i * stride;
    const o = target(i) * components;
    for (let c = 0; c < components; c++) out[o + c] = readComponent(view.dv, at + c * size, componentType);
  }
}

/**
 * Reads accessor `index`: its buffer view (interleaved or packed; none means zeros) and then its sparse
 * substitutions. Matrix accessors of 1- and 2-byte components (which glTF pads per column) are not
 * used for animation and are read unpadded. Undefined for an index that does not exist.
 */
export function readAccessor(gltf: GltfBuffers, index: number): AccessorData | undefined {
  const a = arrayOf(gltf.json, "accessors")[index];
  if (!isObject(a)) return undefined;
  const type = a["type"] as string;
  const componentType = a["componentType"] as number;
  const components = TYPE_SIZE.get(type) ?? 1;
  const count = a["count"] as number;
  const values = new Float64Array(count * components);
  if (typeof a["bufferView"] === "number") {
    readElements(values, gltf, a["bufferView"], (a["byteOffset"] as number | undefined) ?? 0, count, components, componentType, (i) => i);
  }
  const sparse = a["sparse"];
  if (isObject(sparse) && isObject(sparse["indices"]) && isObject(sparse["values"])) {
    const n = sparse["count"] as number;
    const indices = new Float64Array(n);
    const si = sparse["indices"], sv = sparse["values"];
    readElements(indices, gltf, si["bufferView"] as number, (si["byteOffset"] as number | undefined) ?? 0, n, 1, si["componentType"] as number, (i) => i);
    readElements(values, gltf, sv["bufferView"] as number, (sv["byteOffset"] as number | undefined) ?? 0, n, components, componentType, (i) => indices[i]!);
  }
  return { type, componentType, normalized: a["normalized"] === true, count, values };
}

/** glTF 2.0 §3.11: a normalized integer as the float it stands for. */
export function decodeNormalizedInt(c: number, componentType: number): number {
  switch (componentType) {
    case BYTE: return Math.max(c / 127.0, -1.0);
    case UNSIGNED_BYTE: return c / 255.0;
    case SHORT: return Math.max(c / 32767.0, -1.0);
    case UNSIGNED_SHORT: return c / 65535.0;
    default: return c;
  }
}

/** An accessor's elements as floats, dequantising normalized integers. */
export function accessorFloats(accessor: AccessorData): Float32Array {
  const out = new Float32Array(accessor.values.length);
  if (!accessor.normalized || accessor.componentType === FLOAT) {
    out.set(accessor.values);
  } else {
    for (let i = 0; i < out.length; i++) out[i] = decodeNormalizedInt(accessor.values[i]!, accessor.componentType);
  }
  return out;
}
