import { expectInteger, expectNumberArray, expectOneOf } from "../errors/check-argument.ts";
import type { EulerOrder, QuatArray } from "./quat.ts";

const ORDERS: readonly EulerOrder[] = ["XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"];

/** The rotation matrix of the quaternion being decomposed, row-major (module scratch: not re-entrant). */
const m = new Float64Array(9);

/**
 * Euler angles (radians) of the unit rotation q in the intrinsic `order`, the inverse of quatFromEuler:
 * "ZXY" gives (z, x, y) with q = q_Z(z) · q_X(x) · q_Y(y), as a BVH CHANNELS list reads. Written to
 * out[o], out[o + 1], out[o + 2] in the order's sequence (first listed axis first); the middle angle is
 * in [−π/2, π/2], the others in (−π, π]. At the middle angle's ±π/2 (gimbal lock) only the sum or
 * difference of the outer two is defined: the first takes it and the last is 0. Float64 arithmetic;
 * allocates nothing. Wrong-typed arguments throw AnimgraphError.
 */
export function quatToEuler(out: QuatArray, o: number, q: QuatArray, qo: number, order: EulerOrder): void {
  expectInteger("quatToEuler", "o", o);
  expectInteger("quatToEuler", "qo", qo);
  expectNumberArray("quatToEuler", "out", out, o + 3);
  expectNumberArray("quatToEuler", "q", q, qo + 4);
  expectOneOf("quatToEuler", "order", order, ORDERS);
  const x = q[qo]!, y = q[qo + 1]!, z = q[qo + 2]!, w = q[qo + 3]!;
  const n = x * x + y * y + z * z + w * w;
  const s = n > 0 ? 2 / n : 0;
  m[0] = 1 - s * (y * y + z * z); m[1] = s * (x * y - z * w); m[2] = s * (x * z + y * w);
  m[3] = s * (x * y + z * w); m[4] = 1 - s * (x * x + z * z); m[5] = s * (y * z - x * w);
  m[6] = s * (x * z - y * w); m[7] = s * (y * z + x * w); m[8] = 1 - s * (x * x + y * y);
  const i = order.charCodeAt(0) - 88, j = order.charCodeAt(1) - 88, k = order.charCodeAt(2) - 88;
  // Parity of (i, j, k): +1 for the cyclic orders XYZ, YZX, ZXY, −1 for the others.
  const p = (j - i + 3) % 3 === 1 ? 1 : -1;
  // R = R_i(a) R_j(b) R_k(c): R[i][k] = p sin b, R[j][k] = −p sin a cos b, R[k][k] = cos a cos b,
  // R[i][j] = −p cos b sin c, R[i][i] = cos b cos c.
  const sb = p * m[3 * i + k]!;
  const b = Math.asin(sb > 1 ? 1 : sb < -1 ? -1 : sb);
  let a: number, c: number;
  if (Math.abs(sb) < 1 - 1e-12) {
    a = Math.atan2(-p * m[3 * j + k]!, m[3 * k + k]!);
    c = Math.atan2(-p * m[3 * i + j]!, m[3 * i + i]!);
  } else {
    // cos b = 0: R[k][j] and R[j][j] hold the first angle alone once the last is taken as 0.
    a = Math.atan2(p * m[3 * k + j]!, m[3 * j + j]!);
    c = 0;
  }
  out[o] = a;
  out[o + 1] = b;
  out[o + 2] = c;
}
