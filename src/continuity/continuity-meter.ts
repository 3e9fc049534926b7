import { copyPose, createPose, type Pose } from "../pose/pose.ts";
import { expectInteger, expectPose } from "../errors/check-argument.ts";
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
  /** The joint of the last jump (−1 before the third pose). */
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
      let jump = NaN;
      if (seen > 0) {
        const t = before;
        before = now;
        now = t;
        angularVelocitiesInto(now, last, pose, dt);
        if (seen > 1) {
          jump = 0;
          joint = 0;
          for (let j = 0; j < jointCount; j++) {
            const x = now[3 * j]! - before[3 * j]!, y = now[3 * j + 1]! - before[3 * j + 1]!, z = now[3 * j + 2]! - before[3 * j + 2]!;
            const d = Math.sqrt(x * x + y * y + z * z);
            if (d > jump) {
              jump = d;
              joint = j;
            }
          }
        }
      }
      copyPose(last, pose);
      if (seen < 2) seen++;
      return jump;
    },
    get joint() {
      return joint;
    },
    reset() {
      seen = 0;
      joint = -1;
    },
  };
}
