// The kernel's pose layout (assembly/crowd-kernel.ts): structure-of-arrays by groups of four joints,
// rotations [G][x,y,z,w][4], translations [G][x,y,z][4], scales [G][x,y,z][4], G = ceil(J/4).
import type { Pose } from "../../pose/pose.ts";

/** Bytes of one pose (a slot, or one packed key) for `jointCount` joints. */
export function slotBytes(jointCount: number): number {
  return 160 * Math.ceil(jointCount / 4);
}

/**
 * Scatters an AoS pose into the slot layout at float index `base` of `f32`. Padding lanes get the
 * identity (zero translation, unit rotation and scale) so the kernel never normalises a zero vector.
 */
export function writeSlot(f32: Float32Array, base: number, pose: Pose): void {
  const J = pose.jointCount;
  const G = Math.ceil(J / 4);
  const rot = base, tra = base + 16 * G, sca = base + 28 * G;
  for (let lane = 0; lane < 4 * G; lane++) {
    const g = lane >> 2, l = lane & 3;
    const real = lane < J;
    for (let c = 0; c < 4; c++) f32[rot + 16 * g + 4 * c + l] = real ? pose.r[4 * lane + c]! : c === 3 ? 1 : 0;
    for (let c = 0; c < 3; c++) {
      f32[tra + 12 * g + 4 * c + l] = real ? pose.t[3 * lane + c]! : 0;
      f32[sca + 12 * g + 4 * c + l] = real ? pose.s[3 * lane + c]! : 1;
    }
  }
}

/** Gathers the slot at float index `base` of `f32` back into an AoS pose (tests, debugging). */
export function readSlot(out: Pose, f32: Float32Array, base: number): Pose {
  const J = out.jointCount;
  const G = Math.ceil(J / 4);
  const rot = base, tra = base + 16 * G, sca = base + 28 * G;
  for (let j = 0; j < J; j++) {
    const g = j >> 2, l = j & 3;
    for (let c = 0; c < 4; c++) out.r[4 * j + c] = f32[rot + 16 * g + 4 * c + l]!;
    for (let c = 0; c < 3; c++) {
      out.t[3 * j + c] = f32[tra + 12 * g + 4 * c + l]!;
      out.s[3 * j + c] = f32[sca + 12 * g + 4 * c + l]!;
    }
  }
  return out;
}
