import { argumentError, expectArray, expectFiniteNumber, expectInteger, expectNumber, expectObject, expectPose, expectSkeleton, invalidValue, rangeError } from "../errors/check-argument.ts";
import type { Pose } from "../pose/pose.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { AnimgraphError } from "../errors/animgraph-error.ts";

/**
 * A per-skeleton joint-importance ordering, computed once: joints sorted by depth from the root
 * (shallowest first), ties broken by larger subtree first, then by index. Because a parent is always
 * shallower than its children, every prefix of `order` contains the parents of its joints: keeping the
 * first n joints never keeps a finger without its hand.
 */
export interface JointImportance {
  /** Joint indices, most important first. */
  readonly order: Int16Array;
  /** Position of each joint in `order` (0 = most important). */
  readonly rank: Int16Array;
  /** Depth of each joint (roots 0). */
  readonly depth: Int16Array;
  /** Number of joints in each joint's subtree, itself included. */
  readonly subtreeSize: Int32Array;
}

/** Computes the joint-importance ordering of `skeleton` (allocates; call once per skeleton). */
export function computeJointImportance(skeleton: Skeleton): JointImportance {
  expectSkeleton("computeJointImportance", "skeleton", skeleton);
  const J = skeleton.jointCount;
  const depth = new Int16Array(J);
  const subtreeSize = new Int32Array(J).fill(1);
  for (let j = 0; j < J; j++) {
    const p = skeleton.parents[j]!;
    depth[j] = p >= 0 ? depth[p]! + 1 : 0;
  }
  for (let j = J - 1; j >= 0; j--) {
    const p = skeleton.parents[j]!;
    if (p >= 0) subtreeSize[p] = subtreeSize[p]! + subtreeSize[j]!;
  }
  const sorted = Array.from({ length: J }, (_, j) => j).sort(
    (a, b) => depth[a]! - depth[b]! || subtreeSize[b]! - subtreeSize[a]! || a - b,
  );
  const order = Int16Array.from(sorted);
  const rank = new Int16Array(J);
  sorted.forEach((j, i) => (rank[j] = i));
  return { order, rank, depth, subtreeSize };
}

/** One distance band of the joint LOD. */
export interface JointLodBand {
  /** Upper bound of the band (exclusive), scene units; the last band may use Infinity. */
  readonly maxDistance: number;
  /** Share of the joints sampled in this band, (0, 1]; the rest are frozen. */
  readonly jointFraction: number;
}

/** Validated joint-LOD bands. */
export interface JointLod {
  readonly maxDistance: Float64Array;
  readonly jointFraction: Float64Array;
}

/** Builds a joint LOD from bands with strictly increasing `maxDistance`; throws AnimgraphError on bad bands. */
export function createJointLod(bands: readonly JointLodBand[]): JointLod {
  const fn = "createJointLod";
  expectArray(fn, "bands", bands);
  if (bands.length === 0) throw rangeError(fn, "bands", "an array of at least one band", bands);
  const maxDistance = new Float64Array(bands.length);
  const jointFraction = new Float64Array(bands.length);
  bands.forEach((b, i) => {
    expectObject(fn, `bands[${i}]`, b);
    expectNumber(fn, `bands[${i}].maxDistance`, b.maxDistance);
    expectFiniteNumber(fn, `bands[${i}].jointFraction`, b.jointFraction);
    if (!(b.maxDistance > 0) || (i > 0 && !(b.maxDistance > bands[i - 1]!.maxDistance))) {
      throw rangeError(fn, `bands[${i}].maxDistance`, i === 0 ? "a positive number" : `a number larger than the previous band's (${bands[i - 1]!.maxDistance})`, b.maxDistance);
    }
    if (!(b.jointFraction > 0 && b.jointFraction <= 1)) throw rangeError(fn, `bands[${i}].jointFraction`, "a number in (0, 1]", b.jointFraction);
    maxDistance[i] = b.maxDistance;
    jointFraction[i] = b.jointFraction;
  });
  return { maxDistance, jointFraction };
}

/** A JointLod from createJointLod: two Float64Arrays of one length ≥ 1 (no per-band loop: it is checked per call). */
function expectJointLod(fn: string, argument: string, value: unknown): asserts value is JointLod {
  const lod = value as Partial<JointLod> | null;
  if (typeof lod !== "object" || lod === null || !(lod.maxDistance instanceof Float64Array) || !(lod.jointFraction instanceof Float64Array)
    || lod.maxDistance.length === 0 || lod.jointFraction.length !== lod.maxDistance.length) {
    throw argumentError(fn, argument, "a JointLod (from createJointLod)", value);
  }
}

/** How many joints (a prefix of the importance order) to sample at `distance`: ⌈fraction × J⌉, ≥ 1. */
export function activeJointCount(lod: JointLod, distance: number, jointCount: number): number {
  expectJointLod("activeJointCount", "lod", lod);
  expectNumber("activeJointCount", "distance", distance);
  expectInteger("activeJointCount", "jointCount", jointCount);
  const n = lod.maxDistance.length;
  let f = lod.jointFraction[n - 1]!;
  for (let i = 0; i < n; i++) {
    if (distance < lod.maxDistance[i]!) {
      f = lod.jointFraction[i]!;
      break;
    }
  }
  return Math.min(jointCount, Math.max(1, Math.ceil(f * jointCount)));
}

/**
 * Freezes the joints outside the first `activeCount` of the importance order: their local transforms
 * in `out` are overwritten from `frozen` (the rest pose, or the character's last full pose). The
 * active joints keep what the sampler wrote. Allocates nothing; `out` must not be `frozen`.
 */
export function freezeInactiveJoints(out: Pose, frozen: Pose, importance: JointImportance, activeCount: number): Pose {
  const fn = "freezeInactiveJoints";
  expectPose(fn, "out", out);
  expectPose(fn, "frozen", frozen, out.jointCount);
  if (out === frozen) throw invalidValue(fn, "frozen", "must not be out");
  if (typeof importance !== "object" || importance === null || !(importance.order instanceof Int16Array)) {
    throw argumentError(fn, "importance", "a JointImportance (from computeJointImportance)", importance);
  }
  if (importance.order.length !== out.jointCount) {
    throw new AnimgraphError("ERR_SKELETON_MISMATCH", `${fn}: importance orders ${importance.order.length} joints but the poses have ${out.jointCount}; it is another skeleton's`, {
      argument: "importance", expected: `a JointImportance of ${out.jointCount} joints`, received: `a JointImportance of ${importance.order.length} joints`,
    });
  }
  expectInteger(fn, "activeCount", activeCount, 0);
  const order = importance.order;
  for (let i = Math.max(0, activeCount); i < order.length; i++) {
    const j = order[i]!;
    out.t[3 * j] = frozen.t[3 * j]!; out.t[3 * j + 1] = frozen.t[3 * j + 1]!; out.t[3 * j + 2] = frozen.t[3 * j + 2]!;
    out.s[3 * j] = frozen.s[3 * j]!; out.s[3 * j + 1] = frozen.s[3 * j + 1]!; out.s[3 * j + 2] = frozen.s[3 * j + 2]!;
    out.r[4 * j] = frozen.r[4 * j]!; out.r[4 * j + 1] = frozen.r[4 * j + 1]!;
    out.r[4 * j + 2] = frozen.r[4 * j + 2]!; out.r[4 * j + 3] = frozen.r[4 * j + 3]!;
  }
  return out;
}
