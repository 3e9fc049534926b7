import { quatMultiply, quatRotateVec3 } from "../math/quat.ts";
import type { Pose } from "../pose/pose.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";

/**
 * Model-space rotation (4 per joint), position (3 per joint) and uniform scale (1 per joint) of a local
 * pose, in float64: the quaternion form of `localToModel` that retargeting needs (it composes and
 * inverts rotations, and must reproduce a clip within 1e-5). Scale is taken as uniform (the x scale);
 * a non-uniform scale in a rest pose makes model rotations approximate. No allocation; `q`, `p`, `s` are
 * written in full and must not alias the pose.
 */
export function modelFrames(q: Float64Array, p: Float64Array, s: Float64Array, skeleton: Skeleton, pose: Pose): void {
  const parents = skeleton.parents;
  for (let j = 0; j < skeleton.jointCount; j++) {
    const parent = parents[j]!;
    if (parent < 0) {
      q[4 * j] = pose.r[4 * j]!;
      q[4 * j + 1] = pose.r[4 * j + 1]!;
      q[4 * j + 2] = pose.r[4 * j + 2]!;
      q[4 * j + 3] = pose.r[4 * j + 3]!;
      p[3 * j] = pose.t[3 * j]!;
      p[3 * j + 1] = pose.t[3 * j + 1]!;
      p[3 * j + 2] = pose.t[3 * j + 2]!;
      s[j] = pose.s[3 * j]!;
      continue;
    }
    quatMultiply(q, 4 * j, q, 4 * parent, pose.r, 4 * j);
    // p_j = p_parent + q_parent · (s_parent · t_j)
    const k = s[parent]!;
    p[3 * j] = k * pose.t[3 * j]!;
    p[3 * j + 1] = k * pose.t[3 * j + 1]!;
    p[3 * j + 2] = k * pose.t[3 * j + 2]!;
    quatRotateVec3(p, 3 * j, q, 4 * parent, p, 3 * j);
    p[3 * j] = p[3 * j]! + p[3 * parent]!;
    p[3 * j + 1] = p[3 * j + 1]! + p[3 * parent + 1]!;
    p[3 * j + 2] = p[3 * j + 2]! + p[3 * parent + 2]!;
    s[j] = k * pose.s[3 * j]!;
  }
}
