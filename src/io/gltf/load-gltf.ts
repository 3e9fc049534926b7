import type { Clip } from "../../clip/clip.ts";
import type { Diagnostic } from "../../diagnostics/diagnostic.ts";
import { mat4Identity } from "../../math/mat4.ts";
import type { Skeleton } from "../../skeleton/skeleton.ts";
import { bindSkeleton, buildClip } from "./build-clips.ts";
import { buildSkeletons, type GltfSkeleton } from "./build-skeletons.ts";
import { DiagnosticSink, arrayOf, isObject, ptr, type JsonObject } from "./gltf-json.ts";
import { nodeNameOf, readChannels, type ChannelData } from "./read-channels.ts";
import { readGltfContainer, type ExternalReader } from "./read-gltf-container.ts";
import { validateGltfJson } from "./validate-gltf-json.ts";
import { appendAll } from "../../diagnostics/append-all.ts";
import { argumentError, expectObject, expectString } from "../../errors/check-argument.ts";

/** How `loadGltf` reads a file: the name diagnostics show, animation merging and external buffers. */
export interface LoadGltfOptions {
  /**
   * The file name diagnostics show. Default: the path as given, or `<input>` for bytes.
   */
  readonly fileName?: string;
  /**
   * Merge all animations into one clip per skeleton (for files such as CesiumMan that split one motion
   * into one unnamed animation per joint). Default false: one clip per glTF animation.
   */
  readonly mergeAnimations?: boolean;
  /** Name of the merged clip. Default: the animations' shared name if they all have one, else the file's base name. */
  readonly mergedClipName?: string;
  /**
   * For a .gltf (JSON) file with external buffers: their bytes by URI as written in the file
   * (`{ "scene.bin": bytes }`), e.g. fetched by a browser app. A URI not listed is an error.
   * (`loadGltfFile` in `animgraph/node` reads them from the file's folder instead.)
   */
  readonly resources?: Readonly<Record<string, Uint8Array>>;
}

/** A mesh with morph targets, as placed on a node (what morph-weight FloatTracks animate). */
export interface GltfMorphTargets {
  /** glTF node index carrying the mesh (a FloatTrack's `node`). */
  readonly node: number;
  /** The node's name, or `#<node>` (a FloatTrack's `target`). */
  readonly name: string;
  /** glTF mesh index. */
  readonly mesh: number;
  /** Number of morph targets (weights per key). */
  readonly count: number;
  /** Target names from the mesh's `extras.targetNames` (a common exporter convention), else `#0`, `#1`, …. */
  readonly names: readonly string[];
}

/** What `loadGltf` returns. Never thrown: problems are in `diagnostics`. */
export interface GltfLoadResult {
  /** True when no diagnostic is an error (warnings and infos may be present). */
  readonly ok: boolean;
  /** The file name used in diagnostics. */
  readonly file: string;
  /** One per distinct glTF joint list (skins sharing joints give one), usually exactly one. */
  readonly skeletons: readonly Skeleton[];
  /** Per skeleton: the world transform of its roots' non-joint ancestors (column-major mat4). */
  readonly rootTransforms: readonly Float32Array[];
  /** Per skeleton: the glTF skin indices it was made from (RobotExpressive: [0, 1]). */
  readonly skeletonSkins: readonly (readonly number[])[];
  /** Per skeleton: joints whose rest (node) transform is not their bind pose (legal; see I_GLTF_REST_NOT_BIND). */
  readonly restNotBind: readonly (readonly number[])[];
  /** Per skeleton: what rest model × inverse bind gives (see GltfSkeleton.bindShape). */
  readonly bindShapes: readonly Float32Array[];
  /** `rootTransforms[0]`, or identity when there is no skeleton. */
  readonly rootTransform: Float32Array;
  /** One clip per glTF animation (or one merged clip per skeleton), each bound to one of `skeletons`. */
  readonly clips: readonly Clip[];
  /** Per clip: the glTF animation indices it came from. */
  readonly clipSources: readonly (readonly number[])[];
  readonly morphTargets: readonly GltfMorphTargets[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Extensions whose being required does not change skins, nodes or animation data. */
const UNSUPPORTED_REQUIRED = new Set(["EXT_meshopt_compression", "KHR_animation_pointer"]);

/**
 * Loads the skeletons and clips of glTF 2.0 bytes (GLB or JSON) through @gltf-transform/core; works in
 * browsers and Node (`loadGltfFile` in `animgraph/node` takes a path). Never throws on user data: a
 * truncated GLB, references to missing nodes or accessors, accessors outside their buffers,
 * non-ascending key times, NaN/infinite values and mismatched counts become diagnostics naming the file
 * and a JSON pointer into the glTF JSON (`/animations/1/channels/3`). Structural problems reject the
 * file (no skeletons, no clips); a channel with bad data is left out of its clip (with an error) and the
 * rest still loads.
 */
export async function loadGltf(bytes: Uint8Array, options: LoadGltfOptions = {}): Promise<GltfLoadResult> {
  if (!(bytes instanceof Uint8Array)) throw argumentError("loadGltf", "bytes", "a Uint8Array (the file's bytes)", bytes);
  expectGltfOptions("loadGltf", options);
  if (options.resources !== undefined) expectObject("loadGltf", "options.resources", options.resources);
  const resources = options.resources;
  const readExternal: ExternalReader | undefined = resources === undefined ? undefined
    : (uri) => (Object.hasOwn(resources, uri) ? resources[uri] : undefined);
  return loadGltfBytes(bytes, options.fileName ?? "<input>", options, readExternal);
}

/**
 * The options every glTF loader shares (fileName, mergedClipName), checked at the public boundary:
 * other fields of a wrong type are read as absent.
 */
export function expectGltfOptions(fn: string, options: unknown): asserts options is LoadGltfOptions {
  expectObject(fn, "options", options);
  const o = options as LoadGltfOptions;
  if (o.fileName !== undefined) expectString(fn, "options.fileName", o.fileName);
  if (o.mergedClipName !== undefined) expectString(fn, "options.mergedClipName", o.mergedClipName);
}

/** The shared loader: `readExternal` resolves external URIs (a confined file reader in Node). */
export async function loadGltfBytes(bytes: Uint8Array, file: string, options: LoadGltfOptions, readExternal: ExternalReader | undefined, sink = new DiagnosticSink(file)): Promise<GltfLoadResult> {
  try {
    return await load(bytes, file, options, sink, readExternal);
  } catch (err) {
    // Anything @gltf-transform/core (or a bug here) throws on odd data still ends as a diagnostic.
    const why = err instanceof Error ? err.message : String(err);
    sink.error("E_GLTF_READ", "", `the glTF could not be read: ${why}`);
    return emptyGltfResult(file, sink);
  }
}

export function emptyGltfResult(file: string, sink: DiagnosticSink): GltfLoadResult {
  return {
    ok: false, file, skeletons: [], rootTransforms: [], skeletonSkins: [], restNotBind: [], bindShapes: [], rootTransform: mat4Identity(new Float32Array(16)),
    clips: [], clipSources: [], morphTargets: [], diagnostics: sink.list,
  };
}

async function load(bytes: Uint8Array, file: string, options: LoadGltfOptions, sink: DiagnosticSink, readExternal: ExternalReader | undefined): Promise<GltfLoadResult> {
  const container = await readGltfContainer(bytes, sink, { ...(readExternal ? { readExternal } : {}) });
  if (!container) return emptyGltfResult(file, sink);
  return gltfResultFromJson(container.json, container.bufferBytes, file, options, sink);
}

/**
 * Skeletons and clips from glTF JSON and the bytes of its buffers, however they were obtained (our GLB
 * reader, or three.js's GLTFLoader in fromThreeGltf): the JSON is validated first, so nothing after
 * trusts it unchecked.
 */
export function gltfResultFromJson(
  json: JsonObject, bufferBytes: readonly (Uint8Array | undefined)[], file: string, options: LoadGltfOptions, sink: DiagnosticSink,
): GltfLoadResult {
  if (!validateGltfJson(json, bufferBytes, sink)) return emptyGltfResult(file, sink);

  const required = arrayOf(json, "extensionsRequired").filter((e): e is string => typeof e === "string");
  const blocking = required.filter((e) => UNSUPPORTED_REQUIRED.has(e));
  if (blocking.length > 0) {
    sink.error("E_GLTF_UNSUPPORTED", "/extensionsRequired", `the file requires ${blocking.join(", ")}, which animgraph cannot read`);
    return emptyGltfResult(file, sink);
  }
  for (const e of required) sink.info("I_GLTF_EXTENSION_IGNORED", "/extensionsRequired", `required extension ${e} does not affect skeletons or animation; it is ignored`);

  const gltf = { json, bufferBytes };
  const gltfSkeletons = buildSkeletons(gltf, sink);
  const nodeName = (n: number): string => nodeNameOf(json, n);
  const perAnimation = readChannels(gltf, sink);
  const animDefs = arrayOf(json, "animations");
  const animName = (a: number): string => {
    const def = animDefs[a];
    return isObject(def) && typeof def["name"] === "string" && def["name"] !== "" ? def["name"] : `#${a}`;
  };

  const clips: Clip[] = [];
  const clipSources: number[][] = [];
  if (gltfSkeletons.length === 0) {
    if (perAnimation.length > 0) sink.warning("W_GLTF_NO_SKELETON", "/animations", `the file has no nodes to animate; its ${perAnimation.length} animations are not loaded`);
  } else if (options.mergeAnimations) {
    // One merged clip per skeleton: each animation goes to the skeleton it binds to.
    const groups = new Map<number, { anims: number[]; channels: ChannelData[] }>();
    perAnimation.forEach((channels, a) => {
      const s = bindSkeleton(channels, gltfSkeletons);
      const g = groups.get(s) ?? { anims: [], channels: [] };
      g.anims.push(a);
      appendAll(g.channels, channels);
      groups.set(s, g);
    });
    for (const [s, g] of [...groups].sort((x, y) => x[0] - y[0])) {
      const names = new Set(g.anims.map((a) => {
        const def = animDefs[a];
        return isObject(def) && typeof def["name"] === "string" ? def["name"] : "";
      }));
      const shared = names.size === 1 ? [...names][0]! : "";
      let name = options.mergedClipName ?? (shared !== "" ? shared : baseName(file));
      if (groups.size > 1) name = `${name}#${s}`;
      clips.push(buildClip(name, g.channels, gltfSkeletons[s]!, nodeName, sink));
      clipSources.push(g.anims);
    }
  } else {
    const used = new Set<string>();
    perAnimation.forEach((channels, a) => {
      let name = animName(a);
      if (used.has(name)) {
        sink.warning("W_GLTF_DUPLICATE_NAME", ptr("animations", a, "name"), `animation name "${name}" is used twice; this clip is called "${name}#${a}"`);
        name = `${name}#${a}`;
      }
      used.add(name);
      const s = bindSkeleton(channels, gltfSkeletons);
      clips.push(buildClip(name, channels, gltfSkeletons[s]!, nodeName, sink));
      clipSources.push([a]);
    });
  }

  const morphTargets = listMorphTargets(json, nodeName);
  const rootTransforms = gltfSkeletons.map((s: GltfSkeleton) => s.rootTransform);
  return {
    ok: sink.errorCount === 0,
    file,
    skeletons: gltfSkeletons.map((s) => s.skeleton),
    rootTransforms,
    skeletonSkins: gltfSkeletons.map((s) => s.skins),
    restNotBind: gltfSkeletons.map((s) => s.restNotBind),
    bindShapes: gltfSkeletons.map((s) => s.bindShape),
    rootTransform: rootTransforms[0] ?? mat4Identity(new Float32Array(16)),
    clips,
    clipSources,
    morphTargets,
    diagnostics: sink.list,
  };
}

function listMorphTargets(json: JsonObject, nodeName: (n: number) => string): GltfMorphTargets[] {
  const meshDefs = arrayOf(json, "meshes");
  const out: GltfMorphTargets[] = [];
  arrayOf(json, "nodes").forEach((def, node) => {
    if (!isObject(def) || typeof def["mesh"] !== "number") return;
    const mesh = meshDefs[def["mesh"]];
    if (!isObject(mesh)) return;
    const prim = arrayOf(mesh, "primitives")[0];
    const count = isObject(prim) && Array.isArray(prim["targets"]) ? prim["targets"].length : 0;
    if (count === 0) return;
    const extras = mesh["extras"];
    const given = isObject(extras) && Array.isArray(extras["targetNames"]) ? extras["targetNames"] : [];
    const names = Array.from({ length: count }, (_, i) => (typeof given[i] === "string" ? given[i] : `#${i}`));
    out.push({ node, name: nodeName(node), mesh: def["mesh"], count, names });
  });
  return out;
}

/** The file name without folder and extension (node:path's basename(f, extname(f)), for any separator). */
function baseName(file: string): string {
  const name = file.slice(Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")) + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}
