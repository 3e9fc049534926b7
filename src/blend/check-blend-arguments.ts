import { argumentError, expectArray, expectNumber, expectObject, expectOneOf, expectPose } from "../errors/check-argument.ts";
import { AnimgraphError } from "../errors/animgraph-error.ts";
import type { Pose } from "../pose/pose.ts";
import type { LayerMode } from "./apply-layer.ts";
import type { BoneMask } from "./bone-mask.ts";

// Boundary checks shared by the blend functions: a few typeof/instanceof tests and length comparisons
// per call, nothing per joint.

export const LAYER_MODES: readonly LayerMode[] = Object.freeze(["override", "additive"]);

/**
 * A BoneMask (Float32Array, one weight per joint) of `jointCount` joints (any length when `jointCount` is
 * negative); another length is ERR_SKELETON_MISMATCH, worded against the poses or against another mask.
 */
export function expectMask(fn: string, argument: string, value: unknown, jointCount: number, against: "poses" | "mask" = "poses"): asserts value is BoneMask {
  if (!(value instanceof Float32Array)) throw argumentError(fn, argument, "a BoneMask (a Float32Array, one weight per joint)", value);
  if (jointCount >= 0 && value.length !== jointCount) {
    const message = against === "poses"
      ? `${fn}: ${argument} has ${value.length} weights but the poses have ${jointCount} joints; it is a mask of another skeleton`
      : `${fn}: ${argument} has ${value.length} joint weights but the other mask has ${jointCount}; they are masks of two skeletons`;
    throw new AnimgraphError("ERR_SKELETON_MISMATCH", message, {
      argument, expected: `a BoneMask of ${jointCount} weights`, received: `a Float32Array of length ${value.length}`,
    });
  }
}

/** An optional BoneMask: undefined, or as `expectMask`. */
export function expectOptionalMask(fn: string, argument: string, value: unknown, jointCount: number): asserts value is BoneMask | undefined {
  if (value !== undefined) expectMask(fn, argument, value, jointCount);
}

/** One layer of `applyLayers`: `{ pose, weight, mask?, mode }` with a pose of `jointCount` joints. */
export function expectLayer(fn: string, argument: string, value: unknown, jointCount: number): void {
  expectObject(fn, argument, value);
  const layer = value as { pose?: unknown; weight?: unknown; mask?: unknown; mode?: unknown };
  expectPose(fn, `${argument}.pose`, layer.pose, jointCount);
  expectNumber(fn, `${argument}.weight`, layer.weight);
  expectOptionalMask(fn, `${argument}.mask`, layer.mask, jointCount);
  expectOneOf(fn, `${argument}.mode`, layer.mode, LAYER_MODES);
}

/** An array of poses, each of `jointCount` joints (one check per pose, not per joint). */
export function expectPoses(fn: string, argument: string, value: unknown, jointCount: number): asserts value is readonly Pose[] {
  expectArray(fn, argument, value);
  for (let i = 0; i < value.length; i++) expectPose(fn, `${argument}[${i}]`, value[i], jointCount);
}
