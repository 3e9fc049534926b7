import { quatAngleBetween } from "../math/quat.ts";
import { vec3Distance } from "../math/vec3.ts";
import { createPose } from "../pose/pose.ts";
import type { Clip } from "./clip.ts";
import { createClipCursor } from "./clip-cursor.ts";
import { sampleClipUnchecked } from "./sample-clip.ts";
import { expectNumberArray } from "../errors/check-argument.ts";
import { expectShape, type FieldKind } from "../errors/check-shape.ts";
import { expectWholeClip } from "./check-clip.ts";

/**
 * How far a clip's end pose (time = duration) is from its start pose (time = 0): the jump a looping
 * playback shows once per cycle. Per component, the largest difference over all joints.
 */
export interface LoopSeam {
  /** Largest translation jump, in skeleton units (|t_end − t_start|). */
  readonly translation: number;
  /** Largest rotation jump, radians (2·acos|q_end · q_start|). */
  readonly rotation: number;
  /** Largest scale jump (max over axes of |s_end − s_start|). */
  readonly scale: number;
  /** Joint with the largest rotation jump (or translation jump when no rotation differs); −1 if none. */
  readonly worstJoint: number;
}

const TOLERANCE_SHAPE: Readonly<Record<string, FieldKind>> = { translation: "number?", rotation: "number?", scale: "number?" };

/** Tolerances for `isSeamlessLoop`. */
export interface LoopSeamTolerance {
  /** Translation, in skeleton units. Default: 1e-3 × the skeleton's mean bone offset (1e-6 if all zero). */
  readonly translation?: number;
  /** Rotation, radians. Default 1e-3 (0.057°). */
  readonly rotation?: number;
  /** Scale, absolute. Default 1e-4. */
  readonly scale?: number;
  /** Joints left out of the comparison, e.g. a root whose translation carries root motion. */
  readonly ignoreJoints?: ArrayLike<number>;
}

/** Measures the loop seam of `clip` (allocates two poses: a load-time analysis, not a frame job). */
export function measureLoopSeam(clip: Clip, ignoreJoints?: ArrayLike<number>): LoopSeam {
  expectWholeClip("measureLoopSeam", "clip", clip);
  if (ignoreJoints !== undefined) expectNumberArray("measureLoopSeam", "ignoreJoints", ignoreJoints);
  return loopSeam(clip, ignoreJoints);
}

function loopSeam(clip: Clip, ignoreJoints?: ArrayLike<number>): LoopSeam {
  const J = clip.skeleton.jointCount;
  const start = createPose(J);
  const end = createPose(J);
  const cursor = createClipCursor(clip);
  sampleClipUnchecked(start, clip, 0, cursor);
  sampleClipUnchecked(end, clip, clip.duration, cursor);
  const skip = new Uint8Array(J);
  if (ignoreJoints) for (let i = 0; i < ignoreJoints.length; i++) skip[ignoreJoints[i]!] = 1;
  let translation = 0, rotation = 0, scale = 0, worstJoint = -1, worstTranslationJoint = -1;
  for (let j = 0; j < J; j++) {
    if (skip[j]) continue;
    const dt = vec3Distance(start.t, 3 * j, end.t, 3 * j);
    if (dt > translation) {
      translation = dt;
      worstTranslationJoint = j;
    }
    const dr = quatAngleBetween(start.r, 4 * j, end.r, 4 * j);
    if (dr > rotation) {
      rotation = dr;
      worstJoint = j;
    }
    for (let c = 0; c < 3; c++) scale = Math.max(scale, Math.abs(start.s[3 * j + c]! - end.s[3 * j + c]!));
  }
  return { translation, rotation, scale, worstJoint: worstJoint >= 0 ? worstJoint : worstTranslationJoint };
}

/** The mean length of the rest pose's non-zero joint offsets: the skeleton's length scale. */
export function meanBoneOffset(clip: Clip): number {
  expectWholeClip("meanBoneOffset", "clip", clip);
  return boneOffset(clip);
}

function boneOffset(clip: Clip): number {
  const t = clip.skeleton.rest.t;
  let sum = 0, n = 0;
  for (let j = 0; j < clip.skeleton.jointCount; j++) {
    const len = Math.hypot(t[3 * j]!, t[3 * j + 1]!, t[3 * j + 2]!);
    if (len > 0) {
      sum += len;
      n++;
    }
  }
  return n > 0 ? sum / n : 0;
}

/**
 * Whether `clip` loops without a visible jump: its end pose matches its start pose within the
 * tolerances. Clips that do not (RobotExpressive's Death, Sitting, Standing, …) should be played with
 * `clamp`; `lint` reports a looping state whose clip fails this test.
 */
export function isSeamlessLoop(clip: Clip, tolerance: LoopSeamTolerance = {}): boolean {
  expectWholeClip("isSeamlessLoop", "clip", clip);
  expectShape("isSeamlessLoop", "tolerance", tolerance, "a LoopSeamTolerance ({ translation?, rotation?, scale?, ignoreJoints? })", TOLERANCE_SHAPE);
  if (tolerance.ignoreJoints !== undefined) expectNumberArray("isSeamlessLoop", "tolerance.ignoreJoints", tolerance.ignoreJoints);
  const seam = loopSeam(clip, tolerance.ignoreJoints);
  const translationTolerance = tolerance.translation ?? Math.max(1e-6, 1e-3 * boneOffset(clip));
  return seam.translation <= translationTolerance && seam.rotation <= (tolerance.rotation ?? 1e-3) && seam.scale <= (tolerance.scale ?? 1e-4);
}
