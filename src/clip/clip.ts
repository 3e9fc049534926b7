import { expectArray, expectObject, expectOneOf, expectSkeleton, expectString, invalidValue } from "../errors/check-argument.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";

/** glTF's three interpolation modes, with glTF's meaning. */
export type Interpolation = "LINEAR" | "STEP" | "CUBICSPLINE";

/** Which local transform component a track animates. */
export type TrackPath = "translation" | "rotation" | "scale";

/** How time outside [0, duration] maps back into the clip. */
export type LoopMode = "loop" | "clamp" | "pingpong";

/**
 * One animated component of one joint. `times` are strictly increasing seconds. `values` holds
 * `stride` floats per key (3 for translation and scale, 4 for rotation x, y, z, w); for CUBICSPLINE it
 * holds glTF's triplets per key: in-tangent, value, out-tangent (3 × stride floats per key).
 */
export interface JointTrack {
  readonly joint: number;
  readonly path: TrackPath;
  readonly interpolation: Interpolation;
  readonly stride: 3 | 4;
  readonly times: Float32Array;
  readonly values: Float32Array;
}

/**
 * A float-vector track that is not a joint transform: glTF morph-target weights (`count` weights per
 * key, on the node `target`), or a VRM animation's expression weights and look-at rotation (see
 * src/io/vrma). Kept, never dropped, so a caller can apply them.
 */
export interface FloatTrack {
  /** Name of the node (or mesh) whose morph weights are animated; for a .vrma, `expression:<name>` or `lookAt`. */
  readonly target: string;
  /** Source node index (glTF), -1 if unknown. */
  readonly node: number;
  /** Floats per key (the number of morph targets; 1 for an expression weight, 4 for a rotation). */
  readonly count: number;
  /**
   * True when each key is one unit quaternion (x, y, z, w; `count` 4): sampled like a joint rotation
   * (shortest-arc slerp, normalised), not component by component. Default false.
   */
  readonly quaternion?: boolean;
  readonly interpolation: Interpolation;
  readonly times: Float32Array;
  readonly values: Float32Array;
}

/**
 * An immutable animation clip bound to a skeleton: joint tracks, float (morph weight) tracks, and the
 * lookup table from (joint, path) to track. Joints without a track take the skeleton's rest pose.
 */
export interface Clip {
  readonly name: string;
  readonly skeleton: Skeleton;
  /** Length in seconds: the last key time of any track (glTF and three.js convention: time starts at 0). */
  readonly duration: number;
  /** Earliest key time of any track (RiggedSimple's starts at 0.0417 s); before it, tracks hold their first key. */
  readonly startTime: number;
  readonly tracks: readonly JointTrack[];
  readonly floatTracks: readonly FloatTrack[];
  /**
   * Index into `tracks` per joint and path: `trackIndex[3 * joint + k]`, k = 0 translation, 1 rotation,
   * 2 scale; -1 when the joint has no such track.
   */
  readonly trackIndex: Int32Array;
  /** The default playback mode (a state may override it). */
  readonly loopMode: LoopMode;
}

const PATH_SLOT: Record<TrackPath, number> = { translation: 0, rotation: 1, scale: 2 };
const LOOP_MODES: readonly LoopMode[] = ["loop", "clamp", "pingpong"];

/** The input of `createClip`: the tracks of one clip and the skeleton they animate. */
export interface ClipInit {
  /** The clip's name (e.g. the glTF animation name). */
  readonly name: string;
  /** The skeleton whose joint indices the tracks use. */
  readonly skeleton: Skeleton;
  /** At most one track per joint and path. */
  readonly tracks: readonly JointTrack[];
  /** Morph-weight tracks; none when omitted. */
  readonly floatTracks?: readonly FloatTrack[];
  /** Defaults to the last key time of any track. */
  readonly duration?: number;
  /** The default playback mode. Default `loop`. */
  readonly loopMode?: LoopMode;
}

/**
 * Builds a clip. Throws on programmer errors (two tracks for one joint and path, a joint out of range,
 * value arrays of the wrong length, times not strictly increasing); loaders validate files first.
 */
export function createClip(init: ClipInit): Clip {
  const fn = "createClip";
  expectObject(fn, "init", init);
  expectString(fn, "init.name", init.name);
  expectSkeleton(fn, "init.skeleton", init.skeleton);
  expectArray(fn, "init.tracks", init.tracks);
  if (init.floatTracks !== undefined) expectArray(fn, "init.floatTracks", init.floatTracks);
  if (init.loopMode !== undefined) expectOneOf(fn, "init.loopMode", init.loopMode, LOOP_MODES);
  const J = init.skeleton.jointCount;
  const trackIndex = new Int32Array(3 * J).fill(-1);
  let first = Infinity;
  let last = 0;
  const checkTimes = (times: Float32Array, what: string): void => {
    if (!(times instanceof Float32Array)) throw invalidValue(fn, what, "times must be a Float32Array");
    if (times.length === 0) throw invalidValue(fn, what, `a track needs at least one key`);
    for (let i = 0; i < times.length; i++) {
      const t = times[i]!;
      if (!Number.isFinite(t) || t < 0) throw invalidValue(fn, what, `key time ${t} is not a finite time ≥ 0`);
      if (i > 0 && !(t > times[i - 1]!)) throw invalidValue(fn, what, `key times are not strictly increasing`);
    }
    first = Math.min(first, times[0]!);
    last = Math.max(last, times[times.length - 1]!);
  };
  init.tracks.forEach((track, i) => {
    const what = `init.tracks[${i}]`;
    if (typeof track !== "object" || track === null) throw invalidValue(fn, what, "a track must be an object");
    if (!Object.hasOwn(PATH_SLOT, track.path)) throw invalidValue(fn, what, `path must be "translation", "rotation" or "scale"`);
    if (!(track.values instanceof Float32Array)) throw invalidValue(fn, what, "values must be a Float32Array");
    if (!(track.joint >= 0 && track.joint < J)) throw invalidValue(fn, what, `joint ${track.joint} out of range`);
    const slot = 3 * track.joint + PATH_SLOT[track.path];
    if (trackIndex[slot] !== -1) throw invalidValue(fn, what, `joint ${track.joint} already has a ${track.path} track`);
    const stride = track.path === "rotation" ? 4 : 3;
    if (track.stride !== stride) throw invalidValue(fn, what, `${track.path} tracks have stride ${stride}`);
    checkTimes(track.times, what);
    const perKey = track.interpolation === "CUBICSPLINE" ? 3 * stride : stride;
    if (track.values.length !== perKey * track.times.length) throw invalidValue(fn, what, `expected ${perKey} values per key`);
    trackIndex[slot] = i;
  });
  (init.floatTracks ?? []).forEach((track, i) => {
    const what = `init.floatTracks[${i}]`;
    if (typeof track !== "object" || track === null) throw invalidValue(fn, what, "a float track must be an object");
    if (!(Number.isInteger(track.count) && track.count > 0)) throw invalidValue(fn, what, "count must be a positive integer");
    if (!(track.values instanceof Float32Array)) throw invalidValue(fn, what, "values must be a Float32Array");
    if (track.quaternion === true && track.count !== 4) throw invalidValue(fn, what, `a quaternion track has count 4`);
    checkTimes(track.times, what);
    const perKey = track.interpolation === "CUBICSPLINE" ? 3 * track.count : track.count;
    if (track.values.length !== perKey * track.times.length) throw invalidValue(fn, what, `expected ${perKey} values per key`);
  });
  const duration = init.duration ?? last;
  if (!(typeof duration === "number" && Number.isFinite(duration) && duration >= 0)) throw invalidValue(fn, "init.duration", `must be a finite number ≥ 0, not ${String(duration)}`);
  return Object.freeze({
    name: init.name,
    skeleton: init.skeleton,
    duration,
    startTime: first === Infinity ? 0 : first,
    tracks: Object.freeze([...init.tracks]),
    floatTracks: Object.freeze([...(init.floatTracks ?? [])]),
    trackIndex,
    loopMode: init.loopMode ?? "loop",
  });
}
