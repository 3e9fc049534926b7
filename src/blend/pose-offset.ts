// Pose differences, velocities and offsets for inertialization and dead blending (docs/transitions.md).
// A pose offset or velocity holds 9 numbers per joint: translation (3), rotation as a rotation vector
// (axis × angle, 3, in the joint's parent space) and scale (3). Rotations compose on the left:
// a rotation offset x turns a joint's local rotation q into exp(x) · q.
import type { Pose } from "../pose/pose.ts";

/** π², the largest squared angle exp's series takes. */
const PI2 = Math.PI * Math.PI;

/** Numbers per joint in a pose offset or velocity. */
export const OFFSET_STRIDE = 9;

/**
 * out ← a ⊖ b per joint: t_a − t_b, the rotation vector of q_a · q_b⁻¹ (shortest way round), s_a − s_b.
 * Divided by `ws[wi]` when that is not 1 (a velocity: (a ⊖ b) / dt). No allocation.
 */
export function poseDifferenceAt(out: Float64Array, a: Pose, b: Pose, ws: Float64Array, wi: number): void {
  const inv = 1 / ws[wi]!;
  const at = a.t, bt = b.t, as = a.s, bs = b.s, ar = a.r, br = b.r;
  for (let j = 0; j < a.jointCount; j++) {
    const o = OFFSET_STRIDE * j, k3 = 3 * j, k4 = 4 * j;
    out[o] = (at[k3]! - bt[k3]!) * inv;
    out[o + 1] = (at[k3 + 1]! - bt[k3 + 1]!) * inv;
    out[o + 2] = (at[k3 + 2]! - bt[k3 + 2]!) * inv;
    out[o + 6] = (as[k3]! - bs[k3]!) * inv;
    out[o + 7] = (as[k3 + 1]! - bs[k3 + 1]!) * inv;
    out[o + 8] = (as[k3 + 2]! - bs[k3 + 2]!) * inv;
    const ax = ar[k4]!, ay = ar[k4 + 1]!, az = ar[k4 + 2]!, aw = ar[k4 + 3]!;
    const bx = br[k4]!, by = br[k4 + 1]!, bz = br[k4 + 2]!, bw = br[k4 + 3]!;
    // d = a · b⁻¹ (b unit: its inverse is its conjugate).
    let dx = -aw * bx + ax * bw - ay * bz + az * by;
    let dy = -aw * by + ay * bw - az * bx + ax * bz;
    let dz = -aw * bz + az * bw - ax * by + ay * bx;
    let dw = aw * bw + ax * bx + ay * by + az * bz;
    if (dw < 0) {
      dx = -dx; dy = -dy; dz = -dz; dw = -dw;
    }
    const sin = Math.sqrt(dx * dx + dy * dy + dz * dz);
    // angle / sin(angle / 2), → 2 as the angle → 0.
    const k = (sin > 1e-12 ? (2 * Math.atan2(sin, dw)) / sin : 2) * inv;
    out[o + 3] = dx * k;
    out[o + 4] = dy * k;
    out[o + 5] = dz * k;
  }
}

/**
 * v ← ((e ⊖ t) − x) / ws[wi] per joint: the inertialization offset's velocity from its value x at the
 * origin and its value one step of ws[wi] seconds later, e ⊖ t (e the source extrapolated to then, t the
 * target then). A rotation offset turns the target on the left, exp(x)·q_t, so the output's angular
 * velocity is J(x)·ẋ + R(x)·ω_t, not ẋ + ω_t: the velocities' difference ω_source − ω_target is off by
 * about |x|·|ω_t| for a large offset (Fox Survey → Walk, robot Dance → Idle: 5–7 rad/s in the second
 * frame). The offsets' own difference lands the second frame on the extrapolated source. e ⊖ t is taken
 * on the side of x (r or r − 2π·r̂, whichever is nearer), so an offset near a half turn does not flip.
 * No allocation.
 */
export function offsetVelocityAt(v: Float64Array, e: Pose, t: Pose, x: Float64Array, ws: Float64Array, wi: number): void {
  const step = ws[wi]!;
  ws[wi] = 1;
  poseDifferenceAt(v, e, t, ws, wi);
  ws[wi] = step;
  for (let o = 0; o < v.length; o += OFFSET_STRIDE) {
    const angle = Math.sqrt(v[o + 3]! * v[o + 3]! + v[o + 4]! * v[o + 4]! + v[o + 5]! * v[o + 5]!);
    let k = 1;
    if (angle > 0.5 * Math.PI) {
      const w = 1 - (2 * Math.PI) / angle;
      let near = 0, far = 0;
      for (let c = 3; c < 6; c++) {
        near += (v[o + c]! - x[o + c]!) * (v[o + c]! - x[o + c]!);
        far += (v[o + c]! * w - x[o + c]!) * (v[o + c]! * w - x[o + c]!);
      }
      if (far < near) k = w;
    }
    for (let c = 0; c < OFFSET_STRIDE; c++) v[o + c] = ((c > 2 && c < 6 ? k : 1) * v[o + c]! - x[o + c]!) / step;
  }
}

/**
 * Packs the offset x and its velocity y (9 numbers per joint each; y may be null: 0) of the joints they
 * move, for addPackedOffsetAt: most of a character's joints keep still in a transition (27 of the robot's
 * 43 from walk to run) and most moving ones only turn, so the per-frame offset reads 48 contiguous bytes
 * per turning joint instead of two 72-byte strides per joint (at 1,000 characters the strided vectors
 * missed the cache on every joint). First the joints whose rotation x or y is not all 0 (NaN counts):
 * their index in `joints`, (x, y) per rotation component in `packed` (6 numbers); then the joints whose
 * translation or scale is not all 0: 12 numbers each. counts[0] ← turning joints, counts[1] ← shifting
 * ones. `packed` holds 18 numbers per joint, `joints` 2.
 */
export function packOffset(packed: Float64Array, joints: Int32Array, counts: Int32Array, x: Float64Array, y: Float64Array | null): void {
  let n = 0, p = 0;
  for (let turn = 1; turn >= 0; turn--) {
    const first = n;
    // Turning: components 3..5; shifting: 0..2 and 6..8.
    const from = turn ? 3 : 0, to = turn ? 6 : 9;
    for (let o = 0; o < x.length; o += OFFSET_STRIDE) {
      let moves = false;
      for (let c = o + from; c < o + to; c += c === o + 2 ? 4 : 1) moves ||= x[c] !== 0 || (y !== null && y[c] !== 0);
      if (!moves) continue;
      for (let c = o + from; c < o + to; c += c === o + 2 ? 4 : 1) {
        packed[p++] = x[c]!;
        packed[p++] = y === null ? 0 : y[c]!;
      }
      joints[n++] = o / OFFSET_STRIDE;
    }
    counts[1 - turn] = n - first;
  }
}

/**
 * pose ⊕ (c0·x + c1·y) in place over the joints packOffset packed (the others' offset is 0, which leaves
 * them as they are), with c0 = cs[ci], c1 = cs[ci + 1]: translation and scale add, the rotation vector
 * r = c0·x_r + c1·y_r turns the rotation, q ← exp(r) · q. No allocation.
 */
export function addPackedOffsetAt(pose: Pose, packed: Float64Array, joints: Int32Array, counts: Int32Array, cs: Float64Array, ci: number): void {
  const c0 = cs[ci]!, c1 = cs[ci + 1]!;
  const turning = counts[0]!, end = turning + counts[1]!;
  let p = 0;
  for (let m = 0; m < end; m++) {
    const j = joints[m]!;
    if (m < turning) {
      for (let c = 0; c < 3; c++, p += 2) rot[c] = c0 * packed[p]! + c1 * packed[p + 1]!;
      turnBy(pose.r, 4 * j);
    } else {
      for (let c = 0; c < 6; c++, p += 2) {
        const v = c < 3 ? pose.t : pose.s, k = 3 * j + (c % 3);
        v[k] = v[k]! + (c0 * packed[p]! + c1 * packed[p + 1]!);
      }
    }
  }
}

/** The rotation vector turnBy applies (a double argument would be boxed whenever V8 does not inline). */
const rot = new Float64Array(3);

/**
 * q ← exp(r) · q for the rotation at q[k4..k4 + 3], r = rot[0..2] a rotation vector, renormalised
 * (float32 storage and the series leave it a few ulps off unit).
 */
function turnBy(q: Float32Array, k4: number): void {
  const rx = rot[0]!, ry = rot[1]!, rz = rot[2]!;
  const a2 = rx * rx + ry * ry + rz * rz;
  if (a2 < 1e-24) return;
  // exp(r) = (r·sin(θ/2)/θ, cos(θ/2)), θ = |r|. Up to θ = π by the Taylor series in h² = θ²/4 (7 terms:
  // error below 1e-8, float32 storage rounds more), which costs a third of sin, cos and a square root.
  let k: number, ew: number;
  if (a2 <= PI2) {
    const h2 = 0.25 * a2;
    ew = 1 + h2 * (-1 / 2 + h2 * (1 / 24 + h2 * (-1 / 720 + h2 * (1 / 40320 + h2 * (-1 / 3628800 + h2 * (1 / 479001600 - h2 / 87178291200))))));
    k = 0.5 * (1 + h2 * (-1 / 6 + h2 * (1 / 120 + h2 * (-1 / 5040 + h2 * (1 / 362880 + h2 * (-1 / 39916800 + h2 * (1 / 6227020800 - h2 / 1307674368000)))))));
  } else {
    const angle = Math.sqrt(a2);
    k = Math.sin(0.5 * angle) / angle;
    ew = Math.cos(0.5 * angle);
  }
  const ex = rx * k, ey = ry * k, ez = rz * k;
  const qx = q[k4]!, qy = q[k4 + 1]!, qz = q[k4 + 2]!, qw = q[k4 + 3]!;
  const nx = ew * qx + ex * qw + ey * qz - ez * qy;
  const ny = ew * qy - ex * qz + ey * qw + ez * qx;
  const nz = ew * qz + ex * qy - ey * qx + ez * qw;
  const nw = ew * qw - ex * qx - ey * qy - ez * qz;
  const n = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
  q[k4] = nx * n; q[k4 + 1] = ny * n; q[k4 + 2] = nz * n; q[k4 + 3] = nw * n;
}

/**
 * out ← pose ⊕ (c0·x + c1·y) per joint (addPackedOffsetAt over every joint), with c0 = cs[ci] and
 * c1 = cs[ci + 1]; `y` may be null (c1 unused). `out` may be `pose`. The runtime applies offsets packed
 * (packOffset); this is the plain definition they are tested against, as is the kernel's
 * (assembly/inertial.ts). No allocation.
 */
export function addPoseOffsetAt(out: Pose, pose: Pose, x: Float64Array, y: Float64Array | null, cs: Float64Array, ci: number): void {
  const c0 = cs[ci]!, c1 = y ? cs[ci + 1]! : 0;
  const pt = pose.t, ps = pose.s, ot = out.t, os = out.s;
  if (out !== pose) out.r.set(pose.r);
  for (let j = 0; j < pose.jointCount; j++) {
    const o = OFFSET_STRIDE * j, k3 = 3 * j;
    for (let c = 0; c < 3; c++) {
      ot[k3 + c] = pt[k3 + c]! + (y ? c0 * x[o + c]! + c1 * y[o + c]! : c0 * x[o + c]!);
      os[k3 + c] = ps[k3 + c]! + (y ? c0 * x[o + 6 + c]! + c1 * y[o + 6 + c]! : c0 * x[o + 6 + c]!);
    }
    for (let c = 0; c < 3; c++) rot[c] = y ? c0 * x[o + 3 + c]! + c1 * y[o + 3 + c]! : c0 * x[o + 3 + c]!;
    turnBy(out.r, 4 * j);
  }
}

/**
 * The inertialization decay over normalised time u ∈ [0, 1] (docs/transitions.md): the offset is
 * x(u) = x₀·h₀(u) + v₀·D·h₁(u), the quintic that starts at x₀ with velocity v₀ and zero acceleration and
 * ends at 0 with zero velocity and acceleration at u = 1 (Bollo's inertialization polynomial with the
 * initial acceleration 0, so the output's acceleration does not jump either):
 *   h₀(u) = 1 − 10u³ + 15u⁴ − 6u⁵,   h₁(u) = u − 6u³ + 8u⁴ − 3u⁵.
 * Writes [h₀, D·h₁] to cs[ci], cs[ci + 1] with u = cs[ci] and D = cs[ci + 1] on entry (u clamped).
 */
export function inertialDecayAt(cs: Float64Array, ci: number): void {
  let u = cs[ci]!;
  const d = cs[ci + 1]!;
  if (!(u > 0)) u = 0;
  else if (u > 1) u = 1;
  const u3 = u * u * u;
  cs[ci] = 1 - u3 * (10 - u * (15 - 6 * u));
  cs[ci + 1] = d * (u - u3 * (6 - u * (8 - 3 * u)));
}
