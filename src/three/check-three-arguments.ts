import { argumentError, expectNumberInRange, expectOptionalObject, expectString } from "../errors/check-argument.ts";
import type { ThreeBinding } from "./three-binding.ts";

// Boundary checks of the three.js adapter: a few property tests per call, no allocation, nothing per joint.

/** A ThreeBinding from bindThreeSkeleton (its `binding`, not the result object holding it). */
export function expectThreeBinding(fn: string, argument: string, value: unknown): asserts value is ThreeBinding {
  const binding = value as Partial<ThreeBinding> | null;
  if (typeof binding !== "object" || binding === null || !(binding.objectOfJoint instanceof Int16Array) || !Array.isArray(binding.objects)) {
    const hint = typeof binding === "object" && binding !== null && "binding" in binding ? " (the `binding` of bindThreeSkeleton's result, not the result)" : "";
    throw argumentError(fn, argument, `a ThreeBinding from bindThreeSkeleton${hint}`, value);
  }
}

/** A three.js Object3D (any copy of three: recognised by its `isObject3D` flag, as three itself does). */
export function expectObject3D(fn: string, argument: string, value: unknown): void {
  if (typeof value !== "object" || value === null || (value as { isObject3D?: unknown }).isObject3D !== true) {
    throw argumentError(fn, argument, "a three.js Object3D", value);
  }
}

/** A bind target: a three Skeleton, a SkinnedMesh or any Object3D (its subtree), or an array of Object3Ds. */
export function expectThreeBindTarget(fn: string, argument: string, value: unknown): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) expectObject3D(fn, `${argument}[${i}]`, value[i]);
    return;
  }
  const t = value as { isObject3D?: unknown; bones?: unknown; boneInverses?: unknown } | null;
  if (typeof t === "object" && t !== null && (t.isObject3D === true || (Array.isArray(t.bones) && Array.isArray(t.boneInverses)))) {
    if (Array.isArray(t.bones)) for (let i = 0; i < t.bones.length; i++) expectObject3D(fn, `${argument}.bones[${i}]`, t.bones[i]);
    return;
  }
  throw argumentError(fn, argument, "a three.js Skeleton, SkinnedMesh or Object3D, or an array of Object3Ds", value);
}

/** The options of clipFromThree: an object or undefined, with a ThreeBinding, a positive rate and a file name where given. */
export function expectClipFromThreeOptions(fn: string, value: unknown): void {
  expectOptionalObject(fn, "options", value);
  if (value === undefined) return;
  const o = value as { binding?: unknown; resampleRate?: unknown; file?: unknown };
  if (o.binding !== undefined) expectThreeBinding(fn, "options.binding", o.binding);
  if (o.resampleRate !== undefined) expectNumberInRange(fn, "options.resampleRate", o.resampleRate, 1e-3, 1e4);
  if (o.file !== undefined) expectString(fn, "options.file", o.file);
}
