import { expectNumber, expectOneOf, expectPose } from "../errors/check-argument.ts";
import { quatInterpolateAt, QUAT_INTERPOLATIONS, type QuatInterpolation } from "../math/quat.ts";
import { copyPose, type Pose } from "../pose/pose.ts";

/**
 * The seed's two-way crossfade P = (1 − w)·P_from + w·P_to (its P = w₁P₁ + (1 − w₁)P₂ with w₁ = 1 − w):
 * translation and scale lerp, rotations by shortest-arc `rotation` (default nlerp, like blendPoses).
 * w ≤ 0 (or NaN) copies `from`, w ≥ 1 copies `to`, bit for bit. Typically w = evaluateCurve(curve, s).
 * Aliasing: `out` may be `from` or `to`. No allocation.
 */
export function crossfade(out: Pose, from: Pose, to: Pose, w: number, rotation: QuatInterpolation = "nlerp"): Pose {
  expectPose("crossfade", "from", from);
  expectPose("crossfade", "out", out, from.jointCount);
  expectPose("crossfade", "to", to, from.jointCount);
  expectNumber("crossfade", "w", w);
  expectOneOf("crossfade", "rotation", rotation, QUAT_INTERPOLATIONS);
  arg[0] = w;
  return crossfadeAt(out, from, to, arg, 0, rotation);
}
const arg = new Float64Array(1);

/**
 * `crossfade` with w = ws[wi]: the per-frame form (a double passed to a call V8 does not inline is a
 * heap allocation; src/math/quat.ts explains). ws[wi] must not change during the call.
 */
export function crossfadeAt(out: Pose, from: Pose, to: Pose, ws: Float64Array, wi: number, rotation: QuatInterpolation = "nlerp"): Pose {
  const w = ws[wi]!;
  if (!(w > 0)) return copyPose(out, from);
  if (w >= 1) return copyPose(out, to);
  const s = 1 - w;
  const J = out.jointCount;
  const ft = from.t, fs = from.s, tt = to.t, ts = to.s, ot = out.t, os = out.s;
  for (let i = 0; i < 3 * J; i++) {
    ot[i] = s * ft[i]! + w * tt[i]!;
    os[i] = s * fs[i]! + w * ts[i]!;
  }
  for (let j = 0; j < J; j++) quatInterpolateAt(rotation, out.r, 4 * j, from.r, 4 * j, to.r, 4 * j, ws, wi);
  return out;
}
