import { QUAT_INTERPOLATIONS, quatInterpolateAt, type QuatInterpolation } from "../math/quat.ts";
import type { Pose } from "../pose/pose.ts";
import { decodeRotationKey, decodeRotationPair, decodeVectorKey, TrackEncoding, type CompressedClip } from "./compressed-clip.ts";
import { expectNumber, expectOneOf, expectPose, invalidValue } from "../errors/check-argument.ts";
import { expectCompressedClip, expectCompressedCursor } from "./check-compressed.ts";

/**
 * Per-playback state for sampling one compressed clip: the grid frame sampled last and, per track, the
 * decoded keys of that frame and the next, so forward playback decodes each key once (as ozz's sampling
 * context does). Plain data owned by one character.
 */
export interface CompressedClipCursor {
  readonly clip: CompressedClip;
  /** The clip's sampling plan, shared by every cursor of the clip (`samplingPlan`). */
  readonly plan: SamplingPlan;
  /**
   * Element 0: the grid frame f whose keys f and f + 1 `cache` holds (−1 before the first sample);
   * element 1: where key f starts in each track's 8 floats (0 or 4; key f + 1 is in the other half).
   */
  readonly frame: Int32Array;
  /** Decoded keys f and f + 1 per track, 8 floats per track (4 each, in the halves `frame[1]` says; translations use 3). */
  readonly cache: Float32Array;
}

/**
 * What sampling a clip needs besides its keys, built once per clip: the base pose (the rest pose with
 * every CONSTANT track written in, so one copy per sample sets all joints that do not move) and the
 * animated tracks as flat tables (no property loads or string compares per track and sample).
 */
export interface SamplingPlan {
  /** The rest pose with the clip's constant tracks applied. */
  readonly baseT: Float32Array;
  readonly baseR: Float32Array;
  readonly baseS: Float32Array;
  /** Per animated (non-CONSTANT) track: its index in `clip.tracks`. */
  readonly track: Int32Array;
  /** Per animated track: 0 translation, 1 rotation, 2 scale. */
  readonly kind: Uint8Array;
  /** Per animated track: its offset in the pose array of its kind (3 × joint, or 4 × joint for rotations). */
  readonly offset: Int32Array;
}

const plans = new WeakMap<CompressedClip, SamplingPlan>();

/** The sampling plan of `clip` (built on first use, then shared). */
export function samplingPlan(clip: CompressedClip): SamplingPlan {
  let plan = plans.get(clip);
  if (plan) return plan;
  const rest = clip.skeleton.rest;
  const baseT = Float32Array.from(rest.t), baseR = Float32Array.from(rest.r), baseS = Float32Array.from(rest.s);
  const animated: number[] = [];
  clip.tracks.forEach((t, i) => {
    if (t.encoding !== TrackEncoding.CONSTANT) {
      animated.push(i);
      return;
    }
    const stride = t.path === "rotation" ? 4 : 3;
    const target = t.path === "rotation" ? baseR : t.path === "translation" ? baseT : baseS;
    target.set(t.params.subarray(0, stride), stride * t.joint);
  });
  const kind = Uint8Array.from(animated, (i) => (clip.tracks[i]!.path === "translation" ? 0 : clip.tracks[i]!.path === "rotation" ? 1 : 2));
  const offset = Int32Array.from(animated, (i, k) => (kind[k] === 1 ? 4 : 3) * clip.tracks[i]!.joint);
  plan = { baseT, baseR, baseS, track: Int32Array.from(animated), kind, offset };
  plans.set(clip, plan);
  return plan;
}

/** A cursor for `clip` with nothing decoded yet. */
export function createCompressedClipCursor(clip: CompressedClip): CompressedClipCursor {
  expectCompressedClip("createCompressedClipCursor", "clip", clip);
  return { clip, plan: samplingPlan(clip), frame: Int32Array.of(-1, 0), cache: new Float32Array(8 * clip.tracks.length) };
}

// Scratch for the interpolation weight between two grid frames (no allocation per sample).
const weight = new Float64Array(1);

/**
 * Samples a compressed clip at `time` seconds (clip-local, like `sampleClip`: map playback time with
 * `wrapTime` first) into `out`: joints start from the rest pose and each track overwrites its
 * component. Before the first frame the first key holds, after the last frame the last key holds.
 * Between grid frames: linear for translations and scales, `quatMode` (default slerp, shortest arc, as
 * `sampleClip`) for rotations — so `decompressClip(c)` sampled by `sampleClip` gives the same pose up
 * to float32 rounding of key times. No allocation.
 * Aliasing: `out` must not be the skeleton's rest pose.
 */
export function sampleCompressedClip(
  out: Pose,
  clip: CompressedClip,
  time: number,
  cursor: CompressedClipCursor,
  quatMode: QuatInterpolation = "slerp",
): Pose {
  const fn = "sampleCompressedClip";
  expectCompressedClip(fn, "clip", clip);
  expectPose(fn, "out", out, clip.skeleton.jointCount);
  if (out === clip.skeleton.rest) throw invalidValue(fn, "out", "must not be the skeleton's rest pose (sampling would overwrite it)");
  expectNumber(fn, "time", time);
  expectCompressedCursor(fn, "cursor", cursor, clip);
  expectOneOf(fn, "quatMode", quatMode, QUAT_INTERPOLATIONS);
  return sampleCompressedClipUnchecked(out, clip, time, cursor, quatMode);
}


/** `sampleCompressedClip` without the argument checks: what the library's own loops call. */
export function sampleCompressedClipUnchecked(
  out: Pose,
  clip: CompressedClip,
  time: number,
  cursor: CompressedClipCursor,
  quatMode: QuatInterpolation = "slerp",
): Pose {
  const rest = clip.skeleton.rest;
  if (cursor.clip !== clip) throw new Error(`sampleCompressedClip: the cursor belongs to clip "${cursor.clip.name}", not "${clip.name}"`);
  if (out === rest) throw new Error("sampleCompressedClip: out must not be the skeleton's rest pose");
  if (out.jointCount !== rest.jointCount) throw new RangeError("sampleCompressedClip: out has the wrong joint count");
  const plan = cursor.plan;
  out.t.set(plan.baseT);
  out.r.set(plan.baseR);
  out.s.set(plan.baseS);
  const last = clip.frameCount - 1;
  let u = (time - clip.startTime) * clip.sampleRate;
  if (!(u > 0)) {
    u = 0; // also catches NaN
  } else if (u > last - 1) {
    // The last interval ends at `duration` (frameTime): it may be shorter than the others.
    const penultimate = clip.startTime + (last - 1) / clip.sampleRate;
    const span = clip.duration - penultimate;
    u = last < 1 ? 0 : span > 0 ? last - 1 + (time - penultimate) / span : last;
    if (u > last) u = last;
  }
  // Keys f and f + 1 bracket u (every grid frame is a key of every animated track).
  let f = Math.floor(u);
  if (f > last - 1) f = last - 1;
  if (f < 0) f = 0;
  let a = u - f;
  if (a > 1) a = 1;
  const was = cursor.frame[0]!;
  // 0: the cache holds f and f + 1; 1: it holds f − 1 and f (move on by one); 2: decode both.
  const move = was === f ? 0 : was === f - 1 && was >= 0 ? 1 : 2;
  cursor.frame[0] = f;
  // Which half of each track's 8 floats holds key f: moving on by one decodes key f + 1 over key f − 1
  // and flips it, instead of copying key f down.
  const half = move === 2 ? 0 : move === 1 ? 4 - cursor.frame[1]! : cursor.frame[1]!;
  cursor.frame[1] = half;
  const other = 4 - half;
  const tracks = clip.tracks;
  const cache = cursor.cache;
  // The interpolation weight goes to quatInterpolateAt in a slot: a double argument of a call V8 does
  // not inline is boxed, once per rotation track (docs/performance.md, Allocation).
  weight[0] = a;
  const nlerp = quatMode === "nlerp";
  const sa = 1 - a;
  const { track: index, kind, offset } = plan;
  const outT = out.t, outR = out.r, outS = out.s;
  for (let k = 0; k < index.length; k++) {
    const i = index[k]!;
    const track = tracks[i]!;
    const rotation = kind[k] === 1;
    const c = 8 * i;
    if (move === 1) {
      if (rotation) decodeRotationKey(cache, c + other, track, f + 1);
      else decodeVectorKey(cache, c + other, track, f + 1);
    } else if (move === 2) {
      if (rotation) {
        decodeRotationPair(cache, c, track, f);
      } else {
        decodeVectorKey(cache, c, track, f);
        decodeVectorKey(cache, c + 4, track, f + 1);
      }
    }
    const o = offset[k]!;
    if (!rotation) {
      const target = kind[k] === 0 ? outT : outS;
      const p = c + half, q = c + other;
      target[o] = sa * cache[p]! + a * cache[q]!;
      target[o + 1] = sa * cache[p + 1]! + a * cache[q + 1]!;
      target[o + 2] = sa * cache[p + 2]! + a * cache[q + 2]!;
    } else if (nlerp) {
      // quatNlerpAt written out (the same arithmetic, so results are bit-identical to it).
      const p = c + half, q = c + other;
      const ax = cache[p]!, ay = cache[p + 1]!, az = cache[p + 2]!, aw = cache[p + 3]!;
      let bx = cache[q]!, by = cache[q + 1]!, bz = cache[q + 2]!, bw = cache[q + 3]!;
      if (ax * bx + ay * by + az * bz + aw * bw < 0) {
        bx = -bx; by = -by; bz = -bz; bw = -bw;
      }
      const x = sa * ax + a * bx, y = sa * ay + a * by, z = sa * az + a * bz, w = sa * aw + a * bw;
      const n2 = x * x + y * y + z * z + w * w;
      if (n2 > 0 && n2 !== Infinity) {
        const inv = 1 / Math.sqrt(n2);
        outR[o] = x * inv; outR[o + 1] = y * inv; outR[o + 2] = z * inv; outR[o + 3] = w * inv;
      } else {
        outR[o] = 0; outR[o + 1] = 0; outR[o + 2] = 0; outR[o + 3] = 1;
      }
    } else {
      quatInterpolateAt(quatMode, outR, o, cache, c + half, cache, c + other, weight, 0);
    }
  }
  return out;
}
