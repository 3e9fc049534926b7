import { argumentError } from "../errors/check-argument.ts";
import type { BabylonBinding } from "./babylon-binding.ts";

// Boundary checks of the Babylon.js adapter: a few property tests per call, no allocation, nothing per
// joint. Babylon's classes are recognised by shape, as the adapter never loads Babylon itself.

/** A BabylonBinding from bindBabylonSkeleton (its `binding`, not the result object holding it). */
export function expectBabylonBinding(fn: string, argument: string, value: unknown): asserts value is BabylonBinding {
  const binding = value as Partial<BabylonBinding> | null;
  if (typeof binding !== "object" || binding === null || !(binding.nodeOfJoint instanceof Int16Array) || !Array.isArray(binding.nodes)) {
    const hint = typeof binding === "object" && binding !== null && "binding" in binding ? " (the `binding` of bindBabylonSkeleton's result, not the result)" : "";
    throw argumentError(fn, argument, `a BabylonBinding from bindBabylonSkeleton${hint}`, value);
  }
}

/** A Babylon TransformNode (or mesh): a node with `position` and `scaling` vectors and `getPivotPoint`. */
export function expectTransformNode(fn: string, argument: string, value: unknown): void {
  const node = value as { position?: unknown; scaling?: unknown; getPivotPoint?: unknown } | null;
  if (typeof node !== "object" || node === null || typeof node.getPivotPoint !== "function"
    || typeof node.position !== "object" || node.position === null || typeof node.scaling !== "object" || node.scaling === null) {
    throw argumentError(fn, argument, "a Babylon.js TransformNode", value);
  }
}
