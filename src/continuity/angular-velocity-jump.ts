// Motion continuity measured from output poses: the velocity pop a transition causes is the change of
// each joint's angular velocity between the frame before the transition and its first frame.
import { argumentError, expectArray, expectPose, expectTypedArray, rangeError } from "../errors/check-argument.ts";
import type { Pose } from "../pose/pose.ts";

/**
 * Writes each joint's angular velocity over one frame into `out` (3 per joint, rad/s): the rotation
 * vector of q_to · q_from⁻¹ (the frame's rotation increment, in the joint's parent space, shortest way
 * round) divided by `dt`. `out` needs 3 · jointCount entries. No allocation.
 */
export function jointAngularVelocities(out: Float64Array, from: Pose, to: Pose, dt: number): Float64Array {
  expectPose("jointAngularVelocities", "from", from);
  expectPose("jointAngularVelocities", "to", to, from.jointCount);
  checkDt("jointAngularVelocities", "dt", dt);
  expectTypedArray("jointAngularVelocities", "out", out, Float64Array, 3 * from.jointCount);
  angularVelocitiesInto(out, from, to, dt);
  return out;
}

/** jointAngularVelocities without the checks (the per-frame form). */
export function angularVelocitiesInto(out: Float64Array, from: Pose, to: Pose, dt: number): void {
  const a = from.r, b = to.r;
  const inv = 1 / dt;
  for (let j = 0; j < from.jointCount; j++) {
    const o = 4 * j;
    const ax = a[o]!, ay = a[o + 1]!, az = a[o + 2]!, aw = a[o + 3]!;
    const bx = b[o]!, by = b[o + 1]!, bz = b[o + 2]!, bw = b[o + 3]!;
    // d = b · a⁻¹ (a unit: its inverse is its conjugate).
    let dx = -bw * ax + bx * aw - by * az + bz * ay;
    let dy = -bw * ay + by * aw - bz * ax + bx * az;
    let dz = -bw * az + bz * aw - bx * ay + by * ax;
    let dw = bw * aw + bx * ax + by * ay + bz * az;
    if (dw < 0) {
      dx = -dx; dy = -dy; dz = -dz; dw = -dw;
    }
    const sin = Math.sqrt(dx * dx + dy * dy + dz * dz);
    // angle / sin(angle / 2) → 2 as the angle → 0.
    const k = sin > 1e-12 ? (2 * Math.atan2(sin, dw)) / sin : 2;
    out[3 * j] = dx * k * inv;
    out[3 * j + 1] = dy * k * inv;
    out[3 * j + 2] = dz * k * inv;
  }
}

/** The largest jump of one joint's angular velocity between two consecutive frames, and which joint. */
export interface AngularVelocityJump {
  /** max over joints of |ω_j(p1 → p2) − ω_j(p0 → p1)|, rad/s. */
  readonly jump: number;
  /** The joint where it is largest (−1 for a pose without joints). */
  readonly joint: number;
}

/**
 * The velocity pop at pose p2: with ω_j(a → b) each joint's angular velocity over a frame
 * (`jointAngularVelocities`), the largest |ω_j(p1 → p2) − ω_j(p0 → p1)| over joints, in rad/s. Frame
 * p0 → p1 takes `dt01` seconds, p1 → p2 takes `dt12` (default: the same). A transition's continuity is
 * this with p2 its first output frame. Allocates its result (not a per-frame job: see `createContinuityMeter`).
 */
export function angularVelocityJump(p0: Pose, p1: Pose, p2: Pose, dt01: number, dt12: number = dt01): AngularVelocityJump {
  expectPose("angularVelocityJump", "p0", p0);
  expectPose("angularVelocityJump", "p1", p1, p0.jointCount);
  expectPose("angularVelocityJump", "p2", p2, p0.jointCount);
  checkDt("angularVelocityJump", "dt01", dt01);
  checkDt("angularVelocityJump", "dt12", dt12);
  const w0 = new Float64Array(3 * p0.jointCount), w1 = new Float64Array(3 * p0.jointCount);
  angularVelocitiesInto(w0, p0, p1, dt01);
  angularVelocitiesInto(w1, p1, p2, dt12);
  return largestDifference(w0, w1, p0.jointCount);
}

/** max_j |b_j − a_j| over 3-vectors, and its joint. */
export function largestDifference(a: Float64Array, b: Float64Array, jointCount: number): AngularVelocityJump {
  let jump = 0, joint = jointCount > 0 ? 0 : -1;
  for (let j = 0; j < jointCount; j++) {
    const x = b[3 * j]! - a[3 * j]!, y = b[3 * j + 1]! - a[3 * j + 1]!, z = b[3 * j + 2]! - a[3 * j + 2]!;
    const d = Math.sqrt(x * x + y * y + z * z);
    if (d > jump) {
      jump = d;
      joint = j;
    }
  }
  return { jump, joint };
}

/**
 * The continuity of a transition in a sequence of output poses sampled every `dt` seconds: the jump
 * (`angularVelocityJump`) at `poses[frame]`, the transition's first output frame, against the frame
 * before it. `frame` must be ≥ 2 (two earlier poses give the velocity before the transition).
 */
export function transitionContinuity(poses: readonly Pose[], frame: number, dt: number): AngularVelocityJump {
  expectArray("transitionContinuity", "poses", poses);
  if (typeof frame !== "number") throw argumentError("transitionContinuity", "frame", "an integer", frame);
  if (!Number.isInteger(frame) || frame < 2 || frame >= poses.length) throw rangeError("transitionContinuity", "frame", `an integer in [2, ${poses.length - 1}]`, frame);
  return angularVelocityJump(poses[frame - 2]!, poses[frame - 1]!, poses[frame]!, dt);
}

/** A frame time: a finite number of seconds > 0. */
export function checkDt(fn: string, argument: string, dt: unknown): void {
  if (typeof dt !== "number") throw argumentError(fn, argument, "a number of seconds", dt);
  if (!(dt > 0 && dt < Infinity)) throw rangeError(fn, argument, "a finite number of seconds > 0", dt);
}
