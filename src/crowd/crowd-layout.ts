import type { Pose } from "../pose/pose.ts";
import { expectInteger, expectTypedArray, rangeError } from "../errors/check-argument.ts";

/** Floats one character's local pose takes in `Crowd.poseBuffer`: t (3J), r (4J), s (3J). */
export function poseStride(jointCount: number): number {
  return 10 * jointCount;
}

/** A Pose whose t, r and s are views into `buf` starting at float `offset`. */
export function poseView(buf: Float32Array, offset: number, jointCount: number): Pose {
  expectTypedArray("poseView", "buf", buf, Float32Array);
  expectInteger("poseView", "offset", offset);
  expectInteger("poseView", "jointCount", jointCount, 0, 0x7fff);
  if (buf.length < offset + 10 * jointCount) throw rangeError("poseView", "buf", `a Float32Array of at least ${offset + 10 * jointCount} floats (10 per joint from offset ${offset})`, buf);
  const J = jointCount;
  return {
    jointCount: J,
    t: buf.subarray(offset, offset + 3 * J),
    r: buf.subarray(offset + 3 * J, offset + 7 * J),
    s: buf.subarray(offset + 7 * J, offset + 10 * J),
  };
}
