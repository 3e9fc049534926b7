import { AnimgraphError } from "../errors/animgraph-error.ts";
import { argumentError, expectInteger, expectNumber, expectNumberArrayAt, expectSkeleton, expectTypedArray } from "../errors/check-argument.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";

/**
 * The error metric of compression, as ACL and ozz-animation measure it: each joint carries six
 * virtual vertices at ±d along its local x, y and z axes (d = the virtual-vertex distance, ACL's 3 cm);
 * the error of a joint at one instant is the largest distance between where a vertex lands under the
 * reference model-space transform and under the compressed one. Because model space composes the
 * whole chain, an error at the shoulder shows at the hand's vertices too.
 *
 * Poses here are frame sequences in float64, joint-major: component c of joint j at frame f is at
 * `t[(j × F + f) × 3 + c]` (r: × 4). Model transforms are 3 × 4 affine matrices (a 3 × 3 linear part,
 * column-major, then the translation), 12 floats per (frame, joint), frame-major: (f × J + j) × 12.
 */
export interface FrameSequence {
  readonly frameCount: number;
  readonly jointCount: number;
  /** Translations, 3 per joint per frame (joint-major). */
  readonly t: Float64Array;
  /** Unit rotations x, y, z, w, 4 per joint per frame (joint-major). */
  readonly r: Float64Array;
  /** Scales, 3 per joint per frame (joint-major). */
  readonly s: Float64Array;
}

/** The most floats one array of a FrameSequence holds (2^31 − 1): 16 GiB of float64 rotations, beyond any clip. */
const MAX_SEQUENCE_FLOATS = 0x7fffffff;

/** Allocates a frame sequence of `frameCount` frames of `jointCount` joints (zeros). */
export function createFrameSequence(jointCount: number, frameCount: number): FrameSequence {
  expectInteger("createFrameSequence", "jointCount", jointCount, 0, 0x7fff);
  expectInteger("createFrameSequence", "frameCount", frameCount, 0, Math.floor(MAX_SEQUENCE_FLOATS / (4 * Math.max(1, jointCount))));
  const n = jointCount * frameCount;
  return { frameCount, jointCount, t: new Float64Array(3 * n), r: new Float64Array(4 * n), s: new Float64Array(3 * n) };
}

/**
 * Model-space 3 × 4 transforms of every frame of `seq` into `out` (12 × J × F floats), for the joints
 * from `firstJoint` on (the earlier joints' transforms in `out` must be current: parents come first).
 * `model[j] = model[parent] × T·R·S`. Allocates nothing.
 */
export function modelTransforms(out: Float64Array, skeleton: Skeleton, seq: FrameSequence, firstJoint = 0): Float64Array {
  const fn = "modelTransforms";
  expectSkeleton(fn, "skeleton", skeleton);
  expectFrameSequence(fn, "seq", seq, skeleton.jointCount);
  expectTypedArray(fn, "out", out, Float64Array, 12 * seq.jointCount * seq.frameCount);
  expectInteger(fn, "firstJoint", firstJoint, 0, seq.jointCount);
  return modelTransformsUnchecked(out, skeleton, seq, firstJoint);
}

/** `modelTransforms` without the argument checks: what compression's search loops call. */
export function modelTransformsUnchecked(out: Float64Array, skeleton: Skeleton, seq: FrameSequence, firstJoint = 0): Float64Array {
  const J = seq.jointCount;
  const F = seq.frameCount;
  const parents = skeleton.parents;
  for (let j = firstJoint; j < J; j++) {
    const p = parents[j]!;
    for (let f = 0; f < F; f++) composeAt(out, seq, j, p, f, J, F);
  }
  return out;
}

/**
 * Model-space transforms (as `modelTransforms`) of the listed joints only, at frames `firstFrame` ≤ f <
 * `endFrame`. `joints` must list parents before children, and every listed joint's parent transform in
 * `out` must be current at those frames (listed, or unchanged). Allocates nothing.
 */
export function modelTransformsRange(
  out: Float64Array, skeleton: Skeleton, seq: FrameSequence, joints: ArrayLike<number>, firstFrame: number, endFrame: number,
): void {
  const J = seq.jointCount;
  const F = seq.frameCount;
  const parents = skeleton.parents;
  for (let k = 0; k < joints.length; k++) {
    const j = joints[k]!;
    const p = parents[j]!;
    for (let f = firstFrame; f < endFrame; f++) composeAt(out, seq, j, p, f, J, F);
  }
}

/** model[j] at frame f = model[p] × T·R·S (p < 0: the local transform). */
function composeAt(out: Float64Array, seq: FrameSequence, j: number, p: number, f: number, J: number, F: number): void {
  const { t, r, s } = seq;
  const i = j * F + f;
  const x = r[4 * i]!, y = r[4 * i + 1]!, z = r[4 * i + 2]!, w = r[4 * i + 3]!;
  const sx = s[3 * i]!, sy = s[3 * i + 1]!, sz = s[3 * i + 2]!;
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  // Local linear part (columns scaled), then translation.
  const l0 = (1 - (yy + zz)) * sx, l1 = (xy + wz) * sx, l2 = (xz - wy) * sx;
  const l3 = (xy - wz) * sy, l4 = (1 - (xx + zz)) * sy, l5 = (yz + wx) * sy;
  const l6 = (xz + wy) * sz, l7 = (yz - wx) * sz, l8 = (1 - (xx + yy)) * sz;
  const l9 = t[3 * i]!, l10 = t[3 * i + 1]!, l11 = t[3 * i + 2]!;
  const o = (f * J + j) * 12;
  if (p < 0) {
    out[o] = l0; out[o + 1] = l1; out[o + 2] = l2;
    out[o + 3] = l3; out[o + 4] = l4; out[o + 5] = l5;
    out[o + 6] = l6; out[o + 7] = l7; out[o + 8] = l8;
    out[o + 9] = l9; out[o + 10] = l10; out[o + 11] = l11;
    return;
  }
  const q = (f * J + p) * 12;
  const a0 = out[q]!, a1 = out[q + 1]!, a2 = out[q + 2]!;
  const a3 = out[q + 3]!, a4 = out[q + 4]!, a5 = out[q + 5]!;
  const a6 = out[q + 6]!, a7 = out[q + 7]!, a8 = out[q + 8]!;
  out[o] = a0 * l0 + a3 * l1 + a6 * l2;
  out[o + 1] = a1 * l0 + a4 * l1 + a7 * l2;
  out[o + 2] = a2 * l0 + a5 * l1 + a8 * l2;
  out[o + 3] = a0 * l3 + a3 * l4 + a6 * l5;
  out[o + 4] = a1 * l3 + a4 * l4 + a7 * l5;
  out[o + 5] = a2 * l3 + a5 * l4 + a8 * l5;
  out[o + 6] = a0 * l6 + a3 * l7 + a6 * l8;
  out[o + 7] = a1 * l6 + a4 * l7 + a7 * l8;
  out[o + 8] = a2 * l6 + a5 * l7 + a8 * l8;
  out[o + 9] = a0 * l9 + a3 * l10 + a6 * l11 + out[q + 9]!;
  out[o + 10] = a1 * l9 + a4 * l10 + a7 * l11 + out[q + 10]!;
  out[o + 11] = a2 * l9 + a5 * l10 + a8 * l11 + out[q + 11]!;
}

/**
 * Virtual-vertex error between two affine transforms (12 floats each, as above) for vertices at ±d
 * along the three local axes: max over axes k and signs of |(A − B)(±d e_k) + (t_A − t_B)|.
 */
export function vertexError(a: Float64Array, ao: number, b: Float64Array, bo: number, d: number): number {
  expectNumberArrayAt("vertexError", "a", a, "ao", ao, 12);
  expectNumberArrayAt("vertexError", "b", b, "bo", bo, 12);
  expectNumber("vertexError", "d", d);
  return vertexErrorUnchecked(a, ao, b, bo, d);
}

/** `vertexError` without the argument checks, for the library's per-(frame, joint) loops. */
export function vertexErrorUnchecked(a: Float64Array, ao: number, b: Float64Array, bo: number, d: number): number {
  const dx = a[ao + 9]! - b[bo + 9]!, dy = a[ao + 10]! - b[bo + 10]!, dz = a[ao + 11]! - b[bo + 11]!;
  const tt = dx * dx + dy * dy + dz * dz;
  let worst = tt;
  for (let k = 0; k < 3; k++) {
    const cx = (a[ao + 3 * k]! - b[bo + 3 * k]!) * d;
    const cy = (a[ao + 3 * k + 1]! - b[bo + 3 * k + 1]!) * d;
    const cz = (a[ao + 3 * k + 2]! - b[bo + 3 * k + 2]!) * d;
    // |dt ± c|² = |dt|² + |c|² ± 2 dt·c; the worse sign takes + |2 dt·c|.
    const e = tt + cx * cx + cy * cy + cz * cz + 2 * Math.abs(dx * cx + dy * cy + dz * cz);
    if (e > worst) worst = e;
  }
  return Math.sqrt(worst);
}

/**
 * Per-joint maximum and overall mean virtual-vertex error between two model-transform sets of
 * `frameCount` frames × `jointCount` joints. `maxOut` (length J) receives each joint's maximum over the
 * frames; returns the mean over all (frame, joint) pairs.
 */
export function jointErrors(
  maxOut: Float64Array,
  reference: Float64Array,
  candidate: Float64Array,
  jointCount: number,
  frameCount: number,
  d: number,
): number {
  const fn = "jointErrors";
  expectInteger(fn, "jointCount", jointCount);
  expectInteger(fn, "frameCount", frameCount);
  const n = 12 * jointCount * frameCount;
  expectTypedArray(fn, "reference", reference, Float64Array, n);
  expectTypedArray(fn, "candidate", candidate, Float64Array, n);
  expectTypedArray(fn, "maxOut", maxOut, Float64Array, jointCount);
  expectNumber(fn, "d", d);
  return jointErrorsUnchecked(maxOut, reference, candidate, jointCount, frameCount, d);
}

/** `jointErrors` without the argument checks, for compression's search. */
export function jointErrorsUnchecked(
  maxOut: Float64Array,
  reference: Float64Array,
  candidate: Float64Array,
  jointCount: number,
  frameCount: number,
  d: number,
): number {
  maxOut.fill(0);
  let sum = 0;
  for (let f = 0; f < frameCount; f++) {
    for (let j = 0; j < jointCount; j++) {
      const o = (f * jointCount + j) * 12;
      const e = vertexErrorUnchecked(reference, o, candidate, o, d);
      sum += e;
      if (e > maxOut[j]!) maxOut[j] = e;
    }
  }
  return frameCount * jointCount > 0 ? sum / (frameCount * jointCount) : 0;
}

/**
 * A FrameSequence (from createFrameSequence) of `jointCount` joints: a sequence of another joint count
 * is ERR_SKELETON_MISMATCH.
 */
function expectFrameSequence(fn: string, argument: string, value: unknown, jointCount: number): asserts value is FrameSequence {
  const seq = value as Partial<FrameSequence> | null;
  if (typeof seq !== "object" || seq === null || !Number.isInteger(seq.frameCount) || !Number.isInteger(seq.jointCount)
    || !(seq.t instanceof Float64Array) || !(seq.r instanceof Float64Array) || !(seq.s instanceof Float64Array)) {
    throw argumentError(fn, argument, "a FrameSequence (from createFrameSequence)", value);
  }
  const n = seq.jointCount! * seq.frameCount!;
  if (n < 0 || seq.t.length < 3 * n || seq.r.length < 4 * n || seq.s.length < 3 * n) {
    throw argumentError(fn, argument, "a FrameSequence whose t, r and s hold 3, 4 and 3 floats per joint and frame", value);
  }
  if (seq.jointCount !== jointCount) {
    throw new AnimgraphError("ERR_SKELETON_MISMATCH", `${fn}: ${argument} has ${seq.jointCount!} joints but the skeleton has ${jointCount}`, {
      argument, expected: `a FrameSequence of ${jointCount} joints`, received: `a FrameSequence of ${seq.jointCount!} joints`,
    });
  }
}
