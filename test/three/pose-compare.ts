// Maximum differences between two poses, per component, rotations compared up to sign (q and −q are
// the same rotation).
import type { Pose } from "../../src/pose/pose.ts";

export interface PoseDifference {
  translation: number;
  rotation: number;
  scale: number;
}

export function zeroDifference(): PoseDifference {
  return { translation: 0, rotation: 0, scale: 0 };
}

/** Folds the component-wise max |a − b| of two poses into `acc` (rotation: min over the sign of b). */
export function accumulateDifference(acc: PoseDifference, a: Pose, b: Pose): PoseDifference {
  for (let i = 0; i < a.t.length; i++) {
    acc.translation = Math.max(acc.translation, Math.abs(a.t[i]! - b.t[i]!));
    acc.scale = Math.max(acc.scale, Math.abs(a.s[i]! - b.s[i]!));
  }
  for (let j = 0; j < a.jointCount; j++) {
    let same = 0;
    let flipped = 0;
    for (let c = 0; c < 4; c++) {
      same = Math.max(same, Math.abs(a.r[4 * j + c]! - b.r[4 * j + c]!));
      flipped = Math.max(flipped, Math.abs(a.r[4 * j + c]! + b.r[4 * j + c]!));
    }
    acc.rotation = Math.max(acc.rotation, Math.min(same, flipped));
  }
  return acc;
}

export function maxOf(d: PoseDifference): number {
  return Math.max(d.translation, d.rotation, d.scale);
}

export function describe(d: PoseDifference): string {
  return `translation ${d.translation.toExponential(2)}, rotation ${d.rotation.toExponential(2)}, scale ${d.scale.toExponential(2)}`;
}
