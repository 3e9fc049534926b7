import { expectNumber, expectNumberArray, expectOneOf, expectOptionalObject, expectPose } from "../errors/check-argument.ts";
import { quatInterpolateAt, quatNormalize, QUAT_INTERPOLATIONS, type QuatInterpolation } from "../math/quat.ts";
import { copyPose, type Pose } from "../pose/pose.ts";
import { expectPoses } from "./check-blend-arguments.ts";
import { contributes, DEFAULT_WEIGHT_THRESHOLD } from "./normalize-weights.ts";

/** Options of `blendPoses`. Pass a constant object: nothing here is meant to change per frame. */
export interface BlendOptions {
  /**
   * Rotation rule. `nlerp` (default): sign-fix every contributing rotation against the first, sum
   * with the normalised weights, normalise. `slerp` / `fastSlerp`: pairwise accumulation
   * acc ← slerp(acc, q_i, ŵ_i / (ŵ_1 + … + ŵ_i)) in input order (exact for two poses; for three or more
   * it depends on the order, as every incremental N-way slerp does).
   */
  readonly rotation?: QuatInterpolation;
  /** Total weight under which the result is the rest pose. Default 1e-6. */
  readonly threshold?: number;
}

const DEFAULT_OPTIONS: BlendOptions = Object.freeze({});
const scratch = new Float64Array(4);
/** Doubles handed to the quaternion functions in memory rather than as arguments (src/math/quat.ts explains). */
const sum = new Float64Array(4);
const fraction = new Float64Array(1);

/**
 * N-way weighted pose blend (docs/blending.md, "Pose blending"). Weights are normalised over the
 * contributing ones (finite and > 0): translation and scale are Σ ŵ_i·x_i; rotations follow
 * `options.rotation`. Special cases, all bit-exact copies: total weight < threshold → `restPose`;
 * exactly one contributing pose → that pose (so weight 0 / 1 return an input exactly).
 * Aliasing: `out` may be any of `poses` or `restPose` (each joint reads all its inputs before writing).
 * No allocation.
 */
export function blendPoses(
  out: Pose,
  poses: readonly Pose[],
  weights: ArrayLike<number>,
  restPose: Pose,
  options: BlendOptions = DEFAULT_OPTIONS,
): Pose {
  const fn = "blendPoses";
  expectPose(fn, "restPose", restPose);
  expectPose(fn, "out", out, restPose.jointCount);
  expectPoses(fn, "poses", poses, restPose.jointCount);
  expectNumberArray(fn, "weights", weights);
  expectOptionalObject(fn, "options", options);
  if (options.rotation !== undefined) expectOneOf(fn, "options.rotation", options.rotation, QUAT_INTERPOLATIONS);
  if (options.threshold !== undefined) expectNumber(fn, "options.threshold", options.threshold);
  const n = Math.min(poses.length, weights.length);
  let total = 0, first = -1, count = 0;
  for (let i = 0; i < n; i++) {
    const w = weights[i]!;
    if (!contributes(w)) continue;
    total += w;
    if (first < 0) first = i;
    count++;
  }
  if (total < (options.threshold ?? DEFAULT_WEIGHT_THRESHOLD)) return copyPose(out, restPose);
  if (count === 1) return copyPose(out, poses[first]!);
  const inv = 1 / total;
  const mode = options.rotation ?? "nlerp";
  const J = out.jointCount;
  for (let j = 0; j < J; j++) {
    const j3 = 3 * j, j4 = 4 * j;
    let tx = 0, ty = 0, tz = 0, sx = 0, sy = 0, sz = 0;
    for (let i = first; i < n; i++) {
      const w = weights[i]!;
      if (!contributes(w)) continue;
      const k = w * inv;
      const p = poses[i]!;
      tx += k * p.t[j3]!; ty += k * p.t[j3 + 1]!; tz += k * p.t[j3 + 2]!;
      sx += k * p.s[j3]!; sy += k * p.s[j3 + 1]!; sz += k * p.s[j3 + 2]!;
    }
    const r0 = poses[first]!.r;
    if (mode === "nlerp") {
      const fx = r0[j4]!, fy = r0[j4 + 1]!, fz = r0[j4 + 2]!, fw = r0[j4 + 3]!;
      let qx = 0, qy = 0, qz = 0, qw = 0;
      for (let i = first; i < n; i++) {
        const w = weights[i]!;
        if (!contributes(w)) continue;
        const r = poses[i]!.r;
        const x = r[j4]!, y = r[j4 + 1]!, z = r[j4 + 2]!, ww = r[j4 + 3]!;
        // Shortest path: flip q_i into the first pose's hemisphere.
        const k = fx * x + fy * y + fz * z + fw * ww < 0 ? -w * inv : w * inv;
        qx += k * x; qy += k * y; qz += k * z; qw += k * ww;
      }
      sum[0] = qx; sum[1] = qy; sum[2] = qz; sum[3] = qw;
      quatNormalize(out.r, j4, sum, 0);
    } else {
      scratch[0] = r0[j4]!; scratch[1] = r0[j4 + 1]!; scratch[2] = r0[j4 + 2]!; scratch[3] = r0[j4 + 3]!;
      let acc = weights[first]! * inv;
      for (let i = first + 1; i < n; i++) {
        const w = weights[i]!;
        if (!contributes(w)) continue;
        const k = w * inv;
        acc += k;
        fraction[0] = k / acc;
        quatInterpolateAt(mode, scratch, 0, scratch, 0, poses[i]!.r, j4, fraction, 0);
      }
      out.r[j4] = scratch[0]!; out.r[j4 + 1] = scratch[1]!; out.r[j4 + 2] = scratch[2]!; out.r[j4 + 3] = scratch[3]!;
    }
    out.t[j3] = tx; out.t[j3 + 1] = ty; out.t[j3 + 2] = tz;
    out.s[j3] = sx; out.s[j3 + 1] = sy; out.s[j3 + 2] = sz;
  }
  return out;
}
