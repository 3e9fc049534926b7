import { expectPose, expectSkeleton, expectTypedArray } from "../errors/check-argument.ts";
import { quatInvert, quatMultiply, quatNormalize, quatRotateVec3 } from "../math/quat.ts";
import type { Pose } from "../pose/pose.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";

/** Flag of `writeModelPose`'s `changed`: the IK job set this joint's model rotation. */
export const CHANGED_ROTATION = 1;
/** Flag of `writeModelPose`'s `changed`: the IK job set this joint's model position (may be or-ed with CHANGED_ROTATION). */
export const CHANGED_POSITION = 2;

const inv = new Float64Array(4);
const v = new Float64Array(3);

/**
 * Writes the joints an IK job changed in model space back into the local pose, and brings every other
 * joint's model frame up to date: one pass in parent-before-child order where a joint flagged in `changed`
 * (CHANGED_ROTATION, CHANGED_POSITION) gets the local rotation / translation that puts it where `q` / `p`
 * say under its parent's new frame, and every other joint keeps its local transform and has its model
 * rotation and position recomputed (so descendants of a turned joint follow). `q`, `p`, `s` are the
 * model rotations, positions and uniform scales of `modelFrames`. No allocation.
 */
export function writeModelPose(pose: Pose, skeleton: Skeleton, q: Float64Array, p: Float64Array, s: Float64Array, changed: Uint8Array): void {
  const fn = "writeModelPose";
  expectSkeleton(fn, "skeleton", skeleton);
  const J = skeleton.jointCount;
  expectPose(fn, "pose", pose, J);
  expectTypedArray(fn, "q", q, Float64Array, 4 * J);
  expectTypedArray(fn, "p", p, Float64Array, 3 * J);
  expectTypedArray(fn, "s", s, Float64Array, J);
  expectTypedArray(fn, "changed", changed, Uint8Array, J);
  writeModelPoseUnchecked(pose, skeleton, q, p, s, changed);
}

/** {@link writeModelPose} without the argument checks, for the graph's IK layers. */
export function writeModelPoseUnchecked(pose: Pose, skeleton: Skeleton, q: Float64Array, p: Float64Array, s: Float64Array, changed: Uint8Array): void {
  const J = skeleton.jointCount;
  const parents = skeleton.parents;
  for (let j = 0; j < J; j++) {
    const parent = parents[j]!;
    const flags = changed[j]!;
    if (parent < 0) {
      if (flags & CHANGED_ROTATION) for (let c = 0; c < 4; c++) pose.r[4 * j + c] = q[4 * j + c]!;
      else for (let c = 0; c < 4; c++) q[4 * j + c] = pose.r[4 * j + c]!;
      if (flags & CHANGED_POSITION) for (let c = 0; c < 3; c++) pose.t[3 * j + c] = p[3 * j + c]!;
      else for (let c = 0; c < 3; c++) p[3 * j + c] = pose.t[3 * j + c]!;
      s[j] = pose.s[3 * j]!;
      continue;
    }
    if (flags & CHANGED_ROTATION) {
      quatInvert(inv, 0, q, 4 * parent);
      quatMultiply(inv, 0, inv, 0, q, 4 * j);
      quatNormalize(pose.r, 4 * j, inv, 0);
    } else quatMultiply(q, 4 * j, q, 4 * parent, pose.r, 4 * j);
    const k = s[parent]!;
    if (flags & CHANGED_POSITION) {
      for (let c = 0; c < 3; c++) v[c] = (p[3 * j + c]! - p[3 * parent + c]!) / k;
      quatInvert(inv, 0, q, 4 * parent);
      quatRotateVec3(pose.t, 3 * j, inv, 0, v, 0);
    } else {
      for (let c = 0; c < 3; c++) v[c] = k * pose.t[3 * j + c]!;
      quatRotateVec3(v, 0, q, 4 * parent, v, 0);
      for (let c = 0; c < 3; c++) p[3 * j + c] = p[3 * parent + c]! + v[c]!;
    }
    s[j] = k * pose.s[3 * j]!;
  }
}
