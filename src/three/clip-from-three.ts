import {
  InterpolateDiscrete, InterpolateLinear, InterpolateSmooth, PropertyBinding,
  type AnimationClip, type Interpolant, type KeyframeTrack,
} from "three";
import { createClip, type Clip, type FloatTrack, type Interpolation, type JointTrack, type LoopMode, type TrackPath } from "../clip/clip.ts";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import type { ThreeBinding } from "./three-binding.ts";
import { argumentError, expectSkeleton } from "../errors/check-argument.ts";
import { expectClipFromThreeOptions } from "./check-three-arguments.ts";
import { normalizeRotationKeys } from "../clip/normalize-rotation-keys.ts";
import { expectInteger, expectNumberArray, expectTypedArray, rangeError } from "../errors/check-argument.ts";

/** How `clipFromThree` resolves track names and resamples what it cannot represent exactly. */
export interface ClipFromThreeOptions {
  /**
   * The three.js objects the clip animates, bound to `skeleton`: track names are then resolved the way
   * three's PropertyBinding does (object name or uuid) before falling back to joint names. Needed for
   * GLTFLoader output with unnamed nodes (tracks named by uuid) or renamed ones.
   */
  readonly binding?: ThreeBinding;
  /** Sampling rate (Hz) for tracks whose interpolation animgraph cannot represent exactly. Default 60. */
  readonly resampleRate?: number;
  /** Default loop mode of the clip. Default `loop` (three's LoopRepeat). */
  readonly loopMode?: LoopMode;
  /** File named in diagnostics. Default `<three>`. */
  readonly file?: string;
}

/** What `clipFromThree` returns: the converted clip and notes on skipped or resampled tracks. */
export interface ClipFromThreeResult {
  /** The clip, bound to the given skeleton (tracks that could not be used are left out). */
  readonly clip: Clip;
  /** Warnings for skipped tracks (unknown target or property, bad keys), infos for resampled ones. */
  readonly diagnostics: Diagnostic[];
}

const PATH_OF: Readonly<Record<string, TrackPath>> = { position: "translation", quaternion: "rotation", scale: "scale" };

/**
 * The untyped part of a KeyframeTrack (@types/three omits it): the interpolant factory three calls,
 * which GLTFLoader replaces for glTF cubic splines and marks.
 */
interface TrackInterpolantFactory {
  readonly createInterpolant?: ((this: KeyframeTrack, result: Float32Array) => Interpolant) & {
    readonly isInterpolantFactoryMethodGLTFCubicSpline?: boolean;
  };
}

/**
 * Converts a three.js AnimationClip into an animgraph Clip bound to `skeleton`.
 *
 * Track names (`Bone.quaternion`, `uuid.position`, `bones[Hips].scale`, `Head.morphTargetInfluences`)
 * are parsed with three's own `PropertyBinding.parseTrackName`. The node resolves through
 * `options.binding` (object name or uuid), else the joint of that exact name, else the joint whose
 * `PropertyBinding.sanitizeNodeName` form matches (GLTFLoader strips `.` and friends from names).
 * `position` / `quaternion` / `scale` become joint tracks; `morphTargetInfluences` a FloatTrack whose
 * `target` is the node name. Interpolation:
 *
 * Rotation key values are normalised (the sampler assumes unit quaternions); CUBICSPLINE tangents are
 * kept as they are.
 *
 * - `InterpolateDiscrete` → STEP, `InterpolateLinear` → LINEAR (keys copied, exact).
 * - GLTFLoader's custom cubic-spline interpolant (glTF CUBICSPLINE; three marks its factory with
 *   `isInterpolantFactoryMethodGLTFCubicSpline`) → CUBICSPLINE, triplets copied as they are (exact).
 * - `InterpolateSmooth` (three's CubicInterpolant, vector tracks only) → CUBICSPLINE with the Hermite
 *   tangents of three's curve computed per segment, exact for three's default `ZeroCurvatureEnding`
 *   at both ends. (AnimationAction switches the endings to WrapAround/ZeroSlope while looping; that
 *   changes the first and last segments and is not reproduced.)
 * - `InterpolateBezier` and any other custom interpolant → resampled at `resampleRate` plus every key
 *   time with three's own interpolant, LINEAR, with an `E_THREE_RESAMPLED` info (approximate).
 *
 * Never throws on clip data: bad tracks are skipped with a warning. Allocates (a load-time call).
 */
export function clipFromThree(threeClip: AnimationClip, skeleton: Skeleton, options: ClipFromThreeOptions = {}): ClipFromThreeResult {
  const given = threeClip as Partial<AnimationClip> | null;
  if (typeof given !== "object" || given === null || !Array.isArray(given.tracks) || typeof given.name !== "string") {
    throw argumentError("clipFromThree", "threeClip", "a three.js AnimationClip", threeClip);
  }
  expectSkeleton("clipFromThree", "skeleton", skeleton);
  expectClipFromThreeOptions("clipFromThree", options);
  const file = options.file ?? "<three>";
  const diagnostics: Diagnostic[] = [];
  const warn = (i: number, code: string, message: string): void => {
    diagnostics.push({ code, severity: "warning", file, pointer: `${threeClip.name}/tracks[${i}]`, message });
  };
  const jointOfObjectKey = new Map<string, number>();
  if (options.binding) {
    options.binding.objects.forEach((o, k) => {
      const j = options.binding!.jointOfObject[k]!;
      jointOfObjectKey.set(o.uuid, j);
      if (o.name !== "" && !jointOfObjectKey.has(o.name)) jointOfObjectKey.set(o.name, j);
    });
  }
  const sanitized = new Map<string, number>();
  skeleton.names.forEach((name, j) => {
    const s = PropertyBinding.sanitizeNodeName(name);
    if (!sanitized.has(s)) sanitized.set(s, j);
  });
  const resolveJoint = (node: string): number | undefined => jointOfObjectKey.get(node) ?? skeleton.indexOf.get(node) ?? sanitized.get(node);

  const tracks: JointTrack[] = [];
  const floatTracks: FloatTrack[] = [];
  const taken = new Set<string>();
  threeClip.tracks.forEach((track, i) => {
    let parsed: ReturnType<typeof PropertyBinding.parseTrackName>;
    try {
      parsed = PropertyBinding.parseTrackName(track.name);
    } catch {
      warn(i, "E_THREE_TRACK_NAME", `track "${track.name}" has a name three.js cannot parse; skipped`);
      return;
    }
    const node = parsed.objectName === "bones" && parsed.objectIndex !== undefined ? String(parsed.objectIndex) : parsed.nodeName;
    const property = parsed.propertyName;
    const isMorph = property === "morphTargetInfluences" && parsed.propertyIndex === undefined;
    const path = PATH_OF[property];
    if (!isMorph && (path === undefined || parsed.propertyIndex !== undefined)) {
      warn(i, "E_THREE_TRACK_PROPERTY", `track "${track.name}" animates "${property}${parsed.propertyIndex !== undefined ? `[${parsed.propertyIndex}]` : ""}", which is not a joint transform or a morph-weight vector; skipped`);
      return;
    }
    const converted = convertKeys(track, options.resampleRate ?? 60);
    if (typeof converted === "string") {
      warn(i, "E_THREE_TRACK_KEYS", `track "${track.name}": ${converted}; skipped`);
      return;
    }
    if (converted.resampled) {
      diagnostics.push({
        code: "E_THREE_RESAMPLED", severity: "info", file, pointer: `${threeClip.name}/tracks[${i}]`,
        message: `track "${track.name}" uses an interpolation animgraph cannot represent exactly; resampled at ${options.resampleRate ?? 60} Hz (LINEAR)`,
      });
    }
    const { times, values, interpolation, stride } = converted;
    if (isMorph) {
      floatTracks.push({ target: node, node: -1, count: stride, interpolation, times, values });
      return;
    }
    const joint = resolveJoint(node);
    if (joint === undefined) {
      warn(i, "E_THREE_TRACK_TARGET", `track "${track.name}" targets "${node}", which is not a joint of the skeleton; skipped`);
      return;
    }
    const want = path === "rotation" ? 4 : 3;
    if (stride !== want) {
      warn(i, "E_THREE_TRACK_KEYS", `track "${track.name}" has ${stride} values per key, ${path} needs ${want}; skipped`);
      return;
    }
    if (path === "rotation") {
      const bad = normalizeRotationKeys(values, interpolation === "CUBICSPLINE");
      if (bad >= 0) {
        warn(i, "E_THREE_TRACK_KEYS", `track "${track.name}": rotation key ${bad} has zero length; skipped`);
        return;
      }
    }
    const key = `${joint}/${path}`;
    if (taken.has(key)) {
      warn(i, "E_THREE_TRACK_DUPLICATE", `track "${track.name}" animates joint ${joint} ("${skeleton.names[joint]}") ${path} a second time; skipped`);
      return;
    }
    taken.add(key);
    tracks.push({ joint, path: path!, interpolation, stride: want, times, values });
  });
  const duration = Number.isFinite(threeClip.duration) && threeClip.duration >= 0 ? threeClip.duration : undefined;
  let last = 0;
  for (const t of [...tracks, ...floatTracks]) last = Math.max(last, t.times[t.times.length - 1]!);
  const clip = createClip({
    name: threeClip.name,
    skeleton,
    tracks,
    floatTracks,
    duration: duration !== undefined && duration >= last ? duration : undefined,
    loopMode: options.loopMode ?? "loop",
  });
  return { clip, diagnostics };
}

interface ConvertedKeys {
  readonly times: Float32Array;
  readonly values: Float32Array;
  readonly interpolation: Interpolation;
  /** Floats per key value (not counting CUBICSPLINE tangents). */
  readonly stride: number;
  readonly resampled: boolean;
}

/** The track's keys in animgraph's layout, or why they are unusable. */
function convertKeys(track: KeyframeTrack, rate: number): ConvertedKeys | string {
  const times = Float32Array.from(track.times);
  const n = times.length;
  if (n === 0) return "no keys";
  for (let k = 0; k < n; k++) {
    const t = times[k]!;
    if (!Number.isFinite(t) || t < 0) return `key time ${t} is not a finite time ≥ 0`;
    if (k > 0 && !(t > times[k - 1]!)) return `key times are not strictly increasing at key ${k}`;
  }
  for (const v of track.values) if (!Number.isFinite(v)) return "a key value is not finite";
  const perKey = track.values.length / n;
  if (!Number.isInteger(perKey) || perKey < 1) return `${track.values.length} values do not divide into ${n} keys`;
  if ((track as unknown as TrackInterpolantFactory).createInterpolant?.isInterpolantFactoryMethodGLTFCubicSpline === true) {
    if (perKey % 3 !== 0) return "cubic-spline keys need in-tangent, value and out-tangent";
    return { times, values: Float32Array.from(track.values), interpolation: "CUBICSPLINE", stride: perKey / 3, resampled: false };
  }
  switch (track.getInterpolation()) {
    case InterpolateDiscrete:
      return { times, values: Float32Array.from(track.values), interpolation: "STEP", stride: perKey, resampled: false };
    case InterpolateLinear:
      return { times, values: Float32Array.from(track.values), interpolation: "LINEAR", stride: perKey, resampled: false };
    case InterpolateSmooth:
      return { times, values: smoothToCubicSpline(times, track.values, perKey), interpolation: "CUBICSPLINE", stride: perKey, resampled: false };
    default:
      return resample(track, times, perKey, rate);
  }
}

/**
 * three's CubicInterpolant (InterpolateSmooth) as glTF cubic-spline triplets. On segment [t0, t1]
 * three evaluates a cubic in p = (t − t0)/(t1 − t0) whose derivatives at the ends are
 *   V′(0) = ½(v1 − v0) + w_P (v0 − v_P),   V′(1) = ½(v1 − v0) + w_N (v_N − v1),
 * w_P = ½(t1 − t0)/(t0 − t_P), w_N = ½(t1 − t0)/(t_N − t1), with the neighbouring keys P and N (at the
 * ends, ZeroCurvatureEnding: P = key 1 at t_P = t1, N = key 0 at t_N = t0). A cubic is fixed by its end
 * values and derivatives, so glTF's Hermite form with out-tangent_0 = V′(0)/(t1 − t0) and in-tangent_1 =
 * V′(1)/(t1 − t0) reproduces it exactly.
 */
export function smoothToCubicSpline(times: Float32Array, values: ArrayLike<number>, stride: number): Float32Array {
  expectTypedArray("smoothToCubicSpline", "times", times, Float32Array);
  expectInteger("smoothToCubicSpline", "stride", stride, 1, 0xffff);
  expectNumberArray("smoothToCubicSpline", "values", values);
  if (values.length < stride * times.length) throw rangeError("smoothToCubicSpline", "values", `${stride} values per key (${stride * times.length})`, values);
  const n = times.length;
  const out = new Float32Array(3 * stride * n);
  const v = (k: number, c: number): number => values[k * stride + c]!;
  for (let k = 0; k < n; k++) for (let c = 0; c < stride; c++) out[(3 * k + 1) * stride + c] = v(k, c);
  for (let i = 0; i + 1 < n; i++) {
    const t0 = times[i]!, t1 = times[i + 1]!;
    const dt = t1 - t0;
    const iP = i > 0 ? i - 1 : i + 1;
    const tP = i > 0 ? times[i - 1]! : t1;
    const iN = i + 2 < n ? i + 2 : i;
    const tN = i + 2 < n ? times[i + 2]! : t0;
    const wP = (0.5 * dt) / (t0 - tP);
    const wN = (0.5 * dt) / (tN - t1);
    for (let c = 0; c < stride; c++) {
      const v0 = v(i, c), v1 = v(i + 1, c);
      out[(3 * i + 2) * stride + c] = (0.5 * (v1 - v0) + wP * (v0 - v(iP, c))) / dt; // out-tangent of key i
      out[3 * (i + 1) * stride + c] = (0.5 * (v1 - v0) + wN * (v(iN, c) - v1)) / dt; // in-tangent of key i + 1
    }
  }
  return out;
}

/** Samples a track with three's own interpolant at every key time and a uniform `rate` grid. */
function resample(track: KeyframeTrack, keyTimes: Float32Array, stride: number, rate: number): ConvertedKeys | string {
  if (!(rate > 0 && Number.isFinite(rate))) return `resample rate ${rate} is not a positive number`;
  const start = keyTimes[0]!, end = keyTimes[keyTimes.length - 1]!;
  const grid = new Set<number>(keyTimes);
  for (let k = 1; start + k / rate < end; k++) grid.add(Math.fround(start + k / rate));
  const times = Float32Array.from([...grid].sort((a, b) => a - b));
  const result = new Float32Array(stride);
  const factory = (track as unknown as TrackInterpolantFactory).createInterpolant;
  if (typeof factory !== "function") return "the track has no interpolant";
  const interpolant = factory.call(track, result);
  const values = new Float32Array(stride * times.length);
  times.forEach((t, k) => values.set(interpolant.evaluate(t) as ArrayLike<number>, k * stride));
  return { times, values, interpolation: "LINEAR", stride, resampled: true };
}
