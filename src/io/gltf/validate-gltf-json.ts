import {
  COMPONENT_SIZE, TYPE_SIZE, arrayOf, isFiniteNumberArray, isIndex, isObject, ptr,
  type DiagnosticSink, type JsonObject,
} from "./gltf-json.ts";

/**
 * Checks the parts of a glTF's JSON that the loader and @gltf-transform/core rely on before either
 * trusts them: buffer, buffer view and accessor ranges against the real bytes, every index the
 * node tree, skins and animations use, the node hierarchy (one parent, no cycles) and the node
 * transforms (finite). gltf-transform validates little itself (an accessor past its buffer reads short
 * or throws), so anything wrong here is reported as an error and the file is not handed on.
 *
 * `bufferBytes[i]` is the data found for `buffers[i]` (undefined when it could not be found).
 * Returns true when the structure is sound enough to load (no errors were added).
 */
export function validateGltfJson(json: JsonObject, bufferBytes: readonly (Uint8Array | undefined)[], sink: DiagnosticSink): boolean {
  const before = sink.errorCount;
  const asset = json["asset"];
  if (!isObject(asset) || asset["version"] !== "2.0") {
    sink.error("E_GLTF_READ", "/asset/version", `not a glTF 2.0 file (asset.version is ${isObject(asset) ? JSON.stringify(asset["version"]) : "missing"})`);
    return false;
  }
  for (const key of ["nodes", "skins", "animations", "accessors", "bufferViews", "buffers", "meshes", "scenes"]) {
    if (json[key] !== undefined && !Array.isArray(json[key])) sink.error("E_GLTF_READ", ptr(key), `${key} must be an array`);
  }
  if (sink.errorCount > before) return false;

  const buffers = arrayOf(json, "buffers");
  const bufferLength: number[] = [];
  buffers.forEach((b, i) => {
    const p = ptr("buffers", i);
    const declared = isObject(b) ? b["byteLength"] : undefined;
    if (!isObject(b) || typeof declared !== "number" || !Number.isInteger(declared) || declared < 0) {
      sink.error("E_GLTF_READ", p, "a buffer needs an integer byteLength ≥ 0");
      bufferLength.push(0);
      return;
    }
    const data = bufferBytes[i];
    if (!data) {
      sink.error("E_GLTF_READ", p, `the buffer's data was not found${typeof b["uri"] === "string" && !b["uri"].startsWith("data:") ? ` (external file "${b["uri"]}")` : ""}`);
    } else if (data.byteLength < declared) {
      sink.error("E_GLTF_RANGE", p, `the buffer declares ${declared} bytes but only ${data.byteLength} are present (truncated file?)`);
    }
    bufferLength.push(declared);
  });

  const views = arrayOf(json, "bufferViews");
  // -1 marks a view already reported as broken, so its accessors are not reported again.
  const viewLength: number[] = [];
  views.forEach((v, i) => {
    const p = ptr("bufferViews", i);
    viewLength.push(-1);
    if (!isObject(v)) return sink.error("E_GLTF_READ", p, "a buffer view must be an object");
    if (!isIndex(v["buffer"], buffers.length)) return sink.error("E_GLTF_REF", childPtr(p, "buffer"), `buffer ${String(v["buffer"])} does not exist`);
    const offset = v["byteOffset"] ?? 0;
    const length = v["byteLength"];
    if (!isNonNegInt(offset) || !isNonNegInt(length) || length < 1) return sink.error("E_GLTF_READ", p, "byteOffset and byteLength must be integers (byteLength ≥ 1)");
    if (offset + length > bufferLength[v["buffer"]]!) {
      return sink.error("E_GLTF_RANGE", p, `bytes ${offset}..${offset + length} lie outside buffer ${v["buffer"]} (${bufferLength[v["buffer"]]} bytes)`);
    }
    const stride = v["byteStride"];
    if (stride !== undefined && !(isNonNegInt(stride) && stride >= 4 && stride <= 252 && stride % 4 === 0)) {
      return sink.error("E_GLTF_READ", childPtr(p, "byteStride"), `byteStride ${String(stride)} must be a multiple of 4 in 4..252`);
    }
    viewLength[i] = length;
  });

  const accessors = arrayOf(json, "accessors");
  accessors.forEach((a, i) => validateAccessor(a, ptr("accessors", i), views, viewLength, sink, bufferBytes));

  const nodes = arrayOf(json, "nodes");
  const meshes = arrayOf(json, "meshes");
  const skins = arrayOf(json, "skins");
  const parent = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((n, i) => {
    const p = ptr("nodes", i);
    if (!isObject(n)) return sink.error("E_GLTF_READ", p, "a node must be an object");
    const children = n["children"];
    if (children !== undefined && !Array.isArray(children)) return sink.error("E_GLTF_READ", childPtr(p, "children"), "children must be an array");
    (children ?? []).forEach((c: unknown, k: number) => {
      if (!isIndex(c, nodes.length)) return sink.error("E_GLTF_REF", ptr("nodes", i, "children", k), `node ${String(c)} does not exist`);
      if (parent[c] !== -1) return sink.error("E_GLTF_HIERARCHY", ptr("nodes", i, "children", k), `node ${c} already has parent ${parent[c]}`);
      parent[c] = i;
    });
    if (n["mesh"] !== undefined && !isIndex(n["mesh"], meshes.length)) sink.error("E_GLTF_REF", childPtr(p, "mesh"), `mesh ${String(n["mesh"])} does not exist`);
    if (n["skin"] !== undefined && !isIndex(n["skin"], skins.length)) sink.error("E_GLTF_REF", childPtr(p, "skin"), `skin ${String(n["skin"])} does not exist`);
    const checks: [string, number][] = [["matrix", 16], ["translation", 3], ["rotation", 4], ["scale", 3]];
    for (const [key, len] of checks) {
      if (n[key] !== undefined && !isFiniteNumberArray(n[key], len)) {
        sink.error("E_GLTF_NONFINITE", childPtr(p, key), `${key} must be ${len} finite numbers`);
      }
    }
  });
  // A cycle leaves every node on it with a parent; walk up from each node with a step limit.
  for (let i = 0; i < nodes.length; i++) {
    let n = parent[i]!;
    let steps = 0;
    while (n !== -1 && steps <= nodes.length) {
      if (n === i) break;
      n = parent[n]!;
      steps++;
    }
    if (n === i) {
      sink.error("E_GLTF_HIERARCHY", ptr("nodes", i), `node ${i} is its own ancestor (a cycle in children)`);
      break;
    }
  }

  skins.forEach((s, i) => {
    const p = ptr("skins", i);
    if (!isObject(s)) return sink.error("E_GLTF_READ", p, "a skin must be an object");
    const joints = s["joints"];
    if (!Array.isArray(joints) || joints.length === 0) return sink.error("E_GLTF_SKIN", childPtr(p, "joints"), "a skin needs at least one joint");
    if (joints.length > 0x7fff) return sink.error("E_GLTF_SKIN", childPtr(p, "joints"), `${joints.length} joints is more than the 32767 a skeleton can hold`);
    const seen = new Set<number>();
    joints.forEach((j: unknown, k: number) => {
      if (!isIndex(j, nodes.length)) return sink.error("E_GLTF_REF", ptr("skins", i, "joints", k), `node ${String(j)} does not exist`);
      if (seen.has(j)) sink.error("E_GLTF_SKIN", ptr("skins", i, "joints", k), `node ${j} is listed twice`);
      seen.add(j);
    });
    if (s["skeleton"] !== undefined && !isIndex(s["skeleton"], nodes.length)) sink.error("E_GLTF_REF", childPtr(p, "skeleton"), `node ${String(s["skeleton"])} does not exist`);
    const ibm = s["inverseBindMatrices"];
    if (ibm !== undefined) {
      if (!isIndex(ibm, accessors.length)) return sink.error("E_GLTF_REF", childPtr(p, "inverseBindMatrices"), `accessor ${String(ibm)} does not exist`);
      const acc = accessors[ibm];
      if (!isObject(acc) || acc["type"] !== "MAT4" || acc["componentType"] !== 5126 || !(typeof acc["count"] === "number" && acc["count"] >= joints.length)) {
        sink.error("E_GLTF_ACCESSOR_TYPE", childPtr(p, "inverseBindMatrices"), `accessor ${ibm} must hold ${joints.length} float MAT4 matrices`);
      }
    }
  });

  arrayOf(json, "animations").forEach((anim, a) => {
    const p = ptr("animations", a);
    if (!isObject(anim)) return sink.error("E_GLTF_READ", p, "an animation must be an object");
    const samplers = anim["samplers"];
    const channels = anim["channels"];
    if (!Array.isArray(samplers) || !Array.isArray(channels)) return sink.error("E_GLTF_READ", p, "an animation needs channels and samplers arrays");
    samplers.forEach((smp: unknown, k: number) => {
      const sp = ptr("animations", a, "samplers", k);
      if (!isObject(smp)) return sink.error("E_GLTF_READ", sp, "a sampler must be an object");
      for (const key of ["input", "output"]) {
        if (!isIndex(smp[key], accessors.length)) sink.error("E_GLTF_REF", childPtr(sp, key), `accessor ${String(smp[key])} does not exist`);
      }
      const interp = smp["interpolation"];
      if (interp !== undefined && interp !== "LINEAR" && interp !== "STEP" && interp !== "CUBICSPLINE") {
        sink.error("E_GLTF_READ", childPtr(sp, "interpolation"), `unknown interpolation ${JSON.stringify(interp)}`);
      }
    });
    channels.forEach((ch: unknown, k: number) => {
      const cp = ptr("animations", a, "channels", k);
      if (!isObject(ch) || !isObject(ch["target"])) return sink.error("E_GLTF_READ", cp, "a channel needs a target object");
      if (!isIndex(ch["sampler"], samplers.length)) sink.error("E_GLTF_REF", childPtr(cp, "sampler"), `sampler ${String(ch["sampler"])} does not exist`);
      const target = ch["target"];
      if (target["node"] !== undefined && !isIndex(target["node"], nodes.length)) {
        sink.error("E_GLTF_REF", ptr("animations", a, "channels", k, "target", "node"), `node ${String(target["node"])} does not exist`);
      }
      if (typeof target["path"] !== "string") sink.error("E_GLTF_READ", ptr("animations", a, "channels", k, "target", "path"), "the target path must be a string");
    });
  });

  arrayOf(json, "scenes").forEach((sc, i) => {
    if (!isObject(sc)) return sink.error("E_GLTF_READ", ptr("scenes", i), "a scene must be an object");
    arrayOf(sc, "nodes").forEach((n, k) => {
      if (!isIndex(n, nodes.length)) sink.error("E_GLTF_REF", ptr("scenes", i, "nodes", k), `node ${String(n)} does not exist`);
    });
  });
  if (json["scene"] !== undefined && !isIndex(json["scene"], arrayOf(json, "scenes").length)) sink.error("E_GLTF_REF", "/scene", `scene ${String(json["scene"])} does not exist`);
  return sink.errorCount === before;
}

function isNonNegInt(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 0;
}

function childPtr(parent: string, key: string): string {
  return `${parent}/${key}`;
}

function validateAccessor(
  a: unknown, p: string, views: unknown[], viewLength: readonly number[], sink: DiagnosticSink, bufferBytes: readonly (Uint8Array | undefined)[],
): void {
  if (!isObject(a)) return sink.error("E_GLTF_READ", p, "an accessor must be an object");
  const componentSize = COMPONENT_SIZE.get(a["componentType"] as number);
  const typeSize = TYPE_SIZE.get(a["type"] as string);
  if (componentSize === undefined) return sink.error("E_GLTF_ACCESSOR_TYPE", childPtr(p, "componentType"), `unknown componentType ${String(a["componentType"])}`);
  if (typeSize === undefined) return sink.error("E_GLTF_ACCESSOR_TYPE", childPtr(p, "type"), `unknown type ${JSON.stringify(a["type"])}`);
  const count = a["count"];
  if (!isNonNegInt(count) || count < 1) return sink.error("E_GLTF_READ", childPtr(p, "count"), "count must be an integer ≥ 1");
  const elementSize = componentSize * typeSize;
  const checkRange = (viewIndex: unknown, byteOffset: unknown, n: number, size: number, where: string): void => {
    if (!isIndex(viewIndex, views.length)) return sink.error("E_GLTF_REF", `${where}/bufferView`, `buffer view ${String(viewIndex)} does not exist`);
    const offset = byteOffset ?? 0;
    if (!isNonNegInt(offset)) return sink.error("E_GLTF_READ", `${where}/byteOffset`, "byteOffset must be an integer ≥ 0");
    if (viewLength[viewIndex]! < 0) return;
    const view = views[viewIndex];
    const stride = isObject(view) && typeof view["byteStride"] === "number" ? view["byteStride"] : size;
    const end = offset + stride * (n - 1) + size;
    if (end > viewLength[viewIndex]!) {
      sink.error("E_GLTF_RANGE", where, `needs bytes ${offset}..${end} of buffer view ${viewIndex}, which has ${viewLength[viewIndex]} bytes`);
    }
  };
  if (a["bufferView"] !== undefined) checkRange(a["bufferView"], a["byteOffset"], count, elementSize, p);
  const sparse = a["sparse"];
  if (sparse !== undefined) {
    const sp = childPtr(p, "sparse");
    if (!isObject(sparse) || !isNonNegInt(sparse["count"]) || sparse["count"] < 1 || sparse["count"] > count
      || !isObject(sparse["indices"]) || !isObject(sparse["values"])) {
      return sink.error("E_GLTF_READ", sp, "sparse needs count (1..accessor count), indices and values");
    }
    const indexSize = COMPONENT_SIZE.get(sparse["indices"]["componentType"] as number);
    if (indexSize === undefined || sparse["indices"]["componentType"] === 5120 || sparse["indices"]["componentType"] === 5122) {
      return sink.error("E_GLTF_ACCESSOR_TYPE", `${sp}/indices/componentType`, "sparse indices must be unsigned integers");
    }
    checkRange(sparse["indices"]["bufferView"], sparse["indices"]["byteOffset"], sparse["count"], indexSize, `${sp}/indices`);
    const before = sink.errorCount;
    checkRange(sparse["values"]["bufferView"], sparse["values"]["byteOffset"], sparse["count"], elementSize, `${sp}/values`);
    if (sink.errorCount === before) checkSparseIndices(sparse["indices"], sparse["count"], indexSize, count, views, bufferBytes, `${sp}/indices`, sink);
  }
}

/**
 * Sparse indices must be strictly increasing and below the accessor's count (glTF 2.0 §3.6.2.3);
 * an index out of range would otherwise write past the accessor's elements.
 */
function checkSparseIndices(
  indices: JsonObject, n: number, size: number, count: number, views: unknown[], bufferBytes: readonly (Uint8Array | undefined)[], where: string, sink: DiagnosticSink,
): void {
  const view = views[indices["bufferView"] as number];
  if (!isObject(view) || !isIndex(view["buffer"], bufferBytes.length)) return;
  const bytes = bufferBytes[view["buffer"]];
  if (!bytes) return;
  const start = ((view["byteOffset"] as number | undefined) ?? 0) + ((indices["byteOffset"] as number | undefined) ?? 0);
  if (start + n * size > bytes.byteLength) return;
  const dv = new DataView(bytes.buffer, bytes.byteOffset + start, n * size);
  let previous = -1;
  for (let i = 0; i < n; i++) {
    const index = size === 1 ? dv.getUint8(i) : size === 2 ? dv.getUint16(2 * i, true) : dv.getUint32(4 * i, true);
    if (index >= count) return sink.error("E_GLTF_RANGE", where, `sparse index ${i} is ${index}; the accessor has ${count} elements`);
    if (index <= previous) return sink.error("E_GLTF_RANGE", where, `sparse indices must increase strictly; index ${i} is ${index} after ${previous}`);
    previous = index;
  }
}
