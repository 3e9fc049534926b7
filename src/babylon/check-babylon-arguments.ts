import { argumentError, expectNumberInRange, expectOptionalObject, expectString } from "../errors/check-argument.ts";
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

/** A bind target: a Babylon Skeleton, a TransformNode (its subtree) or an array of TransformNodes. */
export function expectBabylonBindTarget(fn: string, argument: string, value: unknown): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) expectTransformNode(fn, `${argument}[${i}]`, value[i]);
    return;
  }
  const t = value as { bones?: unknown; getTransformMatrices?: unknown; getDescendants?: unknown } | null;
  if (typeof t === "object" && t !== null) {
    if (Array.isArray(t.bones) && typeof t.getTransformMatrices === "function") {
      for (let i = 0; i < t.bones.length; i++) {
        const bone = t.bones[i] as { getTransformNode?: unknown } | null;
        if (typeof bone !== "object" || bone === null || typeof bone.getTransformNode !== "function") {
          throw argumentError(fn, `${argument}.bones[${i}]`, "a Babylon.js Bone", bone);
        }
      }
      return;
    }
    if (typeof t.getDescendants === "function") {
      expectTransformNode(fn, argument, value);
      return;
    }
  }
  throw argumentError(fn, argument, "a Babylon.js Skeleton or TransformNode, or an array of TransformNodes", value);
}

/** The options of clipFromBabylon: an object or undefined, with a BabylonBinding, a positive rate and a file name where given. */
export function expectClipFromBabylonOptions(fn: string, value: unknown): void {
  expectOptionalObject(fn, "options", value);
  if (value === undefined) return;
  const o = value as { binding?: unknown; resampleRate?: unknown; file?: unknown };
  if (o.binding !== undefined) expectBabylonBinding(fn, "options.binding", o.binding);
  if (o.resampleRate !== undefined) expectNumberInRange(fn, "options.resampleRate", o.resampleRate, 1e-3, 1e4);
  if (o.file !== undefined) expectString(fn, "options.file", o.file);
}
