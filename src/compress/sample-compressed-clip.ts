import { quatInterpolate, type QuatInterpolation } from "../math/quat.ts";
import type { Pose } from "../pose/pose.ts";
import { decodeKey, keyAtOrAfter, keyAtOrBefore, keyRankAt, TrackEncoding, type CompressedClip } from "./compressed-clip.ts";

/**
 * Per-playback state for sampling one compressed clip: per track the key segment used last and its
 * two decoded keys, so forward playback decodes each key once (as ozz's sampling context does).
 * Plain data owned by one character.
 */
export interface CompressedClipCursor {
  readonly clip: CompressedClip;
  /** Segment per track (keys k and k + 1 bracket the time); −1 before the first sample. */
  readonly segment: Int32Array;
  /** Grid frames of the segment's two keys, 2 per track. */
  readonly segmentFrames: Int32Array;
  /** Decoded keys k and k + 1 per track, 8 floats per track (4 each; translations use 3). */
  readonly cache: Float32Array;
}

/** A cursor for `clip` with nothing decoded yet. */
export function createCompressedClipCursor(clip: CompressedClip): CompressedClipCursor {
  const n = clip.tracks.length;
  return { clip, segment: new Int32Array(n).fill(-1), segmentFrames: new Int32Array(2 * n), cache: new Float32Array(8 * n) };
}

/**
 * Samples a compressed clip at `time` seconds (clip-local, like `sampleClip`: map playback time with
 * `wrapTime` first) into `out`: joints start from the rest pose and each track overwrites its
 * component. Before the first frame the first key holds, after the last frame the last key holds.
 * Between keys: linear for translations and scales, `quatMode` (default slerp, shortest arc, as
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
  if (!(u > 0)) u = 0; // also catches NaN
  else if (u > last) u = last;
  const tracks = clip.tracks;
  const segments = cursor.segment;
  const segFrames = cursor.segmentFrames;
  const cache = cursor.cache;
  for (let i = 0; i < tracks.length; i++) {
    const track = tracks[i]!;
    const rotation = track.path === "rotation";
    const target = rotation ? out.r : track.path === "translation" ? out.t : out.s;
    const stride = rotation ? 4 : 3;
    const o = stride * track.joint;
    if (track.encoding === TrackEncoding.CONSTANT) {
      decodeKey(target, o, track, 0);
      continue;
    }
    let k = segments[i]!;
    let f0 = segFrames[2 * i]!;
    let f1 = segFrames[2 * i + 1]!;
    // Forward playback stays in the segment or moves to the next; anything else locates the key
    // through the key mask (rank = keys before a frame, by popcount).
    if (k < 0 || u < f0 || u >= f1) {
      const mask = track.keyMask;
      // Forward by up to three keys with the mask alone (no rank); further jumps search.
      let steps = 0;
      if (k >= 0 && u >= f1) {
        while (steps < 3 && f1 < last && u >= f1) {
          f0 = f1;
          f1 = keyAtOrAfter(mask, f1 + 1);
          steps++;
        }
      }
      if (steps > 0 && u < f1) {
        k += steps;
      } else {
        let fl = Math.floor(u);
        if (fl > last - 1) fl = last - 1;
        f0 = keyAtOrBefore(mask, fl);
        k = keyRankAt(track, f0);
        f1 = keyAtOrAfter(mask, f0 + 1);
      }
      const was = segments[i]!;
      if (k !== was) {
        const c = 8 * i;
        if (k === was + 1 && was >= 0) {
          // Moving on by one key: the old second key is the new first one.
          cache[c] = cache[c + 4]!;
          cache[c + 1] = cache[c + 5]!;
          cache[c + 2] = cache[c + 6]!;
          cache[c + 3] = cache[c + 7]!;
        } else {
          decodeKey(cache, c, track, k);
        }
        decodeKey(cache, c + 4, track, k + 1);
        segments[i] = k;
      }
      segFrames[2 * i] = f0;
      segFrames[2 * i + 1] = f1;
    }
    let a = (u - f0) / (f1 - f0);
    if (a > 1) a = 1;
    const c = 8 * i;
    if (rotation) {
      quatInterpolate(quatMode, target, o, cache, c, cache, c + 4, a);
    } else {
      const s = 1 - a;
      target[o] = s * cache[c]! + a * cache[c + 4]!;
      target[o + 1] = s * cache[c + 1]! + a * cache[c + 5]!;
      target[o + 2] = s * cache[c + 2]! + a * cache[c + 6]!;
    }
  }
  return out;
}
