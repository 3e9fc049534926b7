import type { Object3D } from "three";
import { DiagnosticSink, isObject, type JsonObject } from "../io/gltf/gltf-json.ts";
import { emptyGltfResult, gltfResultFromJson, type GltfLoadResult, type LoadGltfOptions } from "../io/gltf/load-gltf.ts";
import { bindThreeSkeleton, type ThreeBinding } from "./three-binding.ts";
import { argumentError, expectObject } from "../errors/check-argument.ts";

/**
 * The parts of three.js's `GLTF` (what `GLTFLoader.load`/`parse`/`loadAsync` give) that animgraph
 * reads: the scene, and the parser with the file's JSON, its loaded buffers and which node each object
 * came from. Typed structurally so that animgraph does not import GLTFLoader.
 */
export interface ThreeGltf {
  /** The loaded scene; skeletons are bound to the objects in it. */
  readonly scene: Object3D;
  /** GLTFLoader's `GLTFParser`, of which only these members are read. */
  readonly parser: {
    /** The file's glTF JSON, as parsed by GLTFLoader. */
    readonly json: unknown;
    /** Which glTF node (and mesh, material …) each object was made from. */
    readonly associations: {
      /** The glTF indices `object` was made from; `nodes` is its node index. */
      get(object: Object3D): { nodes?: number | undefined } | undefined;
    };
    /** Resolves to the bytes (an ArrayBuffer) of glTF buffer `index`, which GLTFLoader has already loaded. */
    getDependency(type: "buffer", index: number): Promise<unknown>;
  };
}

/** What `fromThreeGltf` returns: exactly `loadGltf`'s result, plus each skeleton bound to the loaded scene. */
export interface FromThreeGltfResult extends GltfLoadResult {
  /** Per skeleton: its joints bound to the objects of `gltf.scene` that GLTFLoader made from the same nodes. */
  readonly bindings: readonly ThreeBinding[];
  /** `bindings[0]` (undefined when the file has no skeleton). */
  readonly binding: ThreeBinding | undefined;
}

/**
 * animgraph's skeletons, clips and three.js bindings straight from GLTFLoader's result: the glTF JSON
 * and the buffers GLTFLoader already loaded go through the same code as `loadGltf`, so the result is
 * bit for bit `loadGltf`'s on the same file (test/three/from-three-gltf.test.ts holds that on every
 * bundled character), with no second parse of the file and no glTF library. Each skeleton is bound by
 * glTF node index (`parser.associations`), so renamed and unnamed nodes bind too. Never throws on file
 * data: problems are diagnostics, as with `loadGltf`. Call it before anything animates the scene.
 */
export async function fromThreeGltf(gltf: ThreeGltf, options: Omit<LoadGltfOptions, "resources"> = {}): Promise<FromThreeGltfResult> {
  const parser = (gltf as Partial<ThreeGltf> | null)?.parser;
  if (typeof parser?.getDependency !== "function" || typeof parser.associations?.get !== "function" || typeof gltf.scene?.traverse !== "function") {
    throw argumentError("fromThreeGltf", "gltf", "GLTFLoader's result", gltf);
  }
  // Only the options bag itself: a wrong-typed field is read as absent (a label, a flag), never a crash.
  expectObject("fromThreeGltf", "options", options);
  const file = options.fileName ?? "<three>";
  const sink = new DiagnosticSink(file);
  const json = gltf.parser.json;
  let result: GltfLoadResult;
  if (!isObject(json)) {
    sink.error("E_GLTF_READ", "", "GLTFLoader's parser holds no glTF JSON");
    result = emptyGltfResult(file, sink);
  } else {
    const buffers = Array.isArray(json["buffers"]) ? json["buffers"] : [];
    const bufferBytes = await Promise.all(buffers.map(async (_, i) => {
      const data = await gltf.parser.getDependency("buffer", i).catch(() => undefined);
      return data instanceof ArrayBuffer ? new Uint8Array(data) : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : undefined;
    }));
    result = gltfResultFromJson(json as JsonObject, bufferBytes, file, options, sink);
  }
  const nodeIndexOf = (o: Object3D): number | undefined => gltf.parser.associations.get(o)?.nodes;
  const bindings = result.skeletons.map((skeleton) => {
    const bound = bindThreeSkeleton(skeleton, gltf.scene, { nodeIndexOf, file });
    for (const d of bound.diagnostics) sink.list.push(d);
    return bound.binding;
  });
  return { ...result, diagnostics: sink.list, bindings, binding: bindings[0] };
}
