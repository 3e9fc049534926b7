import { copyPose, createPose, type Pose } from "../pose/pose.ts";
import { expectInteger, expectNumberArray, expectPose } from "../errors/check-argument.ts";
import { angularVelocitiesInto, checkDt } from "./angular-velocity-jump.ts";

/**
 * Follows a stream of output poses and tells, at each one, its angular-velocity jump against the frame
 * before (`angularVelocityJump` of the last three poses). Preallocated; `push` allocates nothing.
 */
export interface ContinuityMeter {
  /**
   * Takes the next output pose, `dt` seconds after the previous one, and returns the largest joint
   * angular-velocity jump (rad/s) at it, or NaN for the first two poses (no velocity before them yet).
   */
  push(pose: Pose, dt: number): number;
  /**
   * The jump at the last pose pushed over the joints `mask` gives a weight > 0 (per joint, as a layer's
   * mask; null: every joint), e.g. those the layer that started a transition moves. NaN before the third
   * pose, 0 when the mask selects no joint. No allocation.
   */
  jumpOver(mask: ArrayLike<number> | null): number;
  /** The joint of the last jump returned by `push` or `jumpOver` (−1 before the third pose). */
  readonly joint: number;
  /** Forgets the poses seen (the next two pushes return NaN again). */
  reset(): void;
}

/** A ContinuityMeter for poses of `jointCount` joints. */
export function createContinuityMeter(jointCount: number): ContinuityMeter {
  expectInteger("createContinuityMeter", "jointCount", jointCount);
  const last = createPose(jointCount);
  let before = new Float64Array(3 * jointCount), now = new Float64Array(3 * jointCount);
  let seen = 0;
  let joint = -1;
  return {
    push(pose: Pose, dt: number): number {
      expectPose("ContinuityMeter.push", "pose", pose, jointCount);
      checkDt("ContinuityMeter.push", "dt", dt);
      if (seen > 0) {
        const t = before;
        before = now;
        now = t;
        angularVelocitiesInto(now, last, pose, dt);
      }
      copyPose(last, pose);
      if (seen < 3) seen++;
      return largest(null);
    },
    jumpOver(mask: ArrayLike<number> | null): number {
      if (mask !== null) expectNumberArray("ContinuityMeter.jumpOver", "mask", mask, jointCount);
      return largest(mask);
    },
    get joint() {
      return joint;
    },
    reset() {
      seen = 0;
      joint = -1;
    },
  };

  /** max over the (masked) joints of |ω now − ω before|, once three poses have been seen. */
  function largest(mask: ArrayLike<number> | null): number {
    if (seen < 3) return NaN;
    let jump = 0;
    joint = -1;
    for (let j = 0; j < jointCount; j++) {
      if (mask !== null && !(mask[j]! > 0)) continue;
      const x = now[3 * j]! - before[3 * j]!, y = now[3 * j + 1]! - before[3 * j + 1]!, z = now[3 * j + 2]! - before[3 * j + 2]!;
      const d = Math.sqrt(x * x + y * y + z * z);
      if (d > jump || joint < 0) {
        jump = d;
        joint = j;
      }
    }
    return jump;
  }
}
