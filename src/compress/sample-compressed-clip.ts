import { quatInterpolateAt, type QuatInterpolation } from "../math/quat.ts";
import type { Pose } from "../pose/pose.ts";
import { decodeRotationKey, decodeRotationPair, decodeVectorKey, TrackEncoding, type CompressedClip } from "./compressed-clip.ts";

/**
 * Per-playback state for sampling one compressed clip: the grid frame sampled last and, per track, the
 * decoded keys of that frame and the next, so forward playback decodes each key once (as ozz's sampling
 * context does). Plain data owned by one character.
 */
export interface CompressedClipCursor {
  readonly clip: CompressedClip;
  /** Element 0: the grid frame f whose keys f and f + 1 `cache` holds; −1 before the first sample. */
  readonly frame: Int32Array;
  /** Decoded keys f and f + 1 per track, 8 floats per track (4 each; translations use 3). */
  readonly cache: Float32Array;
}

/** A cursor for `clip` with nothing decoded yet. */
export function createCompressedClipCursor(clip: CompressedClip): CompressedClipCursor {
  return { clip, frame: Int32Array.of(-1), cache: new Float32Array(8 * clip.tracks.length) };
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
  const rest = clip.skeleton.rest;
  if (cursor.clip !== clip) throw new Error(`sampleCompressedClip: the cursor belongs to clip "${cursor.clip.name}", not "${clip.name}"`);
  if (out === rest) throw new Error("sampleCompressedClip: out must not be the skeleton's rest pose");
  if (out.jointCount !== rest.jointCount) throw new RangeError("sampleCompressedClip: out has the wrong joint count");
  out.t.set(rest.t);
  out.r.set(rest.r);
  out.s.set(rest.s);
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
  const tracks = clip.tracks;
  const cache = cursor.cache;
  // The interpolation weight goes to quatInterpolateAt in a slot: a double argument of a call V8 does
  // not inline is boxed, once per rotation track (docs/performance.md, Allocation).
  weight[0] = a;
  for (let i = 0; i < tracks.length; i++) {
    const track = tracks[i]!;
    const enc = track.encoding;
    const rotation = track.path === "rotation";
    const target = rotation ? out.r : track.path === "translation" ? out.t : out.s;
    const o = (rotation ? 4 : 3) * track.joint;
    if (enc === TrackEncoding.CONSTANT) {
      const p = track.params;
      target[o] = p[0]!;
      target[o + 1] = p[1]!;
      target[o + 2] = p[2]!;
      if (rotation) target[o + 3] = p[3]!;
      continue;
    }
    const c = 8 * i;
    if (move === 1) {
      cache[c] = cache[c + 4]!;
      cache[c + 1] = cache[c + 5]!;
      cache[c + 2] = cache[c + 6]!;
      cache[c + 3] = cache[c + 7]!;
      if (rotation) decodeRotationKey(cache, c + 4, track, f + 1);
      else decodeVectorKey(cache, c + 4, track, f + 1);
    } else if (move === 2) {
      if (rotation) {
        decodeRotationPair(cache, c, track, f);
      } else {
        decodeVectorKey(cache, c, track, f);
        decodeVectorKey(cache, c + 4, track, f + 1);
      }
    }
    if (rotation) {
      quatInterpolateAt(quatMode, target, o, cache, c, cache, c + 4, weight, 0);
    } else {
      const s = 1 - a;
      target[o] = s * cache[c]! + a * cache[c + 4]!;
      target[o + 1] = s * cache[c + 1]! + a * cache[c + 5]!;
      target[o + 2] = s * cache[c + 2]! + a * cache[c + 6]!;
    }
  }
  return out;
}
