import { expectInteger, expectPose } from "../errors/check-argument.ts";

/**
 * A local-space pose in structure-of-arrays form: per joint a translation (x, y, z), a unit rotation
 * quaternion (x, y, z, w, glTF order) and a scale (x, y, z). Joints are in the skeleton's
 * parent-before-child order. Allocated once by `createPose`; jobs write into it.
 */
export interface Pose {
  readonly jointCount: number;
  /** Translations, 3 per joint, in the skeleton's units (metres for glTF). */
  readonly t: Float32Array;
  /** Rotations, 4 per joint (x, y, z, w), unit length. */
  readonly r: Float32Array;
  /** Scales, 3 per joint. */
  readonly s: Float32Array;
}

/** A pose of `jointCount` identity transforms (t = 0, r = identity, s = 1). */
export function createPose(jointCount: number): Pose {
  expectInteger("createPose", "jointCount", jointCount, 0, 0x7fff);
  const pose: Pose = {
    jointCount,
    t: new Float32Array(3 * jointCount),
    r: new Float32Array(4 * jointCount),
    s: new Float32Array(3 * jointCount),
  };
  for (let j = 0; j < jointCount; j++) {
    pose.r[4 * j + 3] = 1;
    pose.s[3 * j] = pose.s[3 * j + 1] = pose.s[3 * j + 2] = 1;
  }
  return pose;
}

/** Copies `src` into `out` (same joint count). `out` and `src` may be the same pose. */
export function copyPose(out: Pose, src: Pose): Pose {
  expectPose("copyPose", "out", out);
  expectPose("copyPose", "src", src, out.jointCount);
  if (out !== src) {
    out.t.set(src.t);
    out.r.set(src.r);
    out.s.set(src.s);
  }
  return out;
}
