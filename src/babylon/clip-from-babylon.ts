import type { Animation } from "@babylonjs/core/Animations/animation.js";
import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import type { IAnimationKey } from "@babylonjs/core/Animations/animationKey.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { createClip, type Clip, type FloatTrack, type Interpolation, type JointTrack, type LoopMode, type TrackPath } from "../clip/clip.ts";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import type { BabylonBinding } from "./babylon-binding.ts";
import { argumentError, expectSkeleton } from "../errors/check-argument.ts";
import { expectClipFromBabylonOptions } from "./check-babylon-arguments.ts";
import { normalizeRotationKeys } from "../clip/normalize-rotation-keys.ts";

/** How `clipFromBabylon` resolves targets and resamples what it cannot convert exactly. */
export interface ClipFromBabylonOptions {
  /**
   * The nodes the group animates, bound to `skeleton`: a target node resolves through the binding
   * before its name is tried (robust against repeated or changed names).
   */
  readonly binding?: BabylonBinding;
  /** Sampling rate (Hz) for animations whose interpolation animgraph cannot represent exactly. Default 60. */
  readonly resampleRate?: number;
  /** Default loop mode of the clip. Default `loop`. */
  readonly loopMode?: LoopMode;
  /** File named in diagnostics. Default `<babylon>`. */
  readonly file?: string;
}

/** What `clipFromBabylon` returns: the clip, and diagnostics for skipped or resampled animations. */
export interface ClipFromBabylonResult {
  readonly clip: Clip;
  /** Warnings for skipped animations (unknown target or property, bad keys), infos for resampled ones. */
  readonly diagnostics: Diagnostic[];
}

const PATH_OF: Readonly<Record<string, TrackPath>> = { position: "translation", rotationQuaternion: "rotation", scaling: "scale" };
const STEP = 1; // AnimationKeyInterpolation.STEP (a const enum in Babylon's typings)

/** A key value as Babylon stores it: a number, or a Vector3/Quaternion (x, y, z[, w]). */
type KeyValue = number | { x: number; y: number; z: number; w?: number };

/**
 * Converts a Babylon.js `AnimationGroup` into an animgraph Clip bound to `skeleton`.
 *
 * Each targeted animation whose target is a TransformNode (or a Bone) and whose property is
 * `position` / `rotationQuaternion` / `scaling` becomes a joint track; the joint is the target's
 * through `options.binding`, else the joint named like the target. `influence` animations of morph
 * targets become one-weight FloatTracks named after the morph target (Babylon's glTF loader splits a
 * glTF `weights` channel into one animation per morph target, cloned per primitive; the clones are
 * kept once). Times are Babylon frames ÷ the animation's `framePerSecond` (frame 0 is time 0).
 * Interpolation, as Babylon's `Animation` evaluates it:
 *
 * - every key `interpolation: STEP` → STEP; no tangents and no easing → LINEAR (Babylon lerps vectors
 *   and slerps quaternions, as animgraph does). Exact.
 * - every key has `inTangent` and `outTangent` (glTF CUBICSPLINE as Babylon's loader stores it) →
 *   CUBICSPLINE, tangents × `framePerSecond` (Babylon keeps them per frame). Exact.
 * - an easing function, or keys mixing these kinds → resampled at `resampleRate` plus every key frame
 *   with Babylon's own `Animation.evaluate`, LINEAR, with an `E_BABYLON_RESAMPLED` info (approximate).
 *
 * Rotation key values are normalised (the sampler assumes unit quaternions). Never throws on animation
 * data: bad animations are skipped with a warning. Allocates (a load-time call).
 */
export function clipFromBabylon(group: AnimationGroup, skeleton: Skeleton, options: ClipFromBabylonOptions = {}): ClipFromBabylonResult {
  const g = group as Partial<AnimationGroup> | null;
  if (typeof g !== "object" || g === null || !Array.isArray(g.targetedAnimations)) {
    throw argumentError("clipFromBabylon", "group", "a Babylon.js AnimationGroup", group);
  }
  expectSkeleton("clipFromBabylon", "skeleton", skeleton);
  expectClipFromBabylonOptions("clipFromBabylon", options);
  const file = options.file ?? "<babylon>";
  const rate = options.resampleRate ?? 60;
  const diagnostics: Diagnostic[] = [];
  const pointer = (i: number): string => `${group.name}/targetedAnimations[${i}]`;
  const warn = (i: number, code: string, message: string): void => {
    diagnostics.push({ code, severity: "warning", file, pointer: pointer(i), message });
  };
  const jointOfNode = new Map<TransformNode, number>();
  options.binding?.nodes.forEach((n, k) => jointOfNode.set(n, options.binding!.jointOfNode[k]!));
  const resolveJoint = (target: { name?: unknown; getTransformNode?: () => TransformNode | null }): number | undefined => {
    const node = (typeof target.getTransformNode === "function" ? target.getTransformNode() : null) ?? (target as TransformNode);
    return jointOfNode.get(node) ?? (typeof target.name === "string" ? skeleton.indexOf.get(target.name) : undefined);
  };

  const tracks: JointTrack[] = [];
  const floatTracks: FloatTrack[] = [];
  const taken = new Set<string>();
  group.targetedAnimations.forEach(({ animation, target }, i) => {
    const property = animation.targetProperty;
    const isMorph = property === "influence" && target !== null && typeof target === "object" && "influence" in target;
    const path = PATH_OF[property];
    if (!isMorph && path === undefined) {
      warn(i, "E_BABYLON_TRACK_PROPERTY", `animation "${animation.name}" animates "${property}", which is not a joint transform or a morph-target influence; skipped`);
      return;
    }
    const stride = isMorph ? 1 : path === "rotation" ? 4 : 3;
    const converted = convertKeys(animation, stride, rate);
    if (typeof converted === "string") {
      warn(i, "E_BABYLON_TRACK_KEYS", `animation "${animation.name}": ${converted}; skipped`);
      return;
    }
    if (converted.resampled) {
      diagnostics.push({
        code: "E_BABYLON_RESAMPLED", severity: "info", file, pointer: pointer(i),
        message: `animation "${animation.name}" uses an easing function or mixed key interpolation animgraph cannot represent exactly; resampled at ${rate} Hz (LINEAR)`,
      });
    }
    const { times, values, interpolation } = converted;
    if (isMorph) {
      const name = typeof target.name === "string" ? (target.name as string) : "";
      const key = `morph/${name}/${animation.name}`;
      if (taken.has(key)) return; // the same glTF channel cloned onto another primitive's morph target
      taken.add(key);
      floatTracks.push({ target: name, node: -1, count: 1, interpolation, times, values });
      return;
    }
    const joint = target !== null && typeof target === "object" ? resolveJoint(target) : undefined;
    if (joint === undefined) {
      warn(i, "E_BABYLON_TRACK_TARGET", `animation "${animation.name}" targets "${String(target?.name)}", which is not a joint of the skeleton; skipped`);
      return;
    }
    if (path === "rotation") {
      const bad = normalizeRotationKeys(values, interpolation === "CUBICSPLINE");
      if (bad >= 0) {
        warn(i, "E_BABYLON_TRACK_KEYS", `animation "${animation.name}": rotation key ${bad} has zero length; skipped`);
        return;
      }
    }
    const key = `${joint}/${path}`;
    if (taken.has(key)) {
      warn(i, "E_BABYLON_TRACK_DUPLICATE", `animation "${animation.name}" animates joint ${joint} ("${skeleton.names[joint]}") ${path} a second time; skipped`);
      return;
    }
    taken.add(key);
    tracks.push({ joint, path: path!, interpolation, stride: stride as 3 | 4, times, values });
  });
  let last = 0;
  for (const t of [...tracks, ...floatTracks]) last = Math.max(last, t.times[t.times.length - 1]!);
  // The group's end frame, in the fps of its first animation (Babylon's glTF loader uses one rate).
  const fps = group.targetedAnimations[0]?.animation.framePerSecond;
  const end = fps !== undefined && fps > 0 ? Math.fround(group.to / fps) : undefined;
  const clip = createClip({
    name: group.name,
    skeleton,
    tracks,
    floatTracks,
    duration: end !== undefined && Number.isFinite(end) && end >= last ? end : undefined,
    loopMode: options.loopMode ?? "loop",
  });
  return { clip, diagnostics };
}

interface ConvertedKeys {
  readonly times: Float32Array;
  readonly values: Float32Array;
  readonly interpolation: Interpolation;
  readonly resampled: boolean;
}

/** Writes `stride` components of a key value at `out[offset]`, scaled; false when the value has the wrong shape. */
function writeValue(out: Float32Array, offset: number, value: unknown, stride: number, scale: number): boolean {
  if (stride === 1) {
    if (typeof value !== "number") return false;
    out[offset] = value * scale;
    return Number.isFinite(out[offset]!);
  }
  if (value === null || typeof value !== "object") return false;
  const v = value as Exclude<KeyValue, number>;
  const parts = stride === 4 ? [v.x, v.y, v.z, v.w] : [v.x, v.y, v.z];
  for (let c = 0; c < stride; c++) {
    const x = parts[c];
    if (typeof x !== "number" || !Number.isFinite(x)) return false;
    out[offset + c] = x * scale;
  }
  return true;
}

/** The animation's keys in animgraph's layout, or why they are unusable. */
function convertKeys(animation: Animation, stride: number, rate: number): ConvertedKeys | string {
  const keys: IAnimationKey[] = animation.getKeys();
  const fps = animation.framePerSecond;
  if (!(fps > 0 && Number.isFinite(fps))) return `framePerSecond ${fps} is not a positive number`;
  const n = keys.length;
  if (n === 0) return "no keys";
  const times = new Float32Array(n);
  for (let k = 0; k < n; k++) {
    const t = keys[k]!.frame / fps;
    if (!Number.isFinite(t) || t < 0) return `key ${k} is at frame ${keys[k]!.frame}, not a finite frame ≥ 0`;
    times[k] = t;
    if (k > 0 && !(times[k]! > times[k - 1]!)) return `key frames are not strictly increasing at key ${k}`;
  }
  // Babylon decides per segment from its start key: STEP; else Hermite when the start key has an
  // out-tangent and the end key an in-tangent; else lerp/slerp. The last key's own settings never apply.
  let steps = 0, cubic = 0, eased = animation.getEasingFunction() != null;
  for (let k = 0; k + 1 < n; k++) {
    const a = keys[k]!, b = keys[k + 1]!;
    if (a.easingFunction) eased = true;
    if (a.interpolation === STEP) steps++;
    else if (a.outTangent !== undefined && b.inTangent !== undefined) cubic++;
  }
  const segments = n - 1;
  let interpolation: Interpolation | undefined;
  if (segments === 0) interpolation = "LINEAR"; // one key: a constant, whatever its settings
  else if (eased) interpolation = undefined;
  else if (steps === segments) interpolation = "STEP";
  else if (steps === 0 && cubic === 0) interpolation = "LINEAR";
  else if (steps === 0 && cubic === segments) interpolation = "CUBICSPLINE";
  if (interpolation === undefined) return resample(animation, keys, stride, rate);
  if (interpolation !== "CUBICSPLINE") {
    const values = new Float32Array(stride * n);
    for (let k = 0; k < n; k++) if (!writeValue(values, k * stride, keys[k]!.value, stride, 1)) return `key ${k} has a value that is not ${stride} finite numbers`;
    return { times, values, interpolation, resampled: false };
  }
  // The first key's in-tangent and the last key's out-tangent are never used (glTF and Babylon alike);
  // when absent they stay 0.
  const values = new Float32Array(3 * stride * n);
  for (let k = 0; k < n; k++) {
    const key = keys[k]!;
    const o = 3 * stride * k;
    const inOk = key.inTangent === undefined ? k === 0 : writeValue(values, o, key.inTangent, stride, fps);
    const outOk = key.outTangent === undefined ? k === n - 1 : writeValue(values, o + 2 * stride, key.outTangent, stride, fps);
    if (!inOk || !outOk || !writeValue(values, o + stride, key.value, stride, 1)) return `key ${k} has a value or tangent that is not ${stride} finite numbers`;
  }
  return { times, values, interpolation, resampled: false };
}

/** Samples an animation with Babylon's own `Animation.evaluate` at every key frame and a uniform `rate` grid. */
function resample(animation: Animation, keys: readonly IAnimationKey[], stride: number, rate: number): ConvertedKeys | string {
  if (!(rate > 0 && Number.isFinite(rate))) return `resample rate ${rate} is not a positive number`;
  const fps = animation.framePerSecond;
  const first = keys[0]!.frame / fps, last = keys[keys.length - 1]!.frame / fps;
  const grid = new Set<number>(keys.map((k) => Math.fround(k.frame / fps)));
  for (let k = 1; first + k / rate < last; k++) grid.add(Math.fround(first + k / rate));
  // A STEP segment holds its value up to the next key: one more key just before that one (the float32
  // below it) keeps the jump a jump instead of a ramp across a grid interval.
  for (let k = 0; k + 1 < keys.length; k++) {
    if (keys[k]!.interpolation === STEP) grid.add(float32Below(Math.fround(keys[k + 1]!.frame / fps)));
  }
  const times = Float32Array.from([...grid].sort((a, b) => a - b));
  const values = new Float32Array(stride * times.length);
  for (let k = 0; k < times.length; k++) {
    if (!writeValue(values, k * stride, animation.evaluate(times[k]! * fps), stride, 1)) return `Babylon evaluates a value that is not ${stride} finite numbers`;
  }
  return { times, values, interpolation: "LINEAR", resampled: true };
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** The largest float32 below a positive float32 `t`. */
function float32Below(t: number): number {
  f32[0] = t;
  u32[0] = u32[0]! - 1;
  return f32[0]!;
}
