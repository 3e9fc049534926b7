/**
 * Column-major 4×4 matrices (glTF and WebGL layout: element (row r, column c) at index 4c + r), stored
 * in any flat numeric array at an offset so a whole skeleton's matrices can live in one Float32Array
 * (16 floats per joint). Every function writes into `out` at `o` first and allocates nothing.
 *
 * Aliasing: `mat4Multiply` reads all of `a` and each column of `b` before writing that column, so `out`
 * may be the same matrix as `a` or `b` (same array and offset). The other functions note their rules.
 */

/** Any flat array of numbers a matrix can live in. */
export type NumArray = Float32Array | Float64Array | number[];

/** Writes the identity into `out` at `o`. */
export function mat4Identity<T extends NumArray>(out: T, o = 0): T {
  for (let i = 0; i < 16; i++) out[o + i] = i % 5 === 0 ? 1 : 0;
  return out;
}

/** Copies 16 floats from `a` at `ao` to `out` at `o` (the ranges may be the same; not partly overlapping). */
export function mat4Copy<T extends NumArray>(out: T, o: number, a: NumArray, ao: number): T {
  for (let i = 0; i < 16; i++) out[o + i] = a[ao + i]!;
  return out;
}

/**
 * Composes translation × rotation × scale (glTF's node order: scale first, then rotate, then translate)
 * into `out` at `o`. `t` (x, y, z), `r` (unit quaternion x, y, z, w) and `s` (x, y, z) are read at their
 * offsets before anything is written, so they may live in `out` only if they do not overlap `out[o..o+15]`.
 */
export function mat4FromTRS<T extends NumArray>(
  out: T, o: number,
  t: NumArray, to: number,
  r: NumArray, ro: number,
  s: NumArray, so: number,
): T {
  const x = r[ro]!, y = r[ro + 1]!, z = r[ro + 2]!, w = r[ro + 3]!;
  const sx = s[so]!, sy = s[so + 1]!, sz = s[so + 2]!;
  const tx = t[to]!, ty = t[to + 1]!, tz = t[to + 2]!;
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2;
  const yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  out[o] = (1 - (yy + zz)) * sx;
  out[o + 1] = (xy + wz) * sx;
  out[o + 2] = (xz - wy) * sx;
  out[o + 3] = 0;
  out[o + 4] = (xy - wz) * sy;
  out[o + 5] = (1 - (xx + zz)) * sy;
  out[o + 6] = (yz + wx) * sy;
  out[o + 7] = 0;
  out[o + 8] = (xz + wy) * sz;
  out[o + 9] = (yz - wx) * sz;
  out[o + 10] = (1 - (xx + yy)) * sz;
  out[o + 11] = 0;
  out[o + 12] = tx;
  out[o + 13] = ty;
  out[o + 14] = tz;
  out[o + 15] = 1;
  return out;
}

/** `out = a × b` (apply `b` first, then `a`). `out` may alias `a` or `b` exactly (see the module note). */
export function mat4Multiply<T extends NumArray>(out: T, o: number, a: NumArray, ao: number, b: NumArray, bo: number): T {
  const a00 = a[ao]!, a01 = a[ao + 1]!, a02 = a[ao + 2]!, a03 = a[ao + 3]!;
  const a10 = a[ao + 4]!, a11 = a[ao + 5]!, a12 = a[ao + 6]!, a13 = a[ao + 7]!;
  const a20 = a[ao + 8]!, a21 = a[ao + 9]!, a22 = a[ao + 10]!, a23 = a[ao + 11]!;
  const a30 = a[ao + 12]!, a31 = a[ao + 13]!, a32 = a[ao + 14]!, a33 = a[ao + 15]!;
  for (let c = 0; c < 4; c++) {
    const b0 = b[bo + 4 * c]!, b1 = b[bo + 4 * c + 1]!, b2 = b[bo + 4 * c + 2]!, b3 = b[bo + 4 * c + 3]!;
    out[o + 4 * c] = b0 * a00 + b1 * a10 + b2 * a20 + b3 * a30;
    out[o + 4 * c + 1] = b0 * a01 + b1 * a11 + b2 * a21 + b3 * a31;
    out[o + 4 * c + 2] = b0 * a02 + b1 * a12 + b2 * a22 + b3 * a32;
    out[o + 4 * c + 3] = b0 * a03 + b1 * a13 + b2 * a23 + b3 * a33;
  }
  return out;
}

/**
 * `out = a⁻¹`. Returns false (leaving `out` untouched) when `a` is singular or not finite. `out` may
 * alias `a` exactly: all of `a` is read before writing.
 */
export function mat4Invert(out: NumArray, o: number, a: NumArray, ao: number): boolean {
  const a00 = a[ao]!, a01 = a[ao + 1]!, a02 = a[ao + 2]!, a03 = a[ao + 3]!;
  const a10 = a[ao + 4]!, a11 = a[ao + 5]!, a12 = a[ao + 6]!, a13 = a[ao + 7]!;
  const a20 = a[ao + 8]!, a21 = a[ao + 9]!, a22 = a[ao + 10]!, a23 = a[ao + 11]!;
  const a30 = a[ao + 12]!, a31 = a[ao + 13]!, a32 = a[ao + 14]!, a33 = a[ao + 15]!;
  const b00 = a00 * a11 - a01 * a10;
  const b01 = a00 * a12 - a02 * a10;
  const b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11;
  const b04 = a01 * a13 - a03 * a11;
  const b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30;
  const b07 = a20 * a32 - a22 * a30;
  const b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31;
  const b10 = a21 * a33 - a23 * a31;
  const b11 = a22 * a33 - a23 * a32;
  const det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
  if (det === 0 || !Number.isFinite(det)) return false;
  const d = 1 / det;
  out[o] = (a11 * b11 - a12 * b10 + a13 * b09) * d;
  out[o + 1] = (a02 * b10 - a01 * b11 - a03 * b09) * d;
  out[o + 2] = (a31 * b05 - a32 * b04 + a33 * b03) * d;
  out[o + 3] = (a22 * b04 - a21 * b05 - a23 * b03) * d;
  out[o + 4] = (a12 * b08 - a10 * b11 - a13 * b07) * d;
  out[o + 5] = (a00 * b11 - a02 * b08 + a03 * b07) * d;
  out[o + 6] = (a32 * b02 - a30 * b05 - a33 * b01) * d;
  out[o + 7] = (a20 * b05 - a22 * b02 + a23 * b01) * d;
  out[o + 8] = (a10 * b10 - a11 * b08 + a13 * b06) * d;
  out[o + 9] = (a01 * b08 - a00 * b10 - a03 * b06) * d;
  out[o + 10] = (a30 * b04 - a31 * b02 + a33 * b00) * d;
  out[o + 11] = (a21 * b02 - a20 * b04 - a23 * b00) * d;
  out[o + 12] = (a11 * b07 - a10 * b09 - a12 * b06) * d;
  out[o + 13] = (a00 * b09 - a01 * b07 + a02 * b06) * d;
  out[o + 14] = (a31 * b01 - a30 * b03 - a32 * b00) * d;
  out[o + 15] = (a20 * b03 - a21 * b01 + a22 * b00) * d;
  return true;
}

/**
 * Splits an affine matrix into translation, unit rotation quaternion and scale, so that
 * `mat4FromTRS(t, r, s)` gives it back when it has no shear. A negative determinant (a mirror) is put
 * into the x scale. Returns false (writing nothing) when the matrix is singular (a zero scale) or not
 * finite. The outputs must not overlap `m`.
 */
export function mat4Decompose(
  t: NumArray, to: number,
  r: NumArray, ro: number,
  s: NumArray, so: number,
  m: NumArray, mo: number,
): boolean {
  const m00 = m[mo]!, m01 = m[mo + 1]!, m02 = m[mo + 2]!;
  const m10 = m[mo + 4]!, m11 = m[mo + 5]!, m12 = m[mo + 6]!;
  const m20 = m[mo + 8]!, m21 = m[mo + 9]!, m22 = m[mo + 10]!;
  let sx = Math.hypot(m00, m01, m02);
  const sy = Math.hypot(m10, m11, m12);
  const sz = Math.hypot(m20, m21, m22);
  const det = m00 * (m11 * m22 - m12 * m21) - m10 * (m01 * m22 - m02 * m21) + m20 * (m01 * m12 - m02 * m11);
  if (!(sx > 0 && sy > 0 && sz > 0) || !Number.isFinite(det) || det === 0) return false;
  if (!Number.isFinite(m[mo + 12]!) || !Number.isFinite(m[mo + 13]!) || !Number.isFinite(m[mo + 14]!)) return false;
  if (det < 0) sx = -sx;
  // The rotation matrix (columns divided by the scales), then Shepperd's method for the quaternion.
  const r00 = m00 / sx, r01 = m01 / sx, r02 = m02 / sx;
  const r10 = m10 / sy, r11 = m11 / sy, r12 = m12 / sy;
  const r20 = m20 / sz, r21 = m21 / sz, r22 = m22 / sz;
  const trace = r00 + r11 + r22;
  let qx: number, qy: number, qz: number, qw: number;
  if (trace > 0) {
    const k = 0.5 / Math.sqrt(trace + 1);
    qw = 0.25 / k;
    qx = (r12 - r21) * k;
    qy = (r20 - r02) * k;
    qz = (r01 - r10) * k;
  } else if (r00 > r11 && r00 > r22) {
    const k = 2 * Math.sqrt(1 + r00 - r11 - r22);
    qw = (r12 - r21) / k;
    qx = 0.25 * k;
    qy = (r10 + r01) / k;
    qz = (r20 + r02) / k;
  } else if (r11 > r22) {
    const k = 2 * Math.sqrt(1 + r11 - r00 - r22);
    qw = (r20 - r02) / k;
    qx = (r10 + r01) / k;
    qy = 0.25 * k;
    qz = (r21 + r12) / k;
  } else {
    const k = 2 * Math.sqrt(1 + r22 - r00 - r11);
    qw = (r01 - r10) / k;
    qx = (r20 + r02) / k;
    qy = (r21 + r12) / k;
    qz = 0.25 * k;
  }
  const len = Math.hypot(qx, qy, qz, qw);
  if (!(len > 0)) return false;
  r[ro] = qx / len;
  r[ro + 1] = qy / len;
  r[ro + 2] = qz / len;
  r[ro + 3] = qw / len;
  t[to] = m[mo + 12]!;
  t[to + 1] = m[mo + 13]!;
  t[to + 2] = m[mo + 14]!;
  s[so] = sx;
  s[so + 1] = sy;
  s[so + 2] = sz;
  return true;
}

/** Largest absolute element difference between two matrices (for tolerance checks). */
export function mat4MaxDifference(a: NumArray, ao: number, b: NumArray, bo: number): number {
  let max = 0;
  for (let i = 0; i < 16; i++) {
    const d = Math.abs(a[ao + i]! - b[bo + i]!);
    if (Number.isNaN(d)) return NaN;
    if (d > max) max = d;
  }
  return max;
}
