import { QUAT_INTERPOLATIONS, type QuatInterpolation } from "../math/quat.ts";
import type { Pose } from "../pose/pose.ts";
import type { Clip } from "./clip.ts";
import { expectArray, expectClip, expectNumber, expectOneOf, expectPose, expectSkeleton, expectTypedArray, invalidValue } from "../errors/check-argument.ts";
import { expectClipCursor, type ClipCursor } from "./clip-cursor.ts";
import { sampleTrackAt, sampleTrackUnchecked } from "./sample-track.ts";

/**
 * Samples `clip` at `time` seconds (clip-local; map playback time with `wrapTime` first) into `out`:
 * every joint starts from the skeleton's rest pose and each track overwrites its component, following
 * the rules of `sampleTrack` (held first/last keys, exact keys, STEP/LINEAR/CUBICSPLINE as glTF defines
 * them, rotations by shortest-arc slerp unless `quatMode` says otherwise). The cursor makes forward
 * playback O(1) per track; any jump still gives the exact answer. No allocation.
 * Aliasing: `out` must not be the skeleton's rest pose (it would be overwritten); it is otherwise free.
 */
export function sampleClip(out: Pose, clip: Clip, time: number, cursor: ClipCursor, quatMode: QuatInterpolation = "slerp"): Pose {
  const fn = "sampleClip";
  expectClip(fn, "clip", clip);
  expectSkeleton(fn, "clip.skeleton", clip.skeleton);
  expectPose(fn, "out", out, clip.skeleton.jointCount);
  if (out === clip.skeleton.rest) throw invalidValue(fn, "out", "must not be the skeleton's rest pose (sampling would overwrite it)");
  expectNumber(fn, "time", time);
  expectClipCursor(fn, "cursor", cursor, clip);
  expectOneOf(fn, "quatMode", quatMode, QUAT_INTERPOLATIONS);
  return sampleClipUnchecked(out, clip, time, cursor, quatMode);
}


/** `sampleClip` without the argument checks: what the library's own loops call. */
export function sampleClipUnchecked(out: Pose, clip: Clip, time: number, cursor: ClipCursor, quatMode: QuatInterpolation = "slerp"): Pose {
  arg[0] = time;
  return sampleClipAt(out, clip, arg, 0, cursor, quatMode);
}
const arg = new Float64Array(1);

/**
 * `sampleClip` at time = ts[ti]: the per-frame form. V8 boxes a double passed to a call it does not
 * inline into a new heap number (src/math/quat.ts explains), so the time is handed down in memory: with
 * this form sampling allocates nothing per clip or per track.
 */
export function sampleClipAt(out: Pose, clip: Clip, ts: Float64Array, ti: number, cursor: ClipCursor, quatMode: QuatInterpolation = "slerp"): Pose {
  const rest = clip.skeleton.rest;
  if (cursor.clip !== clip) throw new Error(`sampleClip: the cursor belongs to clip "${cursor.clip.name}", not "${clip.name}"`);
  if (out === rest) throw new Error("sampleClip: out must not be the skeleton's rest pose");
  if (out.jointCount !== rest.jointCount) throw new RangeError("sampleClip: out has the wrong joint count");
  out.t.set(rest.t);
  out.r.set(rest.r);
  out.s.set(rest.s);
  const tracks = clip.tracks;
  const keys = cursor.keys;
  for (let i = 0; i < tracks.length; i++) {
    const track = tracks[i]!;
    const j = track.joint;
    if (track.path === "rotation") {
      keys[i] = sampleTrackAt(out.r, 4 * j, track.times, track.values, 4, track.interpolation, true, quatMode, ts, ti, keys[i]!);
    } else {
      const target = track.path === "translation" ? out.t : out.s;
      keys[i] = sampleTrackAt(target, 3 * j, track.times, track.values, 3, track.interpolation, false, quatMode, ts, ti, keys[i]!);
    }
  }
  return out;
}

/** Number of floats `sampleFloatTracks` writes for `clip`: the sum of its float tracks' counts. */
export function floatTrackLength(clip: Clip): number {
  expectClip("floatTrackLength", "clip", clip);
  expectArray("floatTrackLength", "clip.floatTracks", clip.floatTracks);
  let n = 0;
  for (const track of clip.floatTracks) n += track.count;
  return n;
}

/**
 * Samples every float (morph weight) track of `clip` at `time` into `out`, track after track in
 * `clip.floatTracks` order (`count` floats each; `floatTrackLength(clip)` in all). Same rules as joint
 * tracks (LINEAR is a plain lerp: weights are not rotations; a `quaternion` track is slerped like a joint
 * rotation). Returns `out`. No allocation.
 */
export function sampleFloatTracks(out: Float32Array, clip: Clip, time: number, cursor: ClipCursor): Float32Array {
  const fn = "sampleFloatTracks";
  expectClip(fn, "clip", clip);
  expectArray(fn, "clip.floatTracks", clip.floatTracks);
  expectTypedArray(fn, "out", out, Float32Array, floatTrackLength(clip));
  expectNumber(fn, "time", time);
  expectClipCursor(fn, "cursor", cursor, clip);
  const tracks = clip.floatTracks;
  const keys = cursor.floatKeys;
  let o = 0;
  for (let i = 0; i < tracks.length; i++) {
    const track = tracks[i]!;
    keys[i] = sampleTrackUnchecked(out, o, track.times, track.values, track.count, track.interpolation, track.quaternion === true, "slerp", time, keys[i]!);
    o += track.count;
  }
  return out;
}
