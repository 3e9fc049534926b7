import { expectNumber, expectOneOf, expectPose } from "../errors/check-argument.ts";
import { expectOptionalMask } from "./check-blend-arguments.ts";
import { quatInterpolateAt, quatMultiply, QUAT_INTERPOLATIONS, type QuatInterpolation } from "../math/quat.ts";
import type { Pose } from "../pose/pose.ts";
import type { BoneMask } from "./bone-mask.ts";

const IDENTITY = new Float64Array([0, 0, 0, 1]);
const scratch = new Float64Array(4);
const arg = new Float64Array(1);
/** Each joint's weight, handed to quatInterpolateAt in memory (src/math/quat.ts explains why). */
const jointWeight = new Float64Array(1);

/**
 * Adds a delta pose (sampled from a `makeAdditiveClip` clip) onto `base` with strength w_j = weight ·
 * mask[j] (mask omitted: 1): P = P_base + w·P_add, per component
 *   t = t_base + w·t_add,   r = q_base · slerp(identity, q_add, w),   s = s_base · (1 + w·(s_add − 1)).
 * w = 1 gives exactly q_base·q_add; w = 0 leaves the joint bit-for-bit as in `base`; w > 1 extrapolates.
 * `rotation` picks slerp (default), fastSlerp (deterministic) or nlerp for the partial rotation.
 * Aliasing: `out` may be `base` or `additive`. No allocation.
 */
export function applyAdditive(
  out: Pose,
  base: Pose,
  additive: Pose,
  weight: number,
  mask?: BoneMask,
  rotation: QuatInterpolation = "slerp",
): Pose {
  const fn = "applyAdditive";
  expectPose(fn, "base", base);
  expectPose(fn, "out", out, base.jointCount);
  expectPose(fn, "additive", additive, base.jointCount);
  expectNumber(fn, "weight", weight);
  expectOptionalMask(fn, "mask", mask, base.jointCount);
  expectOneOf(fn, "rotation", rotation, QUAT_INTERPOLATIONS);
  arg[0] = weight;
  return applyAdditiveAt(out, base, additive, arg, 0, mask, rotation);
}

/** `applyAdditive` with weight = ws[wi]: the per-frame form (no double crosses a call; see src/math/quat.ts). */
export function applyAdditiveAt(
  out: Pose,
  base: Pose,
  additive: Pose,
  ws: Float64Array,
  wi: number,
  mask?: BoneMask,
  rotation: QuatInterpolation = "slerp",
): Pose {
  const weight = ws[wi]!;
  const J = out.jointCount;
  for (let j = 0; j < J; j++) {
    const w = mask ? weight * mask[j]! : weight;
    const j3 = 3 * j, j4 = 4 * j;
    if (w === 0 || Number.isNaN(w)) {
      if (out !== base) {
        out.t[j3] = base.t[j3]!; out.t[j3 + 1] = base.t[j3 + 1]!; out.t[j3 + 2] = base.t[j3 + 2]!;
        out.s[j3] = base.s[j3]!; out.s[j3 + 1] = base.s[j3 + 1]!; out.s[j3 + 2] = base.s[j3 + 2]!;
        out.r[j4] = base.r[j4]!; out.r[j4 + 1] = base.r[j4 + 1]!; out.r[j4 + 2] = base.r[j4 + 2]!; out.r[j4 + 3] = base.r[j4 + 3]!;
      }
      continue;
    }
    for (let c = 0; c < 3; c++) {
      const bt = base.t[j3 + c]!, at = additive.t[j3 + c]!;
      const bs = base.s[j3 + c]!, as = additive.s[j3 + c]!;
      out.t[j3 + c] = bt + w * at;
      out.s[j3 + c] = bs * (1 + w * (as - 1));
    }
    if (w === 1) {
      quatMultiply(out.r, j4, base.r, j4, additive.r, j4);
    } else {
      jointWeight[0] = w;
      quatInterpolateAt(rotation, scratch, 0, IDENTITY, 0, additive.r, j4, jointWeight, 0);
      quatMultiply(out.r, j4, base.r, j4, scratch, 0);
    }
  }
  return out;
}
