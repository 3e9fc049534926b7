/**
 * Hierarchical error compensation (docs/compression.md, "Compensation down the hierarchy"). A child's
 * model-space transform is its parent's *decoded* model transform times its own local one, so the
 * encoder can aim each animated child track at the local value that puts the child where the reference
 * has it in model space, given the parent as it decodes: L = P_decoded⁻¹ · M_reference. The parent's
 * rotation error then no longer turns the child's virtual vertices (1 m out, as ACL measures, a small
 * angle there is a large distance); only the child's position still carries it, by the bone's length.
 * The decoder is unchanged: only the values the encoder quantises differ.
 *
 * The inverse is the transpose only while model transforms are rotations, so compensation is used only
 * when every scale of the clip is 1 (`hasUnitScale`); otherwise the reference local values are kept.
 */
import type { FrameSequence } from "./virtual-vertex-error.ts";

/**
 * Whether every scale of `seq` is 1 within 1e-3: model transforms are then rotations up to float noise
 * (glTF exporters leave scales like 1.000016 on RobotExpressive's legs; the measured error guards the rest).
 */
export function hasUnitScale(seq: FrameSequence): boolean {
  const s = seq.s;
  for (let i = 0; i < s.length; i++) if (Math.abs(s[i]! - 1) > 1e-3) return false;
  return true;
}

/**
 * Rotation targets of joint `joint` (parent `parent` ≥ 0) at frames f0 ≤ f < f1 into out[4f …]: the
 * quaternion of P_decodedᵀ · R_reference (model transforms 12 floats per (frame, joint), frame-major,
 * `J` joints), in the hemisphere of the reference local rotation `refLocal[4f …]`. Allocates nothing.
 */
export function compensateRotation(
  out: Float64Array, refLocal: Float64Array, refModel: Float64Array, candModel: Float64Array,
  J: number, joint: number, parent: number, f0: number, f1: number,
): void {
  for (let f = f0; f < f1; f++) {
    const p = (f * J + parent) * 12;
    const r = (f * J + joint) * 12;
    // T = Pᵀ R: element (row i, column k) is column i of P dotted with column k of R.
    const t00 = dot3(candModel, p, refModel, r), t01 = dot3(candModel, p, refModel, r + 3), t02 = dot3(candModel, p, refModel, r + 6);
    const t10 = dot3(candModel, p + 3, refModel, r), t11 = dot3(candModel, p + 3, refModel, r + 3), t12 = dot3(candModel, p + 3, refModel, r + 6);
    const t20 = dot3(candModel, p + 6, refModel, r), t21 = dot3(candModel, p + 6, refModel, r + 3), t22 = dot3(candModel, p + 6, refModel, r + 6);
    let x: number, y: number, z: number, w: number;
    const trace = t00 + t11 + t22;
    if (trace > 0) {
      const s = 0.5 / Math.sqrt(trace + 1);
      w = 0.25 / s; x = (t21 - t12) * s; y = (t02 - t20) * s; z = (t10 - t01) * s;
    } else if (t00 > t11 && t00 > t22) {
      const s = 2 * Math.sqrt(1 + t00 - t11 - t22);
      w = (t21 - t12) / s; x = 0.25 * s; y = (t01 + t10) / s; z = (t02 + t20) / s;
    } else if (t11 > t22) {
      const s = 2 * Math.sqrt(1 + t11 - t00 - t22);
      w = (t02 - t20) / s; x = (t01 + t10) / s; y = 0.25 * s; z = (t12 + t21) / s;
    } else {
      const s = 2 * Math.sqrt(1 + t22 - t00 - t11);
      w = (t10 - t01) / s; x = (t02 + t20) / s; y = (t12 + t21) / s; z = 0.25 * s;
    }
    const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
    const o = 4 * f;
    const sign = x * refLocal[o]! + y * refLocal[o + 1]! + z * refLocal[o + 2]! + w * refLocal[o + 3]! < 0 ? -inv : inv;
    out[o] = x * sign; out[o + 1] = y * sign; out[o + 2] = z * sign; out[o + 3] = w * sign;
  }
}

/**
 * Translation targets of joint `joint` (parent ≥ 0) at frames f0 ≤ f < f1 into out[3f …]:
 * P_decodedᵀ · (position_reference − position_parent,decoded). Allocates nothing.
 */
export function compensateTranslation(
  out: Float64Array, refModel: Float64Array, candModel: Float64Array, J: number, joint: number, parent: number, f0: number, f1: number,
): void {
  for (let f = f0; f < f1; f++) {
    const p = (f * J + parent) * 12;
    const r = (f * J + joint) * 12;
    const dx = refModel[r + 9]! - candModel[p + 9]!, dy = refModel[r + 10]! - candModel[p + 10]!, dz = refModel[r + 11]! - candModel[p + 11]!;
    const o = 3 * f;
    out[o] = candModel[p]! * dx + candModel[p + 1]! * dy + candModel[p + 2]! * dz;
    out[o + 1] = candModel[p + 3]! * dx + candModel[p + 4]! * dy + candModel[p + 5]! * dz;
    out[o + 2] = candModel[p + 6]! * dx + candModel[p + 7]! * dy + candModel[p + 8]! * dz;
  }
}

function dot3(a: Float64Array, ao: number, b: Float64Array, bo: number): number {
  return a[ao]! * b[bo]! + a[ao + 1]! * b[bo + 1]! + a[ao + 2]! * b[bo + 2]!;
}

/**
 * Lever arm per joint when the rotations flagged in `compensated` (per joint) absorb their ancestors'
 * rotation errors: an angle error θ at joint a moves a's own virtual vertices by θ·d, a descendant k
 * whose orientation nothing below a compensates by θ·(|p_k − p_a| + d), and everything below the first
 * compensating joint c by θ·|p_c − p_a| (c's position moves; its orientation, and so what hangs below
 * it, is restored). The largest over the clip; `model` is the reference (12 floats per (frame, joint)).
 */
export function compensatedLevers(model: Float64Array, parents: Int16Array, J: number, F: number, vv: number, compensated: Uint8Array): Float64Array {
  const lever = new Float64Array(J).fill(vv);
  for (let f = 0; f < F; f++) {
    for (let k = 0; k < J; k++) {
      const ko = (f * J + k) * 12;
      let c = compensated[k] ? k : -1;
      for (let a = parents[k]!; a >= 0; a = parents[a]!) {
        const ao = (f * J + a) * 12;
        const at = c >= 0 ? (f * J + c) * 12 : ko;
        const dx = model[at + 9]! - model[ao + 9]!, dy = model[at + 10]! - model[ao + 10]!, dz = model[at + 11]! - model[ao + 11]!;
        const shell = c >= 0 ? 0 : vv;
        // Math.hypot (allocating, and slower) only where it can raise the maximum: the plain root is
        // within 1e-15 of it, so the levers are the same bits as with hypot everywhere.
        const s2 = dx * dx + dy * dy + dz * dz;
        if (!(s2 > 1e-300) || Math.sqrt(s2) + shell >= lever[a]! * (1 - 1e-9)) {
          const d = Math.hypot(dx, dy, dz) + shell;
          if (d > lever[a]!) lever[a] = d;
        }
        if (compensated[a]) c = a;
      }
    }
  }
  return lever;
}
