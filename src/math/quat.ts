import { atan2PolyAt } from "./atan2-poly.ts";
// Quaternion functions on (array, offset) pairs, so they work in place inside the SoA Float32Arrays of a
// Pose without allocating. Layout x, y, z, w (glTF order). Every function writes into `out` at `o` FIRST
// and reads all of its inputs into locals before writing, so `out` may alias any input (same array and
// offset) unless stated otherwise. Arithmetic is done in float64; the result is rounded once on store.
//
// Allocation (the rule the per-frame path follows; docs/performance.md). V8 hands arguments and return
// values over tagged: a computed double that crosses a call the optimiser did not inline becomes a fresh
// 16-byte heap number, and what it inlines depends on code sizes, call frequencies and budgets, not on
// us. So doubles travel in Float64Array slots: the `…At` forms read their interpolation parameter from
// `ts[ti]` (the plain forms store their argument in a slot and call them). And a branch that is rare
// within a hot function does its arithmetic inline rather than calling a helper: V8 does not inline a
// rarely taken call, and a helper run that seldom stays in the interpreter, which boxes every double.

/** Any array of numbers a quaternion can live in (a Pose's Float32Array, a Float64Array scratch, …). */
export type QuatArray = { [index: number]: number; readonly length: number };

/** Euler rotation orders: the order in which the intrinsic axis rotations are listed (BVH's CHANNELS). */
export type EulerOrder = "XYZ" | "XZY" | "YXZ" | "YZX" | "ZXY" | "ZYX";

/** Below this |sin(angle)| the exact slerp falls back to normalised lerp (glTF: slerp → lerp as a → 0). */
const SLERP_EPSILON = 1e-6;

/** Writes the identity rotation (0, 0, 0, 1). */
export function quatIdentity<T extends QuatArray>(out: T, o: number): T {
  out[o] = 0;
  out[o + 1] = 0;
  out[o + 2] = 0;
  out[o + 3] = 1;
  return out;
}

/** Writes (x, y, z, w). */
export function quatSet<T extends QuatArray>(out: T, o: number, x: number, y: number, z: number, w: number): T {
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
  out[o + 3] = w;
  return out;
}

/** Copies the quaternion at `a[ao]` (bit-for-bit when both arrays have the same element type). */
export function quatCopy<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number): T {
  out[o] = a[ao]!;
  out[o + 1] = a[ao + 1]!;
  out[o + 2] = a[ao + 2]!;
  out[o + 3] = a[ao + 3]!;
  return out;
}

/** Four-dimensional dot product a · b (the cosine of half the angle between two unit rotations). */
export function quatDot(a: QuatArray, ao: number, b: QuatArray, bo: number): number {
  return a[ao]! * b[bo]! + a[ao + 1]! * b[bo + 1]! + a[ao + 2]! * b[bo + 2]! + a[ao + 3]! * b[bo + 3]!;
}

/** Hamilton product out = a · b (apply b first, then a, to a vector). */
export function quatMultiply<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number, b: QuatArray, bo: number): T {
  const ax = a[ao]!, ay = a[ao + 1]!, az = a[ao + 2]!, aw = a[ao + 3]!;
  const bx = b[bo]!, by = b[bo + 1]!, bz = b[bo + 2]!, bw = b[bo + 3]!;
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
  return out;
}

/** Conjugate (−x, −y, −z, w): the inverse of a unit quaternion. */
export function quatConjugate<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number): T {
  out[o] = -a[ao]!;
  out[o + 1] = -a[ao + 1]!;
  out[o + 2] = -a[ao + 2]!;
  out[o + 3] = a[ao + 3]!;
  return out;
}

/** Inverse q* / |q|² (for any non-zero quaternion; the zero quaternion gives zero). */
export function quatInvert<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number): T {
  const x = a[ao]!, y = a[ao + 1]!, z = a[ao + 2]!, w = a[ao + 3]!;
  const n2 = x * x + y * y + z * z + w * w;
  const inv = n2 > 0 ? 1 / n2 : 0;
  out[o] = -x * inv;
  out[o + 1] = -y * inv;
  out[o + 2] = -z * inv;
  out[o + 3] = w * inv;
  return out;
}

/** Scales to unit length; a zero (or non-finite-length) quaternion becomes the identity. */
export function quatNormalize<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number): T {
  const x = a[ao]!, y = a[ao + 1]!, z = a[ao + 2]!, w = a[ao + 3]!;
  const n2 = x * x + y * y + z * z + w * w;
  if (!(n2 > 0) || n2 === Infinity) return quatIdentity(out, o);
  const inv = 1 / Math.sqrt(n2);
  out[o] = x * inv;
  out[o + 1] = y * inv;
  out[o + 2] = z * inv;
  out[o + 3] = w * inv;
  return out;
}

/** Length √(x² + y² + z² + w²). */
export function quatLength(a: QuatArray, ao: number): number {
  const x = a[ao]!, y = a[ao + 1]!, z = a[ao + 2]!, w = a[ao + 3]!;
  return Math.sqrt(x * x + y * y + z * z + w * w);
}

/** The argument of the plain forms, handed to their `…At` form. */
const arg = new Float64Array(1);

/**
 * Normalised lerp along the shorter arc: b is negated when a · b < 0, then
 * out = normalize((1 − t)·a + t·b). Cheap; its angular speed is not constant (off by up to ~4 % of the
 * angle for a 120° step at t = ½ — use slerp for key interpolation).
 */
export function quatNlerp<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number, b: QuatArray, bo: number, t: number): T {
  arg[0] = t;
  return quatNlerpAt(out, o, a, ao, b, bo, arg, 0);
}

/** `quatNlerp` with t = ts[ti]. */
export function quatNlerpAt<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number, b: QuatArray, bo: number, ts: Float64Array, ti: number): T {
  const t = ts[ti]!;
  const ax = a[ao]!, ay = a[ao + 1]!, az = a[ao + 2]!, aw = a[ao + 3]!;
  let bx = b[bo]!, by = b[bo + 1]!, bz = b[bo + 2]!, bw = b[bo + 3]!;
  if (ax * bx + ay * by + az * bz + aw * bw < 0) {
    bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  const s = 1 - t;
  const x = s * ax + t * bx, y = s * ay + t * by, z = s * az + t * bz, w = s * aw + t * bw;
  // quatNormalize written out: the four components would otherwise cross a call.
  const n2 = x * x + y * y + z * z + w * w;
  if (!(n2 > 0) || n2 === Infinity) return quatIdentity(out, o);
  const inv = 1 / Math.sqrt(n2);
  out[o] = x * inv;
  out[o + 1] = y * inv;
  out[o + 2] = z * inv;
  out[o + 3] = w * inv;
  return out;
}

/**
 * Spherical linear interpolation along the shorter arc, exactly as glTF 2.0 Appendix C defines it:
 * with d = a · b, θ = acos(|d|) and σ = sign(d),
 * out = sin((1 − t)θ)/sin θ · a + σ · sin(tθ)/sin θ · b. When sin θ < 1e-6 (the two rotations are equal
 * to float precision) it falls back to normalised lerp, as the spec's implementation note allows.
 * Uses Math.acos / Math.sin, whose last bit may differ between JavaScript engines: use
 * `quatSlerpFast` where results must be bit-identical everywhere.
 */
export function quatSlerp<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number, b: QuatArray, bo: number, t: number): T {
  arg[0] = t;
  return quatSlerpAt(out, o, a, ao, b, bo, arg, 0);
}

/** `quatSlerp` with t = ts[ti]. */
export function quatSlerpAt<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number, b: QuatArray, bo: number, ts: Float64Array, ti: number): T {
  const t = ts[ti]!;
  const ax = a[ao]!, ay = a[ao + 1]!, az = a[ao + 2]!, aw = a[ao + 3]!;
  let bx = b[bo]!, by = b[bo + 1]!, bz = b[bo + 2]!, bw = b[bo + 3]!;
  let d = ax * bx + ay * by + az * bz + aw * bw;
  if (d < 0) {
    d = -d;
    bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  if (d > 1) d = 1;
  // (1 − d)(1 + d) rather than 1 − d²: 1 − d is exact for d near 1, so sin θ stays consistent with
  // acos(d) to a few ulps; 1 − d² loses up to half the digits there and slerp(t = 0) drifted off unit length.
  const sinTheta = Math.sqrt((1 - d) * (1 + d));
  if (sinTheta < SLERP_EPSILON) {
    const s = 1 - t;
    const x = s * ax + t * bx, y = s * ay + t * by, z = s * az + t * bz, w = s * aw + t * bw;
    // quatNormalize written out: this branch is rare within a hot function, so V8 would not inline a
    // call here, and the callee, seldom run, would stay in the interpreter, which boxes every double.
    const n2 = x * x + y * y + z * z + w * w;
    if (!(n2 > 0) || n2 === Infinity) return quatIdentity(out, o);
    const inv = 1 / Math.sqrt(n2);
    out[o] = x * inv;
    out[o + 1] = y * inv;
    out[o + 2] = z * inv;
    out[o + 3] = w * inv;
    return out;
  }
  const theta = Math.acos(d);
  const k0 = Math.sin((1 - t) * theta) / sinTheta;
  const k1 = Math.sin(t * theta) / sinTheta;
  out[o] = k0 * ax + k1 * bx;
  out[o + 1] = k0 * ay + k1 * by;
  out[o + 2] = k0 * az + k1 * bz;
  out[o + 3] = k0 * aw + k1 * bw;
  return out;
}

// Eberly, "A Fast and Accurate Algorithm for Computing SLERP" (JGT 15(3), 2011): with y = 1 − cos A,
// f(t, A) = sin(tA)/sin A = Σ_{i≥0} c_i(t) y^i, c_0 = t, c_i = c_{i−1}·(i² − t²)/(i(2i + 1)); truncated
// after i = 8 with the last term scaled by Eberly's (1 + μ_8). Eberly's own corrected bound for that
// polynomial is 2.6e-5 over A ∈ [0, π/2] but 1.5e-7 over A ∈ [0, π/4], so we first halve the angle:
// qh = (q0 + q1)/|q0 + q1| is the midpoint, and slerp(t) = slerp(2t; q0, qh) or slerp(2t − 1; qh, q1).
const FAST_SLERP_DEGREE = 8;
// Eberly's 1 + μ_8 = 1.90110745351730037, written as its nearest double.
const FAST_SLERP_ONE_PLUS_MU = 1.9011074535173003;
const FAST_SLERP_A = new Float64Array(FAST_SLERP_DEGREE);
const FAST_SLERP_B = new Float64Array(FAST_SLERP_DEGREE);
for (let i = 1; i <= FAST_SLERP_DEGREE; i++) {
  const scale = i === FAST_SLERP_DEGREE ? FAST_SLERP_ONE_PLUS_MU : 1;
  FAST_SLERP_A[i - 1] = scale / (i * (2 * i + 1));
  FAST_SLERP_B[i - 1] = (scale * i) / (2 * i + 1);
}

/**
 * Eberly's polynomial estimates of sin(tA)/sin A for y = 1 − cos A (+ − × only), for t = 1 − u and t = u:
 * reads u = k[0] and y = k[1], writes the coefficient of the start point to k[0] and of the end point
 * to k[1] (in memory rather than as arguments and results: see the note at the top).
 */
function fastSlerpCoefficients(k: Float64Array): void {
  const u = k[0]!, y = k[1]!;
  const t0 = 1 - u;
  const tt0 = t0 * t0, tt1 = u * u;
  let term0 = t0, sum0 = t0, term1 = u, sum1 = u;
  for (let i = 0; i < FAST_SLERP_DEGREE; i++) {
    term0 *= (FAST_SLERP_B[i]! - FAST_SLERP_A[i]! * tt0) * y;
    sum0 += term0;
    term1 *= (FAST_SLERP_B[i]! - FAST_SLERP_A[i]! * tt1) * y;
    sum1 += term1;
  }
  k[0] = sum0;
  k[1] = sum1;
}
const fastSlerpK = new Float64Array(2);

/**
 * Deterministic slerp using only + − × ÷ √ (Eberly's polynomial on the half angle; no Math.acos /
 * Math.sin, whose last bits may differ between engines, so every IEEE-754 engine gives the same bits).
 * Same shortest-arc rule as `quatSlerp`. Differs from the exact slerp by at most ~2e-7 per component
 * for t ∈ [0, 1] and any pair of unit rotations (measured in test/math/quat.test.ts).
 */
export function quatSlerpFast<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number, b: QuatArray, bo: number, t: number): T {
  arg[0] = t;
  return quatSlerpFastAt(out, o, a, ao, b, bo, arg, 0);
}

/** `quatSlerpFast` with t = ts[ti]. */
export function quatSlerpFastAt<T extends QuatArray>(out: T, o: number, a: QuatArray, ao: number, b: QuatArray, bo: number, ts: Float64Array, ti: number): T {
  const t = ts[ti]!;
  const ax = a[ao]!, ay = a[ao + 1]!, az = a[ao + 2]!, aw = a[ao + 3]!;
  let bx = b[bo]!, by = b[bo + 1]!, bz = b[bo + 2]!, bw = b[bo + 3]!;
  let x = ax * bx + ay * by + az * bz + aw * bw;
  if (x < 0) {
    x = -x;
    bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  if (x > 1) x = 1;
  // Midpoint qh = (a + b)/|a + b|; |a + b| = √(2 + 2x) ≥ √2 for unit inputs with x ≥ 0.
  const sx = ax + bx, sy = ay + by, sz = az + bz, sw = aw + bw;
  const inv = 1 / Math.sqrt(sx * sx + sy * sy + sz * sz + sw * sw);
  const hx = sx * inv, hy = sy * inv, hz = sz * inv, hw = sw * inv;
  // cos(A/2) = a · qh = √((1 + x)/2).
  const y = 1 - Math.sqrt((1 + x) / 2);
  let px: number, py: number, pz: number, pw: number, qx: number, qy: number, qz: number, qw: number, u: number;
  if (t <= 0.5) {
    px = ax; py = ay; pz = az; pw = aw;
    qx = hx; qy = hy; qz = hz; qw = hw;
    u = 2 * t;
  } else {
    px = hx; py = hy; pz = hz; pw = hw;
    qx = bx; qy = by; qz = bz; qw = bw;
    u = 2 * t - 1;
  }
  const k = fastSlerpK;
  k[0] = u;
  k[1] = y;
  fastSlerpCoefficients(k);
  const k0 = k[0]!, k1 = k[1]!;
  out[o] = k0 * px + k1 * qx;
  out[o + 1] = k0 * py + k1 * qy;
  out[o + 2] = k0 * pz + k1 * qz;
  out[o + 3] = k0 * pw + k1 * qw;
  return out;
}

/**
 * The rotation angle between two unit rotations, in radians [0, π]. Computed as
 * 4·atan2(|a − σb|, |a + σb|) with σ = sign(a · b) (the half-angle between the 4-vectors, doubled twice),
 * which stays accurate for nearly equal rotations where 2·acos|a · b| loses half the digits.
 */
export function quatAngleBetween(a: QuatArray, ao: number, b: QuatArray, bo: number): number {
  const sign = quatDot(a, ao, b, bo) < 0 ? -1 : 1;
  let d2 = 0, s2 = 0;
  for (let c = 0; c < 4; c++) {
    const x = a[ao + c]!, y = sign * b[bo + c]!;
    d2 += (x - y) * (x - y);
    s2 += (x + y) * (x + y);
  }
  return 4 * Math.atan2(Math.sqrt(d2), Math.sqrt(s2));
}

/** Rotates the vector at v[vo] by the unit quaternion q: out = q·v·q*. `out` may alias `v`. */
export function quatRotateVec3<T extends QuatArray>(out: T, o: number, q: QuatArray, qo: number, v: QuatArray, vo: number): T {
  const qx = q[qo]!, qy = q[qo + 1]!, qz = q[qo + 2]!, qw = q[qo + 3]!;
  const vx = v[vo]!, vy = v[vo + 1]!, vz = v[vo + 2]!;
  // t = 2 (q.xyz × v); v' = v + w t + q.xyz × t
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[o] = vx + qw * tx + (qy * tz - qz * ty);
  out[o + 1] = vy + qw * ty + (qz * tx - qx * tz);
  out[o + 2] = vz + qw * tz + (qx * ty - qy * tx);
  return out;
}

/** Rotation of `angle` radians about the axis (ax, ay, az) (normalised here; a zero axis gives identity). */
export function quatFromAxisAngle<T extends QuatArray>(out: T, o: number, ax: number, ay: number, az: number, angle: number): T {
  const len = Math.sqrt(ax * ax + ay * ay + az * az);
  if (!(len > 0)) return quatIdentity(out, o);
  const s = Math.sin(angle / 2) / len;
  out[o] = ax * s;
  out[o + 1] = ay * s;
  out[o + 2] = az * s;
  out[o + 3] = Math.cos(angle / 2);
  return out;
}

/**
 * Rotation from Euler angles in radians, `x`, `y`, `z` about the X, Y and Z axes, composed in the
 * intrinsic `order` (as in a BVH CHANNELS list): "ZXY" means rotate about Z, then about the new X, then
 * about the new Y, i.e. q = q_Z · q_X · q_Y (the matrix product Rz·Rx·Ry applied to column vectors).
 */
export function quatFromEuler<T extends QuatArray>(out: T, o: number, x: number, y: number, z: number, order: EulerOrder): T {
  const sx = Math.sin(x / 2), cx = Math.cos(x / 2);
  const sy = Math.sin(y / 2), cy = Math.cos(y / 2);
  const sz = Math.sin(z / 2), cz = Math.cos(z / 2);
  // Start from the identity and right-multiply each axis rotation in listed order.
  let qx = 0, qy = 0, qz = 0, qw = 1;
  for (let i = 0; i < 3; i++) {
    const axis = order.charCodeAt(i);
    let bx = 0, by = 0, bz = 0, bw: number;
    if (axis === 88 /* X */) { bx = sx; bw = cx; }
    else if (axis === 89 /* Y */) { by = sy; bw = cy; }
    else { bz = sz; bw = cz; }
    const nx = qw * bx + qx * bw + qy * bz - qz * by;
    const ny = qw * by - qx * bz + qy * bw + qz * bx;
    const nz = qw * bz + qx * by - qy * bx + qz * bw;
    const nw = qw * bw - qx * bx - qy * by - qz * bz;
    qx = nx; qy = ny; qz = nz; qw = nw;
  }
  return quatSet(out, o, qx, qy, qz, qw);
}

/**
 * The twist angle (radians, (−π, π]) of the unit rotation q about the unit axis (ux, uy, uz), from the
 * swing–twist decomposition q = swing · twist: 2·atan2(q.xyz · u, q.w). For u = +Y this is the yaw.
 */
export function quatTwistAngle(q: QuatArray, qo: number, ux: number, uy: number, uz: number): number {
  const v = twistScratch;
  v[2] = ux;
  v[3] = uy;
  v[4] = uz;
  quatTwistAngleAt(v, 0, q, qo, v, 2);
  return v[0]!;
}

/** `quatTwistAngle` about the axis u[uo .. uo + 2], written to out[o]. */
export function quatTwistAngleAt(out: QuatArray, o: number, q: QuatArray, qo: number, u: QuatArray, uo: number): void {
  const yx = twistArgs;
  yx[0] = q[qo]! * u[uo]! + q[qo + 1]! * u[uo + 1]! + q[qo + 2]! * u[uo + 2]!;
  yx[1] = q[qo + 3]!;
  // atan2Poly, not Math.atan2: root-motion yaw stays bit-identical across engines (deterministic mode).
  atan2PolyAt(yx, 0);
  let angle = 2 * yx[0]!;
  if (angle > Math.PI) angle -= 2 * Math.PI;
  else if (angle <= -Math.PI) angle += 2 * Math.PI;
  out[o] = angle;
}
const twistScratch = new Float64Array(5);
const twistArgs = new Float64Array(2);

/**
 * How two rotations are interpolated: `slerp` (exact, glTF's rule), `fastSlerp` (Eberly's polynomial,
 * bit-identical on every engine, within 2e-7 of slerp) or `nlerp` (normalised lerp, cheapest).
 */
export type QuatInterpolation = "slerp" | "fastSlerp" | "nlerp";

/** Every QuatInterpolation, for argument checks. */
export const QUAT_INTERPOLATIONS: readonly QuatInterpolation[] = Object.freeze(["slerp", "fastSlerp", "nlerp"]);

/** Dispatches to quatSlerp / quatSlerpFast / quatNlerp (all shortest-arc). */
export function quatInterpolate<T extends QuatArray>(
  mode: QuatInterpolation,
  out: T, o: number, a: QuatArray, ao: number, b: QuatArray, bo: number, t: number,
): T {
  arg[0] = t;
  return quatInterpolateAt(mode, out, o, a, ao, b, bo, arg, 0);
}

/** `quatInterpolate` with t = ts[ti] (the per-frame form: see the note at the top). */
export function quatInterpolateAt<T extends QuatArray>(
  mode: QuatInterpolation,
  out: T, o: number, a: QuatArray, ao: number, b: QuatArray, bo: number, ts: Float64Array, ti: number,
): T {
  if (mode === "slerp") return quatSlerpAt(out, o, a, ao, b, bo, ts, ti);
  if (mode === "fastSlerp") return quatSlerpFastAt(out, o, a, ao, b, bo, ts, ti);
  return quatNlerpAt(out, o, a, ao, b, bo, ts, ti);
}
