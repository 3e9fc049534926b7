import { expectArray, expectFiniteNumber, expectNumber, expectSkeleton, invalidValue } from "../errors/check-argument.ts";
import { descendantsOf, type Skeleton } from "../skeleton/skeleton.ts";
import { expectMask } from "./check-blend-arguments.ts";

/**
 * Per-joint layer weights in [0, 1], one per joint in skeleton order: 1 = the layer fully drives the
 * joint, 0 = the joint keeps the base pose. Built once at compile time; read every frame.
 */
export type BoneMask = Float32Array;

/** A mask with every joint at `weight` (default 0). */
export function createBoneMask(skeleton: Skeleton, weight = 0): BoneMask {
  expectSkeleton("createBoneMask", "skeleton", skeleton);
  expectNumber("createBoneMask", "weight", weight);
  return new Float32Array(skeleton.jointCount).fill(weight);
}

/**
 * A mask with each named joint and all its descendants at `weight` (default 1), every other joint 0:
 * `maskFromJoints(skeleton, ["Torso"])` is an upper-body mask. Throws on an unknown name (callers —
 * the graph compiler — check names against the skeleton first and report a diagnostic).
 */
export function maskFromJoints(skeleton: Skeleton, rootNames: readonly string[], weight = 1): BoneMask {
  const fn = "maskFromJoints";
  expectSkeleton(fn, "skeleton", skeleton);
  expectArray(fn, "rootNames", rootNames);
  expectFiniteNumber(fn, "weight", weight);
  const mask = createBoneMask(skeleton, 0);
  for (const name of rootNames) {
    const root = typeof name === "string" ? skeleton.indexOf.get(name) : undefined;
    if (root === undefined) throw invalidValue(fn, "rootNames", `no joint named ${JSON.stringify(String(name))} in the skeleton`);
    for (const j of descendantsOf(skeleton, root)) mask[j] = weight;
  }
  return mask;
}

/** out[j] = 1 − mask[j] (lower body from an upper-body mask). `out` may be `mask`. */
export function invertMask(out: BoneMask, mask: BoneMask): BoneMask {
  expectMask("invertMask", "mask", mask, -1);
  expectMask("invertMask", "out", out, mask.length, "mask");
  for (let j = 0; j < mask.length; j++) out[j] = 1 - mask[j]!;
  return out;
}

/** out[j] = max(a[j], b[j]). `out` may alias either input. */
export function maskUnion(out: BoneMask, a: BoneMask, b: BoneMask): BoneMask {
  expectMask("maskUnion", "a", a, -1);
  expectMask("maskUnion", "b", b, a.length, "mask");
  expectMask("maskUnion", "out", out, a.length, "mask");
  for (let j = 0; j < a.length; j++) out[j] = Math.max(a[j]!, b[j]!);
  return out;
}

/** out[j] = min(a[j], b[j]). `out` may alias either input. */
export function maskIntersection(out: BoneMask, a: BoneMask, b: BoneMask): BoneMask {
  expectMask("maskIntersection", "a", a, -1);
  expectMask("maskIntersection", "b", b, a.length, "mask");
  expectMask("maskIntersection", "out", out, a.length, "mask");
  for (let j = 0; j < a.length; j++) out[j] = Math.min(a[j]!, b[j]!);
  return out;
}

/** out[j] = mask[j] · k. `out` may be `mask`. */
export function scaleMask(out: BoneMask, mask: BoneMask, k: number): BoneMask {
  expectMask("scaleMask", "mask", mask, -1);
  expectMask("scaleMask", "out", out, mask.length, "mask");
  expectFiniteNumber("scaleMask", "k", k);
  for (let j = 0; j < mask.length; j++) out[j] = mask[j]! * k;
  return out;
}
