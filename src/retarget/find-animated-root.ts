import type { Clip } from "../clip/clip.ts";
import { expectArray, expectClip, expectInteger, expectSkeleton } from "../errors/check-argument.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";

/**
 * The joint that should carry a character's trajectory: the lowest common ancestor of `joints` (the
 * pelvis, both upper legs and the first spine bone), or, when the character's own `clips` animate one of
 * that joint's ancestors, the topmost such ancestor. RobotExpressive: the pelvis `Hips`, the legs and
 * the spine meet at `Body`, which all of the robot's clips animate, while its skeleton root `Bone` (the
 * parent of the IK feet) is never animated: `Body`. Returns -1 when `joints` is empty.
 */
export function findAnimatedRoot(skeleton: Skeleton, joints: readonly number[], clips: readonly Clip[] = []): number {
  const fn = "findAnimatedRoot";
  expectSkeleton(fn, "skeleton", skeleton);
  expectArray(fn, "joints", joints);
  for (let i = 0; i < joints.length; i++) expectInteger(fn, `joints[${i}]`, joints[i], 0, skeleton.jointCount - 1);
  expectArray(fn, "clips", clips);
  for (let i = 0; i < clips.length; i++) expectClip(fn, `clips[${i}]`, clips[i]);
  if (joints.length === 0) return -1;
  let lca = joints[0]!;
  for (const j of joints.slice(1)) lca = commonAncestor(skeleton, lca, j);
  if (lca < 0) return joints[0]!;
  let chosen = lca;
  for (let a = lca; a >= 0; a = skeleton.parents[a]!) {
    if (clips.some((c) => c.skeleton === skeleton && (c.trackIndex[3 * a]! >= 0 || c.trackIndex[3 * a + 1]! >= 0))) chosen = a;
  }
  return chosen;
}

/** Lowest common ancestor of two joints (a joint is its own ancestor), -1 when they are in different trees. */
export function commonAncestor(skeleton: Skeleton, a: number, b: number): number {
  const seen = new Set<number>();
  for (let j = a; j >= 0; j = skeleton.parents[j]!) seen.add(j);
  for (let j = b; j >= 0; j = skeleton.parents[j]!) if (seen.has(j)) return j;
  return -1;
}

/** True when `ancestor` is `joint` or one of its ancestors. */
export function isAncestor(skeleton: Skeleton, ancestor: number, joint: number): boolean {
  for (let j = joint; j >= 0; j = skeleton.parents[j]!) if (j === ancestor) return true;
  return false;
}
