// The crowd's fused model-space kernel: localToModel for many characters in one Float32Array, with
// each local matrix built and multiplied in registers (sampling and blending use the library's own
// functions; separate Float32Array-only copies of those measured no faster here).
import type { Pose } from "../pose/pose.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";

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
