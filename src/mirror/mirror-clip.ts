import { createClip, type Clip, type FloatTrack, type JointTrack } from "../clip/clip.ts";
import { formatDiagnostic } from "../diagnostics/diagnostic.ts";
import { expectClip, expectSkeleton, expectString, invalidValue } from "../errors/check-argument.ts";
import { checkMirrorOptions, expectMirrorMap, skeletonMismatch } from "./check-mirror-arguments.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { compileMirrorMap, type MirrorAxis, type MirrorMap, type MirrorOptions } from "./mirror-map.ts";
import { sideMarkers, swapMarkers } from "./side-markers.ts";

/** `mirrorClip`'s options: how to mirror (MirrorOptions) and the new clip's name. */
export interface MirrorClipOptions extends MirrorOptions {
  /** Name of the mirrored clip. Default: the source clip's name. */
  readonly name?: string;
}

/**
 * The mirror image of a clip (see MirrorMap for the rule): left and right joints swap motions, every
 * motion is reflected across the plane (root motion included), and mirroring the result again gives
 * the clip back within float rounding. `skeleton` is the clip's skeleton or one with the same joint
 * names (a glTF's, whose inverse bind matrices give the reference pose). Throws when the joints cannot
 * be paired (AnimgraphError ERR_INVALID_VALUE listing every problem: unpaired or ambiguous names, a
 * hierarchy that is not symmetric; `compileMirrorMap` reports the same as diagnostics for user data),
 * and on a clip of another skeleton (ERR_SKELETON_MISMATCH) or wrong-typed arguments (ERR_ARGUMENT).
 */
export function mirrorClip(clip: Clip, skeleton: Skeleton, options: MirrorClipOptions = {}): Clip {
  const fn = "mirrorClip";
  expectClip(fn, "clip", clip);
  expectSkeleton(fn, "skeleton", skeleton);
  checkMirrorOptions(fn, "options", options, skeleton.jointCount);
  checkSameJoints(fn, clip, skeleton);
  const compiled = compileMirrorMap(skeleton, options);
  if (!compiled.map) throw invalidValue(fn, "skeleton", `cannot pair the joints for "${clip.name}":\n${compiled.diagnostics.map(formatDiagnostic).join("\n")}`);
  return mirrorClipWithMap(clip, compiled.map, options?.name ?? clip.name);
}

/**
 * `mirrorClip` with a map compiled once (compileMirrorMap), for mirroring many clips of one skeleton.
 * Key times are kept (shared with the source); every key's value goes through the map, which is linear
 * in the rotation and affine in the translation, so LINEAR, STEP and CUBICSPLINE curves (whose tangents
 * take the linear part) are mirrored exactly, not resampled. A joint without a track whose mirrored
 * rest differs from its own rest gets a one-key track. Float tracks: a quaternion track (a VRM look-at)
 * is reflected, an `expression:…Left` track swaps with its `…Right` partner when the clip has one, and
 * morph-target weights are kept as they are (a mesh's morph targets say nothing about sides).
 */
export function mirrorClipWithMap(clip: Clip, map: MirrorMap, name?: string): Clip {
  const fn = "mirrorClipWithMap";
  expectClip(fn, "clip", clip);
  expectMirrorMap(fn, "map", map);
  if (name !== undefined) expectString(fn, "name", name);
  checkSameJoints(fn, clip, map.skeleton);
  const J = map.partner.length;
  const rest = clip.skeleton.rest;
  const tracks: JointTrack[] = [];
  const one = new Float32Array(4);
  for (let k = 0; k < J; k++) {
    const j = map.partner[k]!;
    for (const [slot, path, stride] of [[0, "translation", 3], [1, "rotation", 4], [2, "scale", 3]] as const) {
      const ti = clip.trackIndex[3 * j + slot]!;
      if (ti >= 0) {
        const src = clip.tracks[ti]!;
        const values = new Float32Array(src.values.length);
        const cubic = src.interpolation === "CUBICSPLINE";
        for (let key = 0, e = 0; e < values.length; key++, e += stride) {
          // CUBICSPLINE keys are (in-tangent, value, out-tangent): tangents take the linear part only.
          const tangent = cubic && key % 3 !== 1;
          mapValue(values, e, src.values, e, map, k, slot, tangent);
        }
        tracks.push({ joint: k, path, interpolation: src.interpolation, stride, times: src.times, values });
        continue;
      }
      const restValues = slot === 0 ? rest.t : slot === 1 ? rest.r : rest.s;
      mapValue(one, 0, restValues, stride * j, map, k, slot, false);
      if (!sameValue(one, restValues, stride * k, stride)) {
        tracks.push({ joint: k, path, interpolation: "LINEAR", stride, times: Float32Array.of(clip.startTime), values: one.slice(0, stride) });
      }
    }
  }
  return createClip({
    name: name ?? clip.name, skeleton: clip.skeleton, tracks, floatTracks: mirrorFloatTracks(clip.floatTracks, map.axis), duration: clip.duration, loopMode: clip.loopMode,
  });
}

/** Writes one mapped value of `stride` floats for joint k (slot 0 translation, 1 rotation, 2 scale). */
function mapValue(out: Float32Array, o: number, src: Float32Array, so: number, map: MirrorMap, k: number, slot: 0 | 1 | 2, tangent: boolean): void {
  if (slot === 1) {
    const R = map.rotation, r = 16 * k;
    const x = src[so]!, y = src[so + 1]!, z = src[so + 2]!, w = src[so + 3]!;
    for (let i = 0; i < 4; i++) out[o + i] = R[r + 4 * i]! * x + R[r + 4 * i + 1]! * y + R[r + 4 * i + 2]! * z + R[r + 4 * i + 3]! * w;
    return;
  }
  const x = src[so]!, y = src[so + 1]!, z = src[so + 2]!;
  if (slot === 0) {
    const T = map.translation, t = 12 * k;
    for (let i = 0; i < 3; i++) out[o + i] = T[t + 3 * i]! * x + T[t + 3 * i + 1]! * y + T[t + 3 * i + 2]! * z + (tangent ? 0 : T[t + 9 + i]!);
    return;
  }
  const S = map.scale, s = 9 * k;
  for (let i = 0; i < 3; i++) out[o + i] = S[s + 3 * i]! * x + S[s + 3 * i + 1]! * y + S[s + 3 * i + 2]! * z;
}

/** Whether a mapped rest value equals the target joint's own rest within float32 rounding. */
function sameValue(v: Float32Array, rest: Float32Array, o: number, stride: number): boolean {
  if (stride === 4) {
    const dot = v[0]! * rest[o]! + v[1]! * rest[o + 1]! + v[2]! * rest[o + 2]! + v[3]! * rest[o + 3]!;
    return Math.abs(dot) >= 1 - 1e-7;
  }
  for (let i = 0; i < 3; i++) if (Math.abs(v[i]! - rest[o + i]!) > 1e-6 * Math.max(1, Math.abs(rest[o + i]!))) return false;
  return true;
}

const QUAT_FLIP: Record<MirrorAxis, readonly [number, number, number]> = { x: [1, -1, -1], y: [-1, 1, -1], z: [-1, -1, 1] };

function mirrorFloatTracks(tracks: readonly FloatTrack[], axis: MirrorAxis): FloatTrack[] {
  const targets = new Set(tracks.map((t) => t.target));
  return tracks.map((t) => {
    if (t.quaternion === true) {
      const [fx, fy, fz] = QUAT_FLIP[axis];
      const values = t.values.slice();
      for (let i = 0; i < values.length; i += 4) {
        values[i] = fx * values[i]!;
        values[i + 1] = fy * values[i + 1]!;
        values[i + 2] = fz * values[i + 2]!;
      }
      return { ...t, values };
    }
    if (t.target.startsWith("expression:")) {
      const expression = t.target.slice("expression:".length);
      const markers = sideMarkers(expression);
      if (markers.length > 0) {
        const other = `expression:${swapMarkers(expression, markers)}`;
        if (targets.has(other)) return { ...t, target: other };
      }
    }
    return t;
  });
}

function checkSameJoints(fn: string, clip: Clip, skeleton: Skeleton): void {
  if (clip.skeleton === skeleton) return;
  const a = clip.skeleton.names;
  const b = skeleton.names;
  if (a.length !== b.length || a.some((n, i) => n !== b[i])) {
    throw skeletonMismatch(fn, "clip", `"${clip.name}" is bound to a skeleton of ${a.length} joints that does not match the mirror's skeleton of ${b.length} (names must agree joint by joint)`);
  }
}
