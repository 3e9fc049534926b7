import { createClip, type Clip, type FloatTrack, type JointTrack } from "../../clip/clip.ts";
import type { Diagnostic } from "../../diagnostics/diagnostic.ts";
import { mat4Identity } from "../../math/mat4.ts";
import { createPose } from "../../pose/pose.ts";
import { modelFrames } from "../../retarget/model-frames.ts";
import { createSkeleton, type Skeleton } from "../../skeleton/skeleton.ts";
import { DiagnosticSink, arrayOf, isObject, ptr } from "../gltf/gltf-json.ts";
import { expectGltfOptions, loadGltf, type GltfLoadResult } from "../gltf/load-gltf.ts";
import { readGltfContainer } from "../gltf/read-gltf-container.ts";
import { readVrmaExtension, type VrmaExpression, type VrmaLookAt } from "./read-vrma-extension.ts";
import { vrmBoneRole, type VrmHumanBoneName } from "./vrm-human-bones.ts";
import { argumentError } from "../../errors/check-argument.ts";

/** How `loadVrma` reads a .vrma given as bytes. */
export interface LoadVrmaOptions {
  /** The file name diagnostics show. Default `<input>`. */
  readonly fileName?: string;
  /** For a .gltf (JSON) .vrma with external buffers: their bytes by URI (as LoadGltfOptions.resources). */
  readonly resources?: Readonly<Record<string, Uint8Array>>;
}

/** What `loadVrma` returns. Never thrown: problems are in `diagnostics`. */
export interface VrmaLoadResult {
  /** True when no diagnostic is an error; then `skeleton` is set. */
  readonly ok: boolean;
  readonly file: string;
  /**
   * The animation's node hierarchy (the humanoid bones in their VRM T-pose rest, and any other node but
   * the expression and look-at nodes), with `roles` declared from the humanoid bones so retargeting
   * pairs bones by VRM's names whatever the nodes are called.
   */
  readonly skeleton?: Skeleton;
  /** World transform of the skeleton's roots' non-joint ancestors (identity for the usual skinless .vrma). */
  readonly rootTransform: Float32Array;
  /**
   * One clip per glTF animation (the spec plays the first: `clips[0]`), bound to `skeleton`: the
   * humanoid bones' rotations and the hips' translation as joint tracks; each expression's weight as a
   * float track `expression:<name>` (count 1: the x of its node's translation, raw — VRM clamps a weight
   * to [0, 1] when applying it) and the gaze as `lookAt` (count 4, a quaternion track), in that order.
   */
  readonly clips: readonly Clip[];
  /** Per clip, the glTF animation it came from (as `GltfLoadResult.clipSources`: one index each). */
  readonly clipSources: readonly (readonly number[])[];
  /** VRM humanoid bone name → joint index in `skeleton`. */
  readonly humanBones: ReadonlyMap<VrmHumanBoneName, number>;
  /** The expressions the file defines (animated or not), presets then custom ones. */
  readonly expressions: readonly VrmaExpression[];
  readonly lookAt?: VrmaLookAt;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Loads a VRM animation (.vrma: a GLB or glTF with the `VRMC_vrm_animation` extension) from bytes. The
 * glTF part goes through `loadGltf` (same checks and diagnostics); the extension is then checked (see
 * readVrmaExtension) and the clips split into humanoid joint tracks and expression / look-at float
 * tracks. Channels the spec forbids — a translation on a bone other than the hips, a scale on a bone, an
 * expression's rotation or scale, the look-at node's translation or scale — are left out with
 * W_VRMA_IGNORED. A hips rest height at or below zero (not the VRM T-pose) is W_VRMA_REST_POSE.
 */
export async function loadVrma(bytes: Uint8Array, options: LoadVrmaOptions = {}): Promise<VrmaLoadResult> {
  if (!(bytes instanceof Uint8Array)) throw argumentError("loadVrma", "bytes", "a Uint8Array (the file's bytes)", bytes);
  expectGltfOptions("loadVrma", options);
  const file = options.fileName ?? "<input>";
  const gltf = await loadGltf(bytes, { fileName: file, ...(options.resources !== undefined ? { resources: options.resources } : {}) });
  return vrmaFromGltf(bytes, gltf);
}

/** A failed result that only carries diagnostics. */
export function failedVrma(file: string, diagnostics: readonly Diagnostic[]): VrmaLoadResult {
  return { ok: false, file, rootTransform: mat4Identity(new Float32Array(16)), clips: [], clipSources: [], humanBones: new Map(), expressions: [], diagnostics };
}

/**
 * The .vrma reading proper, on what `loadGltf` (or, in Node, `loadGltfFile`) made of `bytes`: shared by
 * `loadVrma` and `loadVrmaFile`, which differ only in how external buffers are found.
 */
export async function vrmaFromGltf(bytes: Uint8Array, gltf: GltfLoadResult): Promise<VrmaLoadResult> {
  const file = gltf.file;
  const sink = new DiagnosticSink(file);
  const fail = (): VrmaLoadResult => failedVrma(file, [...gltf.diagnostics, ...sink.list]);
  if (!gltf.ok) return fail();
  // loadGltf accepted the container, so this second read of it (for the extension's JSON) succeeds.
  const container = await readGltfContainer(bytes, new DiagnosticSink(file));
  if (!container) return fail();
  const ext = readVrmaExtension(container.json, sink);
  if (!ext) return fail();

  // The skeleton holding the humanoid (a skinless .vrma has one, of all its nodes).
  const firstBoneNode = ext.humanBones.values().next().value;
  const s = Math.max(0, gltf.skeletons.findIndex((sk) => firstBoneNode === undefined || sk.sourceIndex.includes(firstBoneNode)));
  const source = gltf.skeletons[s];
  if (!source) {
    sink.error("E_VRMA_EXTENSION", "/nodes", "the file has no nodes to animate");
    return fail();
  }
  const jointOfNode = new Map<number, number>();
  source.sourceIndex.forEach((node, j) => jointOfNode.set(node, j));
  for (const [name, node] of ext.humanBones) {
    if (!jointOfNode.has(node)) sink.error("E_VRMA_EXTENSION", ptr("extensions", "VRMC_vrm_animation", "humanoid", "humanBones", name, "node"), `node ${node} is not part of the humanoid's hierarchy`);
  }
  if (sink.errorCount > 0) return fail();

  // Expression and look-at nodes carry numbers, not transforms: out of the skeleton unless a joint hangs below one.
  const floatNodes = new Map<number, { target: string; pointer: string; path: "translation" | "rotation" }>();
  for (const e of ext.expressions) floatNodes.set(e.node, { target: `expression:${e.name}`, pointer: ptr("extensions", "VRMC_vrm_animation", "expressions", e.preset ? "preset" : "custom", e.name), path: "translation" });
  if (ext.lookAt?.node !== undefined) floatNodes.set(ext.lookAt.node, { target: "lookAt", pointer: ptr("extensions", "VRMC_vrm_animation", "lookAt"), path: "rotation" });
  for (const [node, f] of floatNodes) {
    if (!jointOfNode.has(node)) sink.warning("W_VRMA_IGNORED", f.pointer, `node ${node} is not in the animated hierarchy; its ${f.target} animation is not loaded`);
  }
  const { skeleton, newIndex } = pruneSkeleton(source, floatNodes, ext.humanBones, jointOfNode);
  const humanBones = new Map<VrmHumanBoneName, number>();
  for (const [name, node] of ext.humanBones) humanBones.set(name, newIndex[jointOfNode.get(node)!]!);

  const hips = humanBones.get("hips");
  if (hips !== undefined) {
    const J = skeleton.jointCount;
    const q = new Float64Array(4 * J), p = new Float64Array(3 * J), sc = new Float64Array(J);
    modelFrames(q, p, sc, skeleton, skeleton.rest);
    const root = gltf.rootTransforms[s]!;
    const y = root[1]! * p[3 * hips]! + root[5]! * p[3 * hips + 1]! + root[9]! * p[3 * hips + 2]! + root[13]!;
    if (!(y > 1e-3)) sink.warning("W_VRMA_REST_POSE", ptr("nodes", ext.humanBones.get("hips")!), `the hips rest ${y.toFixed(4)} m above the origin: not the VRM T-pose (standing on the ground, +Y up); root motion will be scaled wrongly`);
  }

  const animDefs = arrayOf(container.json, "animations");
  const baseName = file.split(/[\\/]/).pop()!.replace(/\.[^.]*$/, "") || "vrma";
  const clips: Clip[] = [];
  const clipSources: number[][] = [];
  gltf.clips.forEach((clip, c) => {
    if (clip.skeleton !== source) return;
    const a = gltf.clipSources[c]![0]!;
    const def = animDefs[a];
    const named = isObject(def) && typeof def["name"] === "string" && def["name"] !== "";
    const name = named ? clip.name : animDefs.length === 1 ? baseName : `${baseName}#${a}`;
    clips.push(splitClip(clip, name, skeleton, newIndex, floatNodes, ext.humanBones, ptr("animations", a), sink));
    clipSources.push([a]);
  });

  const diagnostics = [...gltf.diagnostics, ...sink.list];
  return {
    ok: sink.errorCount === 0,
    file,
    skeleton,
    rootTransform: gltf.rootTransforms[s]!,
    clips,
    clipSources,
    humanBones,
    expressions: ext.expressions,
    ...(ext.lookAt ? { lookAt: ext.lookAt } : {}),
    diagnostics,
  };
}

/**
 * The source skeleton without the expression and look-at joints that have no joint below them, with
 * the humanoid roles declared. `newIndex[j]` is joint j's index in the result (-1 when dropped).
 */
function pruneSkeleton(
  source: Skeleton,
  floatNodes: ReadonlyMap<number, unknown>,
  humanBones: ReadonlyMap<VrmHumanBoneName, number>,
  jointOfNode: ReadonlyMap<number, number>,
): { skeleton: Skeleton; newIndex: Int32Array } {
  const J = source.jointCount;
  const keep = new Uint8Array(J);
  const hasKeptChild = new Uint8Array(J);
  for (let j = J - 1; j >= 0; j--) {
    keep[j] = !floatNodes.has(source.sourceIndex[j]!) || hasKeptChild[j]! ? 1 : 0;
    const p = source.parents[j]!;
    if (keep[j] && p >= 0) hasKeptChild[p] = 1;
  }
  const newIndex = new Int32Array(J).fill(-1);
  const kept: number[] = [];
  for (let j = 0; j < J; j++) if (keep[j]) newIndex[j] = kept.push(j) - 1;
  const rest = createPose(kept.length);
  const inverseBind = new Float32Array(16 * kept.length);
  kept.forEach((j, k) => {
    rest.t.set(source.rest.t.subarray(3 * j, 3 * j + 3), 3 * k);
    rest.r.set(source.rest.r.subarray(4 * j, 4 * j + 4), 4 * k);
    rest.s.set(source.rest.s.subarray(3 * j, 3 * j + 3), 3 * k);
    inverseBind.set(source.inverseBind.subarray(16 * j, 16 * j + 16), 16 * k);
  });
  const roles = new Map<string, number>();
  for (const [name, node] of humanBones) {
    const role = vrmBoneRole(name);
    if (role !== undefined) roles.set(role, newIndex[jointOfNode.get(node)!]!);
  }
  const skeleton = createSkeleton({
    names: kept.map((j) => source.names[j]!),
    // A kept joint's parent is kept too (a dropped joint has no kept child).
    parents: kept.map((j) => (source.parents[j]! < 0 ? -1 : newIndex[source.parents[j]!]!)),
    rest,
    inverseBind,
    sourceIndex: kept.map((j) => source.sourceIndex[j]!),
    roles,
  });
  return { skeleton, newIndex };
}

/** Rebinds one clip to the pruned skeleton: humanoid and other joint tracks stay, expression and look-at tracks become float tracks. */
function splitClip(
  clip: Clip,
  name: string,
  skeleton: Skeleton,
  newIndex: Int32Array,
  floatNodes: ReadonlyMap<number, { target: string; pointer: string; path: "translation" | "rotation" }>,
  humanBones: ReadonlyMap<VrmHumanBoneName, number>,
  pointer: string,
  sink: DiagnosticSink,
): Clip {
  const boneOfNode = new Map<number, VrmHumanBoneName>();
  for (const [bone, node] of humanBones) boneOfNode.set(node, bone);
  const tracks: JointTrack[] = [];
  const byTarget = new Map<string, FloatTrack>();
  for (const track of clip.tracks) {
    const node = clip.skeleton.sourceIndex[track.joint]!;
    const float = floatNodes.get(node);
    if (float) {
      if (track.path !== float.path) {
        sink.warning("W_VRMA_IGNORED", pointer, `the ${track.path} of ${float.target}'s node ${node} means nothing in a VRM animation (only its ${float.path} does); ignored`);
      } else if (float.path === "translation") {
        // The weight is the x of the translation: one float of every three (tangents included).
        const values = new Float32Array(track.values.length / 3);
        for (let i = 0; i < values.length; i++) values[i] = track.values[3 * i]!;
        byTarget.set(float.target, { target: float.target, node, count: 1, interpolation: track.interpolation, times: track.times, values });
      } else {
        byTarget.set(float.target, { target: float.target, node, count: 4, quaternion: true, interpolation: track.interpolation, times: track.times, values: track.values });
      }
      continue;
    }
    const bone = boneOfNode.get(node);
    if (bone !== undefined && (track.path === "scale" || (track.path === "translation" && bone !== "hips"))) {
      sink.warning("W_VRMA_IGNORED", pointer, `a VRM animation may not animate the ${track.path} of ${bone} (node ${node}); ignored`);
      continue;
    }
    tracks.push({ ...track, joint: newIndex[track.joint]! });
  }
  // Float tracks in the order the extension lists expressions, then look-at.
  const floatTracks: FloatTrack[] = [];
  for (const f of floatNodes.values()) {
    const t = byTarget.get(f.target);
    if (t) floatTracks.push(t);
  }
  return createClip({ name, skeleton, tracks, floatTracks, duration: clip.duration, loopMode: clip.loopMode });
}
