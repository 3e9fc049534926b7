import { quatConjugate, quatMultiply } from "../math/quat.ts";
import { createPose, type Pose } from "../pose/pose.ts";
import { createClip, type Clip, type JointTrack, type TrackPath } from "./clip.ts";
import { createClipCursor } from "./clip-cursor.ts";
import { sampleClipUnchecked } from "./sample-clip.ts";
import { AnimgraphError } from "../errors/animgraph-error.ts";
import { argumentError, expectFiniteNumber, expectString } from "../errors/check-argument.ts";
import { expectWholeClip } from "./check-clip.ts";

/** The pose an additive clip is measured against. */
export type AdditiveReference =
  /** The clip's own pose at time 0 (its first frame). */
  | { readonly kind: "firstFrame" }
  /** The skeleton's rest pose. */
  | { readonly kind: "rest" }
  /** Another clip (same skeleton) sampled at `time` seconds, e.g. the idle pose an overlay was made on. */
  | { readonly kind: "clipFrame"; readonly clip: Clip; readonly time: number };

const PATHS: readonly TrackPath[] = ["translation", "rotation", "scale"];

/**
 * Builds an additive (delta) clip from `clip` against a reference pose R (docs/blending.md, "Additive"):
 * per key, t_add = t − t_R, r_add = q_R⁻¹ · q (q_R⁻¹ = conjugate), s_add = s / s_R (a zero reference
 * scale component gives 1). Each delta is a fixed affine map of the key, so interpolating the deltas
 * equals the delta of the interpolated source (lerp, shortest-arc slerp — left-multiplying by a unit
 * quaternion keeps dot products — and Hermite; tangents are mapped by the linear part). The result is
 * a new immutable Clip with a track for every joint and path (joints the source does not animate get
 * a one-key constant delta), so sampling it never falls back to the rest pose, which is not a delta.
 * Float (morph weight) tracks are carried over unchanged, not as deltas.
 * Throws if the reference clip uses another skeleton (a programmer error).
 */
export function makeAdditiveClip(clip: Clip, reference: AdditiveReference, name?: string): Clip {
  const fn = "makeAdditiveClip";
  expectWholeClip(fn, "clip", clip);
  const skeleton = clip.skeleton;
  const J = skeleton.jointCount;
  const kind = (reference as { kind?: unknown } | null)?.kind;
  if (typeof reference !== "object" || reference === null || (kind !== "firstFrame" && kind !== "rest" && kind !== "clipFrame")) {
    throw argumentError(fn, "reference", '{ kind: "firstFrame" }, { kind: "rest" } or { kind: "clipFrame", clip, time }', reference);
  }
  if (reference.kind === "clipFrame") {
    expectWholeClip(fn, "reference.clip", reference.clip, J);
    if (reference.clip.skeleton !== skeleton) {
      throw new AnimgraphError("ERR_SKELETON_MISMATCH", `${fn}: reference.clip "${reference.clip.name}" is bound to another skeleton than clip "${clip.name}"`, { argument: "reference.clip" });
    }
    expectFiniteNumber(fn, "reference.time", reference.time);
  }
  if (name !== undefined) expectString(fn, "name", name);
  return additiveClip(clip, reference, name ?? `${clip.name}+additive`);
}

/** `makeAdditiveClip` without the argument checks, for the graph compiler's own clips. */
export function additiveClip(clip: Clip, reference: AdditiveReference, name: string): Clip {
  const skeleton = clip.skeleton;
  const J = skeleton.jointCount;
  const ref: Pose = createPose(J);
  if (reference.kind === "rest") {
    ref.t.set(skeleton.rest.t);
    ref.r.set(skeleton.rest.r);
    ref.s.set(skeleton.rest.s);
  } else {
    const source = reference.kind === "firstFrame" ? clip : reference.clip;
    if (source.skeleton !== skeleton) throw new Error(`makeAdditiveClip: reference clip "${source.name}" uses another skeleton`);
    sampleClipUnchecked(ref, source, reference.kind === "firstFrame" ? 0 : reference.time, createClipCursor(source));
  }
  const rest = skeleton.rest;
  const tracks: JointTrack[] = [];
  for (let j = 0; j < J; j++) {
    for (let p = 0; p < 3; p++) {
      const path = PATHS[p]!;
      const stride = path === "rotation" ? 4 : 3;
      const index = clip.trackIndex[3 * j + p]!;
      const source: JointTrack =
        index >= 0
          ? clip.tracks[index]!
          : {
              joint: j,
              path,
              interpolation: "LINEAR",
              stride,
              times: new Float32Array([0]),
              values: (path === "rotation" ? rest.r : path === "translation" ? rest.t : rest.s).slice(stride * j, stride * j + stride),
            };
      tracks.push(deltaTrack(source, ref));
    }
  }
  return createClip({ name, skeleton, tracks, duration: clip.duration, loopMode: clip.loopMode, floatTracks: clip.floatTracks });
}

/** Maps every key (and CUBICSPLINE tangent) of `track` to its delta against `ref`. */
function deltaTrack(track: JointTrack, ref: Pose): JointTrack {
  const j = track.joint;
  const src = track.values;
  const values = new Float32Array(src.length);
  const cubic = track.interpolation === "CUBICSPLINE";
  const stride = track.stride;
  if (track.path === "rotation") {
    const inv = new Float64Array(4);
    quatConjugate(inv, 0, ref.r, 4 * j);
    // q_R⁻¹ · v is linear in v, so tangents map the same way as values.
    for (let o = 0; o < src.length; o += 4) quatMultiply(values, o, inv, 0, src, o);
  } else if (track.path === "translation") {
    for (let o = 0; o < src.length; o += 3) {
      const isTangent = cubic && (o / 3) % 3 !== 1;
      for (let c = 0; c < 3; c++) values[o + c] = isTangent ? src[o + c]! : src[o + c]! - ref.t[3 * j + c]!;
    }
  } else {
    for (let o = 0; o < src.length; o += 3) {
      for (let c = 0; c < 3; c++) {
        const sr = ref.s[3 * j + c]!;
        values[o + c] = sr === 0 ? (cubic && (o / 3) % 3 !== 1 ? 0 : 1) : src[o + c]! / sr;
      }
    }
  }
  return { joint: j, path: track.path, interpolation: track.interpolation, stride, times: track.times, values };
}
