import type { Clip, LoopMode } from "../clip/clip.ts";
import type { Pose } from "../pose/pose.ts";
import { argumentError, expectFunction, expectObject, expectOneOf, expectString, rangeError } from "../errors/check-argument.ts";

/**
 * A clip computed by a function instead of keyframes: the seed demo's sine "clips", test fixtures, or
 * a game's procedural motion. It must write every joint of `out` (sampling is pure: same time, same
 * pose) and allocate nothing. Root motion of a procedural clip is a constant velocity (`rootVelocity`,
 * units per second of clip time), integrated over the step's real time weighted by the clip's weight.
 */
export interface ProceduralClip {
  /** Marks a procedural clip (see `isProceduralClip`). */
  readonly procedural: true;
  /** The name states refer to it by. */
  readonly name: string;
  /**
   * Cycle length in seconds (> 0): loops, events and exit times are measured against it. `Infinity`
   * makes an endless motion: it is sampled at the state's unwrapped time, never loops, and its
   * normalised time stays 0 (exit times other than 0 never pass).
   */
  readonly duration: number;
  /** Default playback mode (a state may override it). */
  readonly loopMode: LoopMode;
  /** Writes the pose at clip time `time` (already wrapped into [0, duration]) into `out`. */
  sample(out: Pose, time: number): void;
  /** Constant root velocity (x, y, z) in units per second; default zero. */
  readonly rootVelocity?: readonly [number, number, number];
}

/** What a state's motion plays: a keyframed `Clip` bound to the graph's skeleton, or a procedural clip. */
export type MotionSource = Clip | ProceduralClip;

/** Tells a procedural clip from a keyframed `Clip`. */
export function isProceduralClip(source: MotionSource): source is ProceduralClip {
  if (typeof source !== "object" || source === null) throw argumentError("isProceduralClip", "source", "a Clip or a ProceduralClip", source);
  return isProceduralClipUnchecked(source);
}

/** `isProceduralClip` without the argument check, for the library's own motion sources (per frame). */
export function isProceduralClipUnchecked(source: MotionSource): source is ProceduralClip {
  return (source as ProceduralClip).procedural === true;
}

/** The input of `createProceduralClip`; each field becomes the {@link ProceduralClip} field of the same name. */
export interface ProceduralClipInit {
  /** The name states refer to the clip by. */
  readonly name: string;
  /** Cycle length in seconds: > 0, or `Infinity` for an endless motion. */
  readonly duration: number;
  /** Default playback mode. Default `loop`. */
  readonly loopMode?: LoopMode;
  /**
   * Writes every joint of the pose at clip time `time` seconds (already wrapped into [0, duration]) into
   * `out`; pure and allocation-free.
   */
  readonly sample: (out: Pose, time: number) => void;
  /** Constant root velocity (x, y, z) in units per second of clip time; default zero. */
  readonly rootVelocity?: readonly [number, number, number];
}

const LOOP_MODES: readonly LoopMode[] = ["loop", "clamp", "pingpong"];

/**
 * Builds a procedural clip. A wrong-typed field of `init` is AnimgraphError ERR_ARGUMENT, a duration
 * that is not > 0 (NaN, 0, negative) ERR_OUT_OF_RANGE: programmer errors.
 */
export function createProceduralClip(init: ProceduralClipInit): ProceduralClip {
  const fn = "createProceduralClip";
  expectObject(fn, "init", init);
  expectString(fn, "init.name", init.name);
  if (typeof init.duration !== "number") throw argumentError(fn, "init.duration", "a number of seconds > 0 (or Infinity)", init.duration);
  if (!(init.duration > 0)) throw rangeError(fn, "init.duration", `a number of seconds > 0 (or Infinity) for procedural clip "${init.name}"`, init.duration);
  if (init.loopMode !== undefined) expectOneOf(fn, "init.loopMode", init.loopMode, LOOP_MODES);
  expectFunction(fn, "init.sample", init.sample);
  const v = init.rootVelocity as unknown;
  if (v !== undefined && !((Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView))) && (v as ArrayLike<unknown>).length === 3
    && Array.prototype.every.call(v, (c: unknown) => typeof c === "number" && Number.isFinite(c)))) {
    throw argumentError(fn, "init.rootVelocity", "undefined or 3 finite numbers (x, y, z units per second)", v);
  }
  return createProceduralClipUnchecked(init);
}

/** `createProceduralClip` without the argument checks, for clips the library derives from checked ones (mirroring). */
export function createProceduralClipUnchecked(init: ProceduralClipInit): ProceduralClip {
  return Object.freeze({
    procedural: true as const,
    name: init.name,
    duration: init.duration,
    loopMode: init.loopMode ?? "loop",
    sample: init.sample,
    ...(init.rootVelocity ? { rootVelocity: Object.freeze([...init.rootVelocity]) as unknown as readonly [number, number, number] } : {}),
  });
}
