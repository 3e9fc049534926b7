import { argumentError } from "../errors/check-argument.ts";
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
