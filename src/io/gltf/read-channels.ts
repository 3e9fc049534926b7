import { MathUtils, type Accessor, type Document } from "@gltf-transform/core";
import type { Interpolation } from "../../clip/clip.ts";
import { FLOAT, arrayOf, isObject, ptr, type DiagnosticSink, type JsonObject } from "./gltf-json.ts";

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

/** An accessor's elements as floats, dequantising normalized integers (glTF 2.0 §3.11 formulas). */
export function accessorFloats(accessor: Accessor): Float32Array {
  const array = accessor.getArray();
  if (!array) return new Float32Array(0);
  if (!accessor.getNormalized()) return Float32Array.from(array);
  const type = accessor.getComponentType();
  const out = new Float32Array(array.length);
  for (let i = 0; i < array.length; i++) out[i] = MathUtils.decodeNormalizedInt(array[i]!, type);
  return out;
}

/**
 * Reads and checks every channel of every animation. A channel with bad data (key times not strictly
 * increasing or negative, NaN/infinite values, wrong accessor type, input/output counts that do not
 * match, a zero-length rotation) gets an error diagnostic and is left out; the others are returned,
 * per animation, in file order.
 */
export function readChannels(doc: Document, json: JsonObject, sink: DiagnosticSink): ChannelData[][] {
  const nodes = doc.getRoot().listNodes();
  const animations = doc.getRoot().listAnimations();
  const animDefs = arrayOf(json, "animations");
  const nodeDefs = arrayOf(json, "nodes");
  const meshDefs = arrayOf(json, "meshes");
  const morphCountOf = (node: number): number | undefined => {
    const def = nodeDefs[node];
    const mesh = isObject(def) && typeof def["mesh"] === "number" ? meshDefs[def["mesh"]] : undefined;
    const prim = isObject(mesh) ? arrayOf(mesh, "primitives")[0] : undefined;
    return isObject(prim) && Array.isArray(prim["targets"]) ? prim["targets"].length : undefined;
  };

  return animations.map((animation, a) => {
    const out: ChannelData[] = [];
    const def = animDefs[a] as JsonObject;
    const channelDefs = arrayOf(def, "channels");
    const samplerDefs = arrayOf(def, "samplers");
    const channels = animation.listChannels();
    channels.forEach((channel, c) => {
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
      const sampler = channel.getSampler();
      const input = sampler?.getInput();
      const output = sampler?.getOutput();
      if (!sampler || !input || !output) {
        sink.error("E_GLTF_READ", p, "the channel's sampler has no input or output data");
        return;
      }
      const interpolation = (samplerDef["interpolation"] ?? "LINEAR") as Interpolation;
      const nodeName = nodes[node]?.getName() || `#${node}`;
      const what = `${path} of node ${node} ("${nodeName}")`;
      if (input.getType() !== "SCALAR" || input.getComponentType() !== FLOAT || input.getNormalized()) {
        sink.error("E_GLTF_ACCESSOR_TYPE", `${sp}/input`, `key times must be a float SCALAR accessor (${what})`);
        return;
      }
      const outType = output.getType();
      const outComp = output.getComponentType();
      const floatOrNormalized = outComp === FLOAT || (output.getNormalized() && NORMALIZED_INTS.has(outComp));
      const expectType = path === "rotation" ? "VEC4" : path === "weights" ? "SCALAR" : "VEC3";
      const typeOk = outType === expectType && (path === "translation" || path === "scale" ? outComp === FLOAT : floatOrNormalized);
      if (!typeOk) {
        sink.error("E_GLTF_ACCESSOR_TYPE", `${sp}/output`, `${path} values must be ${expectType} ${path === "translation" || path === "scale" ? "floats" : "floats or normalized integers"} (${what}; got ${outType} component type ${outComp}${output.getNormalized() ? " normalized" : ""})`);
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
      const outCount = output.getCount();
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
