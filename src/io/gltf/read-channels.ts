import type { Interpolation } from "../../clip/clip.ts";
import { FLOAT, arrayOf, isObject, ptr, type DiagnosticSink, type JsonObject } from "./gltf-json.ts";
import { accessorFloats, readAccessor, type GltfBuffers } from "./read-accessor.ts";

/** One animation channel whose data passed every check, in the loader's terms. */
export interface ChannelData {
  readonly animation: number;
  readonly channel: number;
  /** glTF node index of the target. */
  readonly node: number;
  readonly path: "translation" | "rotation" | "scale" | "weights";
  readonly interpolation: Interpolation;
  readonly times: Float32Array;
  /** Dequantised values; CUBICSPLINE keeps glTF's (in-tangent, value, out-tangent) triplets. */
  readonly values: Float32Array;
  /** Floats per key value: 3, 4, or the morph target count for weights. */
  readonly width: number;
}

const NORMALIZED_INTS = new Set([5120, 5121, 5122, 5123]);

/**
 * Reads and checks every channel of every animation. A channel with bad data (key times not strictly
 * increasing or negative, NaN/infinite values, wrong accessor type, input/output counts that do not
 * match, a zero-length rotation) gets an error diagnostic and is left out; the others are returned,
 * per animation, in file order.
 */
export function readChannels(gltf: GltfBuffers, sink: DiagnosticSink): ChannelData[][] {
  const json = gltf.json;
  const animDefs = arrayOf(json, "animations");
  const nodeDefs = arrayOf(json, "nodes");
  const meshDefs = arrayOf(json, "meshes");
  const morphCountOf = (node: number): number | undefined => {
    const def = nodeDefs[node];
    const mesh = isObject(def) && typeof def["mesh"] === "number" ? meshDefs[def["mesh"]] : undefined;
    const prim = isObject(mesh) ? arrayOf(mesh, "primitives")[0] : undefined;
    return isObject(prim) && Array.isArray(prim["targets"]) ? prim["targets"].length : undefined;
  };

  return animDefs.map((animationDef, a) => {
    const out: ChannelData[] = [];
    const def = animationDef as JsonObject;
    const channelDefs = arrayOf(def, "channels");
    const samplerDefs = arrayOf(def, "samplers");
    channelDefs.forEach((_, c) => {
      const p = ptr("animations", a, "channels", c);
      const channelDef = channelDefs[c] as JsonObject;
      const target = channelDef["target"] as JsonObject;
      const node = target["node"];
      const path = target["path"];
      if (typeof node !== "number") {
        sink.info("I_GLTF_CHANNEL_NO_NODE", p, "the channel has no target node (an extension's target); it is not loaded");
        return;
      }
      if (path !== "translation" && path !== "rotation" && path !== "scale" && path !== "weights") {
        sink.warning("W_GLTF_CHANNEL_SKIPPED", `${p}/target/path`, `unknown target path ${JSON.stringify(path)}; the channel is not loaded`);
        return;
      }
      const samplerIndex = channelDef["sampler"] as number;
      const sp = ptr("animations", a, "samplers", samplerIndex);
      const samplerDef = samplerDefs[samplerIndex] as JsonObject;
      const input = isObject(samplerDef) ? readAccessor(gltf, samplerDef["input"] as number) : undefined;
      const output = isObject(samplerDef) ? readAccessor(gltf, samplerDef["output"] as number) : undefined;
      if (!input || !output) {
        sink.error("E_GLTF_READ", p, "the channel's sampler has no input or output data");
        return;
      }
      const interpolation = (samplerDef["interpolation"] ?? "LINEAR") as Interpolation;
      const nodeName = nodeNameOf(json, node);
      const what = `${path} of node ${node} ("${nodeName}")`;
      if (input.type !== "SCALAR" || input.componentType !== FLOAT || input.normalized) {
        sink.error("E_GLTF_ACCESSOR_TYPE", `${sp}/input`, `key times must be a float SCALAR accessor (${what})`);
        return;
      }
      const outType = output.type;
      const outComp = output.componentType;
      const floatOrNormalized = outComp === FLOAT || (output.normalized && NORMALIZED_INTS.has(outComp));
      const expectType = path === "rotation" ? "VEC4" : path === "weights" ? "SCALAR" : "VEC3";
      const typeOk = outType === expectType && (path === "translation" || path === "scale" ? outComp === FLOAT : floatOrNormalized);
      if (!typeOk) {
        sink.error("E_GLTF_ACCESSOR_TYPE", `${sp}/output`, `${path} values must be ${expectType} ${path === "translation" || path === "scale" ? "floats" : "floats or normalized integers"} (${what}; got ${outType} component type ${outComp}${output.normalized ? " normalized" : ""})`);
        return;
      }
      const times = accessorFloats(input);
      const keys = times.length;
      for (let i = 0; i < keys; i++) {
        const t = times[i]!;
        if (!Number.isFinite(t) || t < 0) {
          sink.error("E_GLTF_KEY_TIMES", p, `key time ${i} is ${t}, not a finite time ≥ 0 (${what})`);
          return;
        }
        if (i > 0 && !(t > times[i - 1]!)) {
          sink.error("E_GLTF_KEY_TIMES", p, `key times are not ascending: key ${i} (${t} s) is not after key ${i - 1} (${times[i - 1]} s) (${what})`);
          return;
        }
      }
      const perKeySets = interpolation === "CUBICSPLINE" ? 3 : 1;
      const outCount = output.count;
      let width: number = path === "rotation" ? 4 : 3;
      if (path === "weights") {
        if (outCount % (keys * perKeySets) !== 0) {
          sink.error("E_GLTF_SAMPLER_COUNT", p, `${outCount} weight values do not divide into ${keys} keys${perKeySets === 3 ? " × 3 (CUBICSPLINE)" : ""} (${what})`);
          return;
        }
        width = outCount / (keys * perKeySets);
        const morphs = morphCountOf(node);
        if (morphs !== undefined && morphs !== width) {
          sink.error("E_GLTF_SAMPLER_COUNT", p, `${width} weights per key, but the node's mesh has ${morphs} morph targets (${what})`);
          return;
        }
      } else if (outCount !== keys * perKeySets) {
        sink.error("E_GLTF_SAMPLER_COUNT", p, `${keys} key times but ${outCount} output values (expected ${keys * perKeySets}) (${what})`);
        return;
      }
      if (interpolation === "CUBICSPLINE" && keys < 2) {
        sink.error("E_GLTF_SAMPLER_COUNT", p, `CUBICSPLINE needs at least 2 keys (${what})`);
        return;
      }
      const values = accessorFloats(output);
      const bad = values.findIndex((v) => !Number.isFinite(v));
      if (bad >= 0) {
        sink.error("E_GLTF_NONFINITE", p, `value ${bad} of the output accessor is ${values[bad]} (${what})`);
        return;
      }
      if (path === "rotation") {
        // Sampling assumes unit keys; tangents (CUBICSPLINE in/out) are left as they are.
        const step = 4 * perKeySets;
        const first = perKeySets === 3 ? 4 : 0;
        for (let k = 0; k < keys; k++) {
          const o = k * step + first;
          const len = Math.hypot(values[o]!, values[o + 1]!, values[o + 2]!, values[o + 3]!);
          if (!(len > 1e-6)) {
            sink.error("E_GLTF_NONFINITE", p, `rotation key ${k} has zero length (${what})`);
            return;
          }
          for (let i = 0; i < 4; i++) values[o + i]! /= len;
        }
      }
      out.push({ animation: a, channel: c, node, path, interpolation, times, values, width });
    });
    return out;
  });
}

/** A node's name as glTF gives it, or `#<index>` when it has none. */
export function nodeNameOf(json: JsonObject, node: number): string {
  const def = arrayOf(json, "nodes")[node];
  const name = isObject(def) ? def["name"] : undefined;
  return typeof name === "string" && name !== "" ? name : `#${node}`;
}
