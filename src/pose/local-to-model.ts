import { mat4Decompose, mat4FromTRS, mat4Invert, mat4Multiply } from "../math/mat4.ts";
import { argumentError, expectPose, expectSkeleton, expectTypedArray, rangeError } from "../errors/check-argument.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import type { Pose } from "./pose.ts";

/**
 * Model-space matrices of a local pose: one pass over the joints in the skeleton's parent-before-child
 * order, `model[j] = model[parent(j)] × local[j]` (roots: `root × local[j]`, or `local[j]` without a
 * `root`). `out` holds 16 floats per joint, column-major; it is returned. Allocates nothing.
 *
 * `root` is an optional transform applied above the skeleton's roots, e.g. a glTF load result's
 * `rootTransform` (the non-joint ancestors of the skin) to get the file's world space, or a character's
 * placement. Aliasing: `out` must not share memory with the pose arrays or `root`.
 */
export function localToModel(out: Float32Array, skeleton: Skeleton, pose: Pose, root?: Float32Array): Float32Array {
  const fn = "localToModel";
  expectSkeleton(fn, "skeleton", skeleton);
  expectTypedArray(fn, "out", out, Float32Array, 16 * skeleton.jointCount);
  expectPose(fn, "pose", pose, skeleton.jointCount);
  if (root !== undefined) expectTypedArray(fn, "root", root, Float32Array, 16);
  return localToModelUnchecked(out, skeleton, pose, root);
}

/** `localToModel` without the argument checks: what the library's per-frame loops call. */
export function localToModelUnchecked(out: Float32Array, skeleton: Skeleton, pose: Pose, root?: Float32Array): Float32Array {
  const J = skeleton.jointCount;
  if (out.length < 16 * J || pose.jointCount !== J) {
    throw new RangeError(`localToModel: needs a pose of ${J} joints and 16 × ${J} output floats`);
  }
  const parents = skeleton.parents;
  const { t, r, s } = pose;
  for (let j = 0; j < J; j++) {
    const o = 16 * j;
    mat4FromTRS(out, o, t, 3 * j, r, 4 * j, s, 3 * j);
    const p = parents[j]!;
    // Parents come before children, so model[p] is final; multiplying in place is alias-safe.
    if (p >= 0) mat4Multiply(out, o, out, 16 * p, out, o);
    else if (root) mat4Multiply(out, o, root, 0, out, o);
  }
  return out;
}

/**
 * Skinning matrices: `out[j] = model[j] × inverseBind[j]` (16 floats per joint, column-major), what a
 * vertex shader multiplies bind-pose vertices by. `out` may be the same array as `model` (in-place);
 * it must not be the skeleton's `inverseBind`. Allocates nothing.
 */
export function skinningMatrices(out: Float32Array, skeleton: Skeleton, model: Float32Array): Float32Array {
  expectSkeleton("skinningMatrices", "skeleton", skeleton);
  const J = skeleton.jointCount;
  expectTypedArray("skinningMatrices", "skeleton.inverseBind", skeleton.inverseBind, Float32Array, 16 * J);
  expectTypedArray("skinningMatrices", "out", out, Float32Array, 16 * J);
  expectTypedArray("skinningMatrices", "model", model, Float32Array, 16 * J);
  if (out.length < 16 * J || model.length < 16 * J) {
    throw new RangeError(`skinningMatrices: needs 16 × ${J} floats in and out`);
  }
  const ib = skeleton.inverseBind;
  for (let j = 0; j < J; j++) mat4Multiply(out, 16 * j, model, 16 * j, ib, 16 * j);
  return out;
}

/** Scratch for modelToLocal: the parent's inverse and the local matrix (single-threaded, so shared). */
const scratch = new Float64Array(32);

/**
 * The inverse of `localToModel`: local transforms from model-space matrices,
 * `local[j] = model[parent(j)]⁻¹ × model[j]`, decomposed into the pose's translation, rotation and
 * scale (shear, if any, is lost). With `model[j] = inverseBind[j]⁻¹` this gives the bind pose. Returns
 * false when a parent matrix is singular or a local matrix cannot be decomposed (that joint is then
 * left as it was). `model` must not share memory with the pose arrays. Allocates nothing.
 */
export function modelToLocal(out: Pose, skeleton: Skeleton, model: Float32Array | Float64Array): boolean {
  expectSkeleton("modelToLocal", "skeleton", skeleton);
  const J = skeleton.jointCount;
  expectPose("modelToLocal", "out", out, J);
  if (!(model instanceof Float32Array || model instanceof Float64Array)) throw argumentError("modelToLocal", "model", `a Float32Array or Float64Array of ${16 * J} numbers`, model);
  if (model.length < 16 * J) throw rangeError("modelToLocal", "model", `a Float32Array or Float64Array of at least ${16 * J} numbers`, model);
  if (model.length < 16 * J || out.jointCount !== J) {
    throw new RangeError(`modelToLocal: needs a pose of ${J} joints and 16 × ${J} model floats`);
  }
  let ok = true;
  for (let j = 0; j < J; j++) {
    const p = skeleton.parents[j]!;
    let src: Float32Array | Float64Array = model;
    let so = 16 * j;
    if (p >= 0) {
      if (!mat4Invert(scratch, 0, model, 16 * p)) {
        ok = false;
        continue;
      }
      mat4Multiply(scratch, 16, scratch, 0, model, 16 * j);
      src = scratch;
      so = 16;
    }
    if (!mat4Decompose(out.t, 3 * j, out.r, 4 * j, out.s, 3 * j, src, so)) ok = false;
  }
  return ok;
}
