// Float32Array-only copies of crossfade, applyLayer and applyAdditive (src/blend/) for the crowd's
// pose evaluator: same operations in the same order (bit-identical results), with the per-joint
// quaternion work done through the Q scratch so no double is boxed per joint (see kernels.ts).
import type { BoneMask } from "../blend/bone-mask.ts";
import type { QuatInterpolation } from "../math/quat.ts";
import type { Pose } from "../pose/pose.ts";
import { fastSlerp32, interpolate32, interpolateQ, Q, slerp32 } from "./kernels.ts";

function copyPose32(out: Pose, src: Pose): void {
  if (out === src) return;
  out.t.set(src.t);
  out.r.set(src.r);
  out.s.set(src.s);
}

/** `crossfade(out, from, to, w, rotation)`; `out` may be `from` or `to`. */
export function crossfade32(out: Pose, from: Pose, to: Pose, w: number, rotation: QuatInterpolation): void {
  if (!(w > 0)) return copyPose32(out, from);
  if (w >= 1) return copyPose32(out, to);
  const s = 1 - w;
  const J = out.jointCount;
  const ft = from.t, fs = from.s, tt = to.t, ts = to.s, ot = out.t, os = out.s;
  for (let i = 0; i < 3 * J; i++) {
    ot[i] = s * ft[i]! + w * tt[i]!;
    os[i] = s * fs[i]! + w * ts[i]!;
  }
  const or = out.r, fr = from.r, tr = to.r;
  if (rotation === "slerp") {
    for (let j = 0; j < J; j++) slerp32(or, 4 * j, fr, 4 * j, tr, 4 * j, w);
    return;
  }
  if (rotation === "fastSlerp") {
    for (let j = 0; j < J; j++) fastSlerp32(or, 4 * j, fr, 4 * j, tr, 4 * j, w);
    return;
  }
  for (let j = 0; j < J; j++) {
    Q[8] = w;
    interpolate32(rotation, or, 4 * j, fr, 4 * j, tr, 4 * j);
  }
}

/** `applyAdditive(out, base, additive, weight, mask, rotation)`; `out` may be `base` or `additive`. */
export function applyAdditive32(out: Pose, base: Pose, additive: Pose, weight: number, mask: BoneMask | null, rotation: QuatInterpolation): void {
  const J = out.jointCount;
  const ot = out.t, os = out.s, or = out.r, bt = base.t, bs = base.s, br = base.r, at = additive.t, as = additive.s, ar = additive.r;
  for (let j = 0; j < J; j++) {
    const w = mask ? weight * mask[j]! : weight;
    const j3 = 3 * j, j4 = 4 * j;
    if (w === 0 || Number.isNaN(w)) {
      if (out !== base) {
        ot[j3] = bt[j3]!; ot[j3 + 1] = bt[j3 + 1]!; ot[j3 + 2] = bt[j3 + 2]!;
        os[j3] = bs[j3]!; os[j3 + 1] = bs[j3 + 1]!; os[j3 + 2] = bs[j3 + 2]!;
        or[j4] = br[j4]!; or[j4 + 1] = br[j4 + 1]!; or[j4 + 2] = br[j4 + 2]!; or[j4 + 3] = br[j4 + 3]!;
      }
      continue;
    }
    for (let c = 0; c < 3; c++) {
      const btc = bt[j3 + c]!, atc = at[j3 + c]!;
      const bsc = bs[j3 + c]!, asc = as[j3 + c]!;
      ot[j3 + c] = btc + w * atc;
      os[j3 + c] = bsc * (1 + w * (asc - 1));
    }
    let bx: number, by: number, bz: number, bw: number;
    if (w === 1) {
      bx = ar[j4]!; by = ar[j4 + 1]!; bz = ar[j4 + 2]!; bw = ar[j4 + 3]!;
    } else {
      // slerp(identity, q_add, w) in float64, as applyAdditive's Float64Array scratch holds it.
      Q[0] = 0; Q[1] = 0; Q[2] = 0; Q[3] = 1;
      Q[4] = ar[j4]!; Q[5] = ar[j4 + 1]!; Q[6] = ar[j4 + 2]!; Q[7] = ar[j4 + 3]!;
      Q[8] = w;
      interpolateQ(rotation);
      bx = Q[0]!; by = Q[1]!; bz = Q[2]!; bw = Q[3]!;
    }
    // quatMultiply(out.r, j4, base.r, j4, b): every input read before the writes (out may be base).
    const ax = br[j4]!, ay = br[j4 + 1]!, az = br[j4 + 2]!, aw = br[j4 + 3]!;
    or[j4] = aw * bx + ax * bw + ay * bz - az * by;
    or[j4 + 1] = aw * by - ax * bz + ay * bw + az * bx;
    or[j4 + 2] = aw * bz + ax * by - ay * bx + az * bw;
    or[j4 + 3] = aw * bw - ax * bx - ay * by - az * bz;
  }
}

/** `applyLayer(out, base, layerPose, weight, mask, mode, rotation)`; `out` may be `base` or `layerPose`. */
export function applyLayer32(
  out: Pose, base: Pose, layerPose: Pose, weight: number, mask: BoneMask | null, additive: boolean, rotation: QuatInterpolation,
): void {
  if (additive) return applyAdditive32(out, base, layerPose, weight, mask, rotation);
  const J = out.jointCount;
  for (let j = 0; j < J; j++) {
    const w = mask ? weight * mask[j]! : weight;
    const src = w >= 1 ? layerPose : !(w > 0) ? base : null;
    const j3 = 3 * j, j4 = 4 * j;
    if (src) {
      if (src !== out) {
        for (let c = 0; c < 3; c++) {
          out.t[j3 + c] = src.t[j3 + c]!;
          out.s[j3 + c] = src.s[j3 + c]!;
        }
        for (let c = 0; c < 4; c++) out.r[j4 + c] = src.r[j4 + c]!;
      }
      continue;
    }
    const s = 1 - w;
    for (let c = 0; c < 3; c++) {
      out.t[j3 + c] = s * base.t[j3 + c]! + w * layerPose.t[j3 + c]!;
      out.s[j3 + c] = s * base.s[j3 + c]! + w * layerPose.s[j3 + c]!;
    }
    if (rotation === "slerp") slerp32(out.r, j4, base.r, j4, layerPose.r, j4, w);
    else if (rotation === "fastSlerp") fastSlerp32(out.r, j4, base.r, j4, layerPose.r, j4, w);
    else {
      Q[8] = w;
      interpolate32(rotation, out.r, j4, base.r, j4, layerPose.r, j4);
    }
  }
}
