import { expectNumber, expectNumberArrayAt, expectOneOf } from "../errors/check-argument.ts";
import * as mat4 from "./mat4.ts";
import type { NumArray } from "./mat4.ts";
import * as quat from "./quat.ts";
import { QUAT_INTERPOLATIONS, type EulerOrder, type QuatArray, type QuatInterpolation } from "./quat.ts";
import * as vec3 from "./vec3.ts";
import type { Vec3Array } from "./vec3.ts";

// The math functions as the public API offers them: each checks its arrays, offsets and numbers once
// (AnimgraphError naming the argument; no allocation) and calls the unchecked function of quat.ts,
// vec3.ts or mat4.ts, which the library's own per-joint loops call directly. The documentation of
// each is the unchecked function's.

const EULER_ORDERS: readonly EulerOrder[] = ["XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"];

/** Writes the identity rotation (0, 0, 0, 1). Throws AnimgraphError on a wrong array, offset or number. */
export function quatIdentity<T extends QuatArray>(out: T, o: number): T {
  const fn = "quatIdentity";
  expectNumberArrayAt(fn, "out", out, "o", o, 4);
  return quat.quatIdentity(out, o);
}

/** Writes (x, y, z, w). Throws AnimgraphError on a wrong array, offset or number. */
export function quatSet<T extends QuatArray>(out: T, o: number, x: number, y: number, z: number, w: number): T {
  const fn = "quatSet";
  expectNumberArrayAt(fn, "out", out, "o", o, 4);
  expectNumber(fn, "x", x);
  expectNumber(fn, "y", y);
  expectNumber(fn, "z", z);
  expectNumber(fn, "w", w);
  return quat.quatSet(out, o, x, y, z, w);
}

/** Copies the quaternion at `a[ao]` (bit-for-bit when both arrays have the same element type). Throws AnimgraphError on a wrong array, offset or number. */
export function quatCopy<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number): T {
  const fn = "quatCopy";
  expectNumberArrayAt(fn, "out", out, "o", o, 4);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 4);
  return quat.quatCopy(out, o, a, ao);
}

/** Four-dimensional dot product a · b (the cosine of half the angle between two unit rotations). Throws AnimgraphError on a wrong array, offset or number. */
export function quatDot(a: QuatArray, ao: number, b: QuatArray, bo: number): number {
  const fn = "quatDot";
  expectNumberArrayAt(fn, "a", a, "ao", ao, 4);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 4);
  return quat.quatDot(a, ao, b, bo);
}

/** Hamilton product out = a · b (apply b first, then a, to a vector). Throws AnimgraphError on a wrong array, offset or number. */
export function quatMultiply<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number, b: QuatArray, bo: number): T {
  const fn = "quatMultiply";
  expectNumberArrayAt(fn, "out", out, "o", o, 4);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 4);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 4);
  return quat.quatMultiply(out, o, a, ao, b, bo);
}

/** Conjugate (−x, −y, −z, w): the inverse of a unit quaternion. Throws AnimgraphError on a wrong array, offset or number. */
export function quatConjugate<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number): T {
  const fn = "quatConjugate";
  expectNumberArrayAt(fn, "out", out, "o", o, 4);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 4);
  return quat.quatConjugate(out, o, a, ao);
}

/** Inverse q* / |q|² (for any non-zero quaternion; the zero quaternion gives zero). Throws AnimgraphError on a wrong array, offset or number. */
export function quatInvert<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number): T {
  const fn = "quatInvert";
  expectNumberArrayAt(fn, "out", out, "o", o, 4);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 4);
  return quat.quatInvert(out, o, a, ao);
}

/** Scales to unit length; a zero (or non-finite-length) quaternion becomes the identity. Throws AnimgraphError on a wrong array, offset or number. */
export function quatNormalize<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number): T {
  const fn = "quatNormalize";
  expectNumberArrayAt(fn, "out", out, "o", o, 4);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 4);
  return quat.quatNormalize(out, o, a, ao);
}

/** Length √(x² + y² + z² + w²). Throws AnimgraphError on a wrong array, offset or number. */
export function quatLength(a: QuatArray, ao: number): number {
  const fn = "quatLength";
  expectNumberArrayAt(fn, "a", a, "ao", ao, 4);
  return quat.quatLength(a, ao);
}

/**
 * Normalised lerp along the shorter arc: b is negated when a · b < 0, then
 * out = normalize((1 − t)·a + t·b). Cheap; its angular speed is not constant (off by up to ~4 % of the
 * angle for a 120° step at t = ½ — use slerp for key interpolation).
 * Throws AnimgraphError on a wrong array, offset or number.
 */
export function quatNlerp<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number, b: QuatArray, bo: number, t: number): T {
  const fn = "quatNlerp";
  expectNumberArrayAt(fn, "out", out, "o", o, 4);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 4);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 4);
  expectNumber(fn, "t", t);
  return quat.quatNlerp(out, o, a, ao, b, bo, t);
}

/**
 * Spherical linear interpolation along the shorter arc, exactly as glTF 2.0 Appendix C defines it:
 * with d = a · b, θ = acos(|d|) and σ = sign(d),
 * out = sin((1 − t)θ)/sin θ · a + σ · sin(tθ)/sin θ · b. When sin θ < 1e-6 (the two rotations are equal
 * to float precision) it falls back to normalised lerp, as the spec's implementation note allows.
 * Uses Math.acos / Math.sin, whose last bit may differ between JavaScript engines: use
 * `quatSlerpFast` where results must be bit-identical everywhere.
 * Throws AnimgraphError on a wrong array, offset or number.
 */
export function quatSlerp<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number, b: QuatArray, bo: number, t: number): T {
  const fn = "quatSlerp";
  expectNumberArrayAt(fn, "out", out, "o", o, 4);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 4);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 4);
  expectNumber(fn, "t", t);
  return quat.quatSlerp(out, o, a, ao, b, bo, t);
}

/**
 * Deterministic slerp using only + − × ÷ √ (Eberly's polynomial on the half angle; no Math.acos /
 * Math.sin, whose last bits may differ between engines, so every IEEE-754 engine gives the same bits).
 * Same shortest-arc rule as `quatSlerp`. Differs from the exact slerp by at most ~2e-7 per component
 * for t ∈ [0, 1] and any pair of unit rotations (measured in test/math/quat.test.ts).
 * Throws AnimgraphError on a wrong array, offset or number.
 */
export function quatSlerpFast<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number, b: QuatArray, bo: number, t: number): T {
  const fn = "quatSlerpFast";
  expectNumberArrayAt(fn, "out", out, "o", o, 4);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 4);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 4);
  expectNumber(fn, "t", t);
  return quat.quatSlerpFast(out, o, a, ao, b, bo, t);
}

/** Dispatches to quatSlerp / quatSlerpFast / quatNlerp (all shortest-arc). Throws AnimgraphError on a wrong array, offset or number. */
export function quatInterpolate<T extends QuatArray>(mode: QuatInterpolation, out: T, o: number, a: QuatArray, ao: number, b: QuatArray, bo: number, t: number): T {
  const fn = "quatInterpolate";
  expectOneOf(fn, "mode", mode, QUAT_INTERPOLATIONS);
  expectNumberArrayAt(fn, "out", out, "o", o, 4);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 4);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 4);
  expectNumber(fn, "t", t);
  return quat.quatInterpolate(mode, out, o, a, ao, b, bo, t);
}

/**
 * The rotation angle between two unit rotations, in radians [0, π]. Computed as
 * 4·atan2(|a − σb|, |a + σb|) with σ = sign(a · b) (the half-angle between the 4-vectors, doubled twice),
 * which stays accurate for nearly equal rotations where 2·acos|a · b| loses half the digits.
 * Throws AnimgraphError on a wrong array, offset or number.
 */
export function quatAngleBetween(a: QuatArray, ao: number, b: QuatArray, bo: number): number {
  const fn = "quatAngleBetween";
  expectNumberArrayAt(fn, "a", a, "ao", ao, 4);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 4);
  return quat.quatAngleBetween(a, ao, b, bo);
}

/** Rotates the vector at v[vo] by the unit quaternion q: out = q·v·q*. `out` may alias `v`. Throws AnimgraphError on a wrong array, offset or number. */
export function quatRotateVec3<T extends QuatArray>(out: T, o: number, q: QuatArray, qo: number, v: QuatArray, vo: number): T {
  const fn = "quatRotateVec3";
  expectNumberArrayAt(fn, "out", out, "o", o, 3);
  expectNumberArrayAt(fn, "q", q, "qo", qo, 4);
  expectNumberArrayAt(fn, "v", v, "vo", vo, 3);
  return quat.quatRotateVec3(out, o, q, qo, v, vo);
}

/** Rotation of `angle` radians about the axis (ax, ay, az) (normalised here; a zero axis gives identity). Throws AnimgraphError on a wrong array, offset or number. */
export function quatFromAxisAngle<T extends QuatArray>(out: T, o: number, ax: number, ay: number, az: number, angle: number): T {
  const fn = "quatFromAxisAngle";
  expectNumberArrayAt(fn, "out", out, "o", o, 4);
  expectNumber(fn, "ax", ax);
  expectNumber(fn, "ay", ay);
  expectNumber(fn, "az", az);
  expectNumber(fn, "angle", angle);
  return quat.quatFromAxisAngle(out, o, ax, ay, az, angle);
}

/**
 * Rotation from Euler angles in radians, `x`, `y`, `z` about the X, Y and Z axes, composed in the
 * intrinsic `order` (as in a BVH CHANNELS list): "ZXY" means rotate about Z, then about the new X, then
 * about the new Y, i.e. q = q_Z · q_X · q_Y (the matrix product Rz·Rx·Ry applied to column vectors).
 * Throws AnimgraphError on a wrong array, offset or number.
 */
export function quatFromEuler<T extends QuatArray>(out: T, o: number, x: number, y: number, z: number, order: EulerOrder): T {
  const fn = "quatFromEuler";
  expectNumberArrayAt(fn, "out", out, "o", o, 4);
  expectNumber(fn, "x", x);
  expectNumber(fn, "y", y);
  expectNumber(fn, "z", z);
  expectOneOf(fn, "order", order, EULER_ORDERS);
  return quat.quatFromEuler(out, o, x, y, z, order);
}

/**
 * The twist angle (radians, (−π, π]) of the unit rotation q about the unit axis (ux, uy, uz), from the
 * swing–twist decomposition q = swing · twist: 2·atan2(q.xyz · u, q.w). For u = +Y this is the yaw.
 * Throws AnimgraphError on a wrong array, offset or number.
 */
export function quatTwistAngle(q: QuatArray, qo: number, ux: number, uy: number, uz: number): number {
  const fn = "quatTwistAngle";
  expectNumberArrayAt(fn, "q", q, "qo", qo, 4);
  expectNumber(fn, "ux", ux);
  expectNumber(fn, "uy", uy);
  expectNumber(fn, "uz", uz);
  return quat.quatTwistAngle(q, qo, ux, uy, uz);
}

/** Writes (x, y, z). Throws AnimgraphError on a wrong array, offset or number. */
export function vec3Set<T extends Vec3Array>(out: T, o: number, x: number, y: number, z: number): T {
  const fn = "vec3Set";
  expectNumberArrayAt(fn, "out", out, "o", o, 3);
  expectNumber(fn, "x", x);
  expectNumber(fn, "y", y);
  expectNumber(fn, "z", z);
  return vec3.vec3Set(out, o, x, y, z);
}

/** Copies a[ao..ao+2]. Throws AnimgraphError on a wrong array, offset or number. */
export function vec3Copy<T extends Vec3Array>(out: T, o: number, a: Vec3Array, ao: number): T {
  const fn = "vec3Copy";
  expectNumberArrayAt(fn, "out", out, "o", o, 3);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 3);
  return vec3.vec3Copy(out, o, a, ao);
}

/** out = a + b. Throws AnimgraphError on a wrong array, offset or number. */
export function vec3Add<T extends Vec3Array>(out: T, o: number, a: Vec3Array, ao: number, b: Vec3Array, bo: number): T {
  const fn = "vec3Add";
  expectNumberArrayAt(fn, "out", out, "o", o, 3);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 3);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 3);
  return vec3.vec3Add(out, o, a, ao, b, bo);
}

/** out = a − b. Throws AnimgraphError on a wrong array, offset or number. */
export function vec3Subtract<T extends Vec3Array>(out: T, o: number, a: Vec3Array, ao: number, b: Vec3Array, bo: number): T {
  const fn = "vec3Subtract";
  expectNumberArrayAt(fn, "out", out, "o", o, 3);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 3);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 3);
  return vec3.vec3Subtract(out, o, a, ao, b, bo);
}

/** out = a · k (component-wise by a scalar). Throws AnimgraphError on a wrong array, offset or number. */
export function vec3Scale<T extends Vec3Array>(out: T, o: number, a: Vec3Array, ao: number, k: number): T {
  const fn = "vec3Scale";
  expectNumberArrayAt(fn, "out", out, "o", o, 3);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 3);
  expectNumber(fn, "k", k);
  return vec3.vec3Scale(out, o, a, ao, k);
}

/** out = a + b · k. Throws AnimgraphError on a wrong array, offset or number. */
export function vec3ScaleAndAdd<T extends Vec3Array>(out: T, o: number, a: Vec3Array, ao: number, b: Vec3Array, bo: number, k: number): T {
  const fn = "vec3ScaleAndAdd";
  expectNumberArrayAt(fn, "out", out, "o", o, 3);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 3);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 3);
  expectNumber(fn, "k", k);
  return vec3.vec3ScaleAndAdd(out, o, a, ao, b, bo, k);
}

/** Linear interpolation out = (1 − t)·a + t·b. Throws AnimgraphError on a wrong array, offset or number. */
export function vec3Lerp<T extends Vec3Array>(out: T, o: number, a: Vec3Array, ao: number, b: Vec3Array, bo: number, t: number): T {
  const fn = "vec3Lerp";
  expectNumberArrayAt(fn, "out", out, "o", o, 3);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 3);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 3);
  expectNumber(fn, "t", t);
  return vec3.vec3Lerp(out, o, a, ao, b, bo, t);
}

/** a · b. Throws AnimgraphError on a wrong array, offset or number. */
export function vec3Dot(a: Vec3Array, ao: number, b: Vec3Array, bo: number): number {
  const fn = "vec3Dot";
  expectNumberArrayAt(fn, "a", a, "ao", ao, 3);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 3);
  return vec3.vec3Dot(a, ao, b, bo);
}

/** out = a × b. Throws AnimgraphError on a wrong array, offset or number. */
export function vec3Cross<T extends Vec3Array>(out: T, o: number, a: Vec3Array, ao: number, b: Vec3Array, bo: number): T {
  const fn = "vec3Cross";
  expectNumberArrayAt(fn, "out", out, "o", o, 3);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 3);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 3);
  return vec3.vec3Cross(out, o, a, ao, b, bo);
}

/** Euclidean length |a|. Throws AnimgraphError on a wrong array, offset or number. */
export function vec3Length(a: Vec3Array, ao: number): number {
  const fn = "vec3Length";
  expectNumberArrayAt(fn, "a", a, "ao", ao, 3);
  return vec3.vec3Length(a, ao);
}

/** Euclidean distance |a − b|. Throws AnimgraphError on a wrong array, offset or number. */
export function vec3Distance(a: Vec3Array, ao: number, b: Vec3Array, bo: number): number {
  const fn = "vec3Distance";
  expectNumberArrayAt(fn, "a", a, "ao", ao, 3);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 3);
  return vec3.vec3Distance(a, ao, b, bo);
}

/** Writes the identity into `out` at `o`. Throws AnimgraphError on a wrong array, offset or number. */
export function mat4Identity<T extends NumArray>(out: T, o = 0): T {
  const fn = "mat4Identity";
  expectNumberArrayAt(fn, "out", out, "o", o, 16);
  return mat4.mat4Identity(out, o);
}

/** Copies 16 floats from `a` at `ao` to `out` at `o` (the ranges may be the same; not partly overlapping). Throws AnimgraphError on a wrong array, offset or number. */
export function mat4Copy<T extends NumArray>(out: T, o: number, a: NumArray, ao: number): T {
  const fn = "mat4Copy";
  expectNumberArrayAt(fn, "out", out, "o", o, 16);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 16);
  return mat4.mat4Copy(out, o, a, ao);
}

/**
 * Composes translation × rotation × scale (glTF's node order: scale first, then rotate, then translate)
 * into `out` at `o`. `t` (x, y, z), `r` (unit quaternion x, y, z, w) and `s` (x, y, z) are read at their
 * offsets before anything is written, so they may live in `out` only if they do not overlap `out[o..o+15]`.
 * Throws AnimgraphError on a wrong array, offset or number.
 */
export function mat4FromTRS<T extends NumArray>(out: T, o: number, t: NumArray, to: number, r: NumArray, ro: number, s: NumArray, so: number): T {
  const fn = "mat4FromTRS";
  expectNumberArrayAt(fn, "out", out, "o", o, 16);
  expectNumberArrayAt(fn, "t", t, "to", to, 3);
  expectNumberArrayAt(fn, "r", r, "ro", ro, 4);
  expectNumberArrayAt(fn, "s", s, "so", so, 3);
  return mat4.mat4FromTRS(out, o, t, to, r, ro, s, so);
}

/** `out = a × b` (apply `b` first, then `a`). `out` may alias `a` or `b` exactly (see the module note). Throws AnimgraphError on a wrong array, offset or number. */
export function mat4Multiply<T extends NumArray>(out: T, o: number, a: NumArray, ao: number, b: NumArray, bo: number): T {
  const fn = "mat4Multiply";
  expectNumberArrayAt(fn, "out", out, "o", o, 16);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 16);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 16);
  return mat4.mat4Multiply(out, o, a, ao, b, bo);
}

/**
 * `out = a⁻¹`. Returns false (leaving `out` untouched) when `a` is singular or not finite. `out` may
 * alias `a` exactly: all of `a` is read before writing.
 * Throws AnimgraphError on a wrong array, offset or number.
 */
export function mat4Invert(out: NumArray, o: number, a: NumArray, ao: number): boolean {
  const fn = "mat4Invert";
  expectNumberArrayAt(fn, "out", out, "o", o, 16);
  expectNumberArrayAt(fn, "a", a, "ao", ao, 16);
  return mat4.mat4Invert(out, o, a, ao);
}

/**
 * Splits an affine matrix into translation, unit rotation quaternion and scale, so that
 * `mat4FromTRS(t, r, s)` gives it back when it has no shear. A negative determinant (a mirror) is put
 * into the x scale. Returns false (writing nothing) when the matrix is singular (a zero scale) or not
 * finite. The outputs must not overlap `m`.
 * Throws AnimgraphError on a wrong array, offset or number.
 */
export function mat4Decompose(t: NumArray, to: number, r: NumArray, ro: number, s: NumArray, so: number, m: NumArray, mo: number): boolean {
  const fn = "mat4Decompose";
  expectNumberArrayAt(fn, "t", t, "to", to, 3);
  expectNumberArrayAt(fn, "r", r, "ro", ro, 4);
  expectNumberArrayAt(fn, "s", s, "so", so, 3);
  expectNumberArrayAt(fn, "m", m, "mo", mo, 16);
  return mat4.mat4Decompose(t, to, r, ro, s, so, m, mo);
}

/** Largest absolute element difference between two matrices (for tolerance checks). Throws AnimgraphError on a wrong array, offset or number. */
export function mat4MaxDifference(a: NumArray, ao: number, b: NumArray, bo: number): number {
  const fn = "mat4MaxDifference";
  expectNumberArrayAt(fn, "a", a, "ao", ao, 16);
  expectNumberArrayAt(fn, "b", b, "bo", bo, 16);
  return mat4.mat4MaxDifference(a, ao, b, bo);
}
