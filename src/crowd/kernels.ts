import { findKey } from "../clip/find-key.ts";
// Monomorphic copies of the sampling and model-space kernels for the crowd's hot path. The library's
// general versions (src/clip/sample-track.ts, src/math/quat.ts, src/math/mat4.ts) accept Float32Array,
// Float64Array and number[] alike; used with all three across a program, V8's element accesses there
// become polymorphic, which costs speed and boxes doubles (allocation). These copies see Float32Array
// only. They perform the same floating-point operations in the same order, so their results are bit
// for bit those of the general functions (test/crowd/crowd.test.ts checks whole crowds against step + localToModel).
import type { Clip, Interpolation } from "../clip/clip.ts";
import type { QuatInterpolation } from "../math/quat.ts";
import type { Pose } from "../pose/pose.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";

const SLERP_EPSILON = 1e-6; // as src/math/quat.ts

const FAST_SLERP_DEGREE = 8;
const FAST_SLERP_ONE_PLUS_MU = 1.9011074535173003;
const FAST_SLERP_A = new Float64Array(FAST_SLERP_DEGREE);
const FAST_SLERP_B = new Float64Array(FAST_SLERP_DEGREE);
for (let i = 1; i <= FAST_SLERP_DEGREE; i++) {
  const scale = i === FAST_SLERP_DEGREE ? FAST_SLERP_ONE_PLUS_MU : 1;
  FAST_SLERP_A[i - 1] = scale / (i * (2 * i + 1));
  FAST_SLERP_B[i - 1] = (scale * i) / (2 * i + 1);
}

function writeNormalized(out: Float32Array | Float64Array, o: number, x: number, y: number, z: number, w: number): void {
  const n2 = x * x + y * y + z * z + w * w;
  if (!(n2 > 0) || n2 === Infinity) {
    out[o] = 0;
    out[o + 1] = 0;
    out[o + 2] = 0;
    out[o + 3] = 1;
    return;
  }
  const inv = 1 / Math.sqrt(n2);
  out[o] = x * inv;
  out[o + 1] = y * inv;
  out[o + 2] = z * inv;
  out[o + 3] = w * inv;
}

/**
 * Scratch for quaternion interpolation: a = Q[0..3], b = Q[4..7], t = Q[8]; `interpolateQ` leaves the
 * result in Q[0..3], unrounded (as the general functions compute it before storing). Passing doubles
 * through a Float64Array instead of as arguments keeps V8 from boxing them on every call.
 */
export const Q = new Float64Array(9);

/** quatInterpolate(mode, …) on Q (same operations in the same order as src/math/quat.ts). */
export function interpolateQ(mode: QuatInterpolation): void {
  // slerp32 / fastSlerp32 read every input before writing, so Q may be input and output at once.
  if (mode === "slerp") {
    slerp32(Q, 0, Q, 0, Q, 4, Q[8]!);
    return;
  }
  if (mode === "fastSlerp") {
    fastSlerp32(Q, 0, Q, 0, Q, 4, Q[8]!);
    return;
  }
  const ax = Q[0]!, ay = Q[1]!, az = Q[2]!, aw = Q[3]!;
  let bx = Q[4]!, by = Q[5]!, bz = Q[6]!, bw = Q[7]!;
  const t = Q[8]!;
  if (ax * bx + ay * by + az * bz + aw * bw < 0) {
    bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  const s = 1 - t;
  writeNormalized(Q, 0, s * ax + t * bx, s * ay + t * by, s * az + t * bz, s * aw + t * bw);
}

/** quatInterpolate(mode, out, o, a, ao, b, bo, t) for Float32Arrays, t in Q[8]. */
export function interpolate32(mode: QuatInterpolation, out: Float32Array, o: number, a: Float32Array, ao: number, b: Float32Array, bo: number): void {
  Q[0] = a[ao]!; Q[1] = a[ao + 1]!; Q[2] = a[ao + 2]!; Q[3] = a[ao + 3]!;
  Q[4] = b[bo]!; Q[5] = b[bo + 1]!; Q[6] = b[bo + 2]!; Q[7] = b[bo + 3]!;
  interpolateQ(mode);
  out[o] = Q[0]!; out[o + 1] = Q[1]!; out[o + 2] = Q[2]!; out[o + 3] = Q[3]!;
}

/**
 * quatSlerp (src/math/quat.ts) for Float32Arrays, its body as it is there: small enough for V8 to
 * inline into the per-joint loops, where the t argument then needs no boxing.
 */
export function slerp32(out: Float32Array | Float64Array, o: number, a: Float32Array | Float64Array, ao: number, b: Float32Array | Float64Array, bo: number, t: number): void {
  const ax = a[ao]!, ay = a[ao + 1]!, az = a[ao + 2]!, aw = a[ao + 3]!;
  let bx = b[bo]!, by = b[bo + 1]!, bz = b[bo + 2]!, bw = b[bo + 3]!;
  let d = ax * bx + ay * by + az * bz + aw * bw;
  if (d < 0) {
    d = -d;
    bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  if (d > 1) d = 1;
  const sinTheta = Math.sqrt(1 - d * d);
  if (sinTheta < SLERP_EPSILON) {
    const s = 1 - t;
    writeNormalized(out, o, s * ax + t * bx, s * ay + t * by, s * az + t * bz, s * aw + t * bw);
    return;
  }
  const theta = Math.acos(d);
  const k0 = Math.sin((1 - t) * theta) / sinTheta;
  const k1 = Math.sin(t * theta) / sinTheta;
  out[o] = k0 * ax + k1 * bx;
  out[o + 1] = k0 * ay + k1 * by;
  out[o + 2] = k0 * az + k1 * bz;
  out[o + 3] = k0 * aw + k1 * bw;
}

/**
 * quatSlerpFast (src/math/quat.ts) for Float32Arrays, the same operations in the same order (Eberly's
 * polynomial on the half angle, both coefficients in one loop): no Math.acos / Math.sin calls.
 */
export function fastSlerp32(out: Float32Array | Float64Array, o: number, a: Float32Array | Float64Array, ao: number, b: Float32Array | Float64Array, bo: number, t: number): void {
  const ax = a[ao]!, ay = a[ao + 1]!, az = a[ao + 2]!, aw = a[ao + 3]!;
  let bx = b[bo]!, by = b[bo + 1]!, bz = b[bo + 2]!, bw = b[bo + 3]!;
  let x = ax * bx + ay * by + az * bz + aw * bw;
  if (x < 0) {
    x = -x;
    bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  if (x > 1) x = 1;
  const sx = ax + bx, sy = ay + by, sz = az + bz, sw = aw + bw;
  const inv = 1 / Math.sqrt(sx * sx + sy * sy + sz * sz + sw * sw);
  const hx = sx * inv, hy = sy * inv, hz = sz * inv, hw = sw * inv;
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
  const t0 = 1 - u;
  const tt0 = t0 * t0, tt1 = u * u;
  let term0 = t0, sum0 = t0, term1 = u, sum1 = u;
  for (let i = 0; i < FAST_SLERP_DEGREE; i++) {
    const bi = FAST_SLERP_B[i]!, ai = FAST_SLERP_A[i]!;
    term0 *= (bi - ai * tt0) * y;
    sum0 += term0;
    term1 *= (bi - ai * tt1) * y;
    sum1 += term1;
  }
  out[o] = sum0 * px + sum1 * qx;
  out[o + 1] = sum0 * py + sum1 * qy;
  out[o + 2] = sum0 * pz + sum1 * qz;
  out[o + 3] = sum0 * pw + sum1 * qw;
}

function copyKey(out: Float32Array, o: number, values: Float32Array, from: number, stride: number): void {
  for (let c = 0; c < stride; c++) out[o + c] = values[from + c]!;
}

/** `sampleTrack` (src/clip/sample-track.ts) for a Float32Array output. */
function sampleTrack32(
  out: Float32Array, o: number, times: Float32Array, values: Float32Array, stride: number,
  interpolation: Interpolation, rotation: boolean, quatMode: QuatInterpolation, time: number,
): number {
  const n = times.length;
  const cubic = interpolation === "CUBICSPLINE";
  const keyStride = cubic ? 3 * stride : stride;
  const valueShift = cubic ? stride : 0;
  if (n === 1 || !(time > times[0]!)) {
    copyKey(out, o, values, valueShift, stride);
    return 0;
  }
  if (time >= times[n - 1]!) {
    copyKey(out, o, values, (n - 1) * keyStride + valueShift, stride);
    return n - 2;
  }
  // The hint is a guess from the track's mean key spacing (one key low, against rounding), not a
  // cursor: findKey is exact from any hint, so characters at unrelated times need no per-character
  // cursor state and still find their key in O(1) on evenly sampled tracks.
  const guess = Math.floor(((time - times[0]!) * (n - 1)) / (times[n - 1]! - times[0]!)) - 1;
  const k = findKey(times, time, guess < 0 ? 0 : guess);
  const tk = times[k]!;
  const v0 = k * keyStride + valueShift;
  if (time === tk || interpolation === "STEP") {
    copyKey(out, o, values, v0, stride);
    return k;
  }
  const td = times[k + 1]! - tk;
  const u = (time - tk) / td;
  const v1 = v0 + keyStride;
  if (!cubic) {
    if (rotation) {
      if (quatMode === "slerp") slerp32(out, o, values, v0, values, v1, u);
      else if (quatMode === "fastSlerp") fastSlerp32(out, o, values, v0, values, v1, u);
      else {
        Q[8] = u;
        interpolate32(quatMode, out, o, values, v0, values, v1);
      }
    } else {
      const s = 1 - u;
      for (let c = 0; c < stride; c++) out[o + c] = s * values[v0 + c]! + u * values[v1 + c]!;
    }
    return k;
  }
  const u2 = u * u;
  const u3 = u2 * u;
  const h00 = 2 * u3 - 3 * u2 + 1;
  const h10 = td * (u3 - 2 * u2 + u);
  const h01 = -2 * u3 + 3 * u2;
  const h11 = td * (u3 - u2);
  const outTangent = v0 + stride;
  const inTangent = v1 - stride;
  if (rotation) {
    const x = h00 * values[v0]! + h10 * values[outTangent]! + h01 * values[v1]! + h11 * values[inTangent]!;
    const y = h00 * values[v0 + 1]! + h10 * values[outTangent + 1]! + h01 * values[v1 + 1]! + h11 * values[inTangent + 1]!;
    const z = h00 * values[v0 + 2]! + h10 * values[outTangent + 2]! + h01 * values[v1 + 2]! + h11 * values[inTangent + 2]!;
    const w = h00 * values[v0 + 3]! + h10 * values[outTangent + 3]! + h01 * values[v1 + 3]! + h11 * values[inTangent + 3]!;
    writeNormalized(out, o, x, y, z, w);
  } else {
    for (let c = 0; c < stride; c++) {
      out[o + c] = h00 * values[v0 + c]! + h10 * values[outTangent + c]! + h01 * values[v1 + c]! + h11 * values[inTangent + c]!;
    }
  }
  return k;
}

/**
 * `sampleClip(out, clip, time, cursor, quatMode)` (src/clip/sample-clip.ts), bit for bit, for the
 * crowd's hot path. Same preconditions (checked by the caller once, not per call). The cursor is
 * neither read nor written: keys are found from a spacing guess (see sampleTrack32). No allocation.
 */
export function sampleClip32(out: Pose, clip: Clip, time: number, quatMode: QuatInterpolation): void {
  const rest = clip.skeleton.rest;
  out.t.set(rest.t);
  out.r.set(rest.r);
  out.s.set(rest.s);
  const tracks = clip.tracks;
  for (let i = 0; i < tracks.length; i++) {
    const track = tracks[i]!;
    const j = track.joint;
    if (track.path === "rotation") {
      sampleTrack32(out.r, 4 * j, track.times, track.values, 4, track.interpolation, true, quatMode, time);
    } else {
      const target = track.path === "translation" ? out.t : out.s;
      sampleTrack32(target, 3 * j, track.times, track.values, 3, track.interpolation, false, quatMode, time);
    }
  }
}

/**
 * `localToModel(out, skeleton, pose, root)` (src/pose/local-to-model.ts), bit for bit, writing
 * character matrices at float offset `base` of `out` (so one Float32Array holds a whole crowd).
 * Each local matrix is built and multiplied by its parent's in registers. No allocation.
 */
export function localToModel32(out: Float32Array, base: number, skeleton: Skeleton, pose: Pose, root: Float32Array | undefined): void {
  const J = skeleton.jointCount;
  const parents = skeleton.parents;
  const T = pose.t, R = pose.r, S = pose.s;
  for (let j = 0; j < J; j++) {
    const o = base + 16 * j;
    const x = R[4 * j]!, y = R[4 * j + 1]!, z = R[4 * j + 2]!, w = R[4 * j + 3]!;
    const sx = S[3 * j]!, sy = S[3 * j + 1]!, sz = S[3 * j + 2]!;
    const x2 = x + x, y2 = y + y, z2 = z + z;
    const xx = x * x2, xy = x * y2, xz = x * z2;
    const yy = y * y2, yz = y * z2, zz = z * z2;
    const wx = w * x2, wy = w * y2, wz = w * z2;
    // The local matrix, rounded to float32 as mat4FromTRS's store into a Float32Array would.
    const b0 = Math.fround((1 - (yy + zz)) * sx), b1 = Math.fround((xy + wz) * sx), b2 = Math.fround((xz - wy) * sx);
    const b4 = Math.fround((xy - wz) * sy), b5 = Math.fround((1 - (xx + zz)) * sy), b6 = Math.fround((yz + wx) * sy);
    const b8 = Math.fround((xz + wy) * sz), b9 = Math.fround((yz - wx) * sz), b10 = Math.fround((1 - (xx + yy)) * sz);
    const b12 = T[3 * j]!, b13 = T[3 * j + 1]!, b14 = T[3 * j + 2]!;
    const p = parents[j]!;
    let a: Float32Array;
    let ao: number;
    if (p >= 0) {
      a = out;
      ao = base + 16 * p;
    } else if (root) {
      a = root;
      ao = 0;
    } else {
      out[o] = b0; out[o + 1] = b1; out[o + 2] = b2; out[o + 3] = 0;
      out[o + 4] = b4; out[o + 5] = b5; out[o + 6] = b6; out[o + 7] = 0;
      out[o + 8] = b8; out[o + 9] = b9; out[o + 10] = b10; out[o + 11] = 0;
      out[o + 12] = b12; out[o + 13] = b13; out[o + 14] = b14; out[o + 15] = 1;
      continue;
    }
    const a00 = a[ao]!, a01 = a[ao + 1]!, a02 = a[ao + 2]!, a03 = a[ao + 3]!;
    const a10 = a[ao + 4]!, a11 = a[ao + 5]!, a12 = a[ao + 6]!, a13 = a[ao + 7]!;
    const a20 = a[ao + 8]!, a21 = a[ao + 9]!, a22 = a[ao + 10]!, a23 = a[ao + 11]!;
    const a30 = a[ao + 12]!, a31 = a[ao + 13]!, a32 = a[ao + 14]!, a33 = a[ao + 15]!;
    // Same expression order as mat4Multiply (b3, b7, b11 = 0 and b15 = 1 are multiplied too).
    out[o] = b0 * a00 + b1 * a10 + b2 * a20 + 0 * a30;
    out[o + 1] = b0 * a01 + b1 * a11 + b2 * a21 + 0 * a31;
    out[o + 2] = b0 * a02 + b1 * a12 + b2 * a22 + 0 * a32;
    out[o + 3] = b0 * a03 + b1 * a13 + b2 * a23 + 0 * a33;
    out[o + 4] = b4 * a00 + b5 * a10 + b6 * a20 + 0 * a30;
    out[o + 5] = b4 * a01 + b5 * a11 + b6 * a21 + 0 * a31;
    out[o + 6] = b4 * a02 + b5 * a12 + b6 * a22 + 0 * a32;
    out[o + 7] = b4 * a03 + b5 * a13 + b6 * a23 + 0 * a33;
    out[o + 8] = b8 * a00 + b9 * a10 + b10 * a20 + 0 * a30;
    out[o + 9] = b8 * a01 + b9 * a11 + b10 * a21 + 0 * a31;
    out[o + 10] = b8 * a02 + b9 * a12 + b10 * a22 + 0 * a32;
    out[o + 11] = b8 * a03 + b9 * a13 + b10 * a23 + 0 * a33;
    out[o + 12] = b12 * a00 + b13 * a10 + b14 * a20 + 1 * a30;
    out[o + 13] = b12 * a01 + b13 * a11 + b14 * a21 + 1 * a31;
    out[o + 14] = b12 * a02 + b13 * a12 + b14 * a22 + 1 * a32;
    out[o + 15] = b12 * a03 + b13 * a13 + b14 * a23 + 1 * a33;
  }
}
