import { AnimgraphError } from "../errors/animgraph-error.ts";
import { argumentError, expectArray, expectBoolean, expectOneOf, expectOptionalObject, expectPose, expectString } from "../errors/check-argument.ts";
import type { MirrorMap, MirrorOptions } from "./mirror-map.ts";

const AXES = ["x", "y", "z"] as const;
const REFERENCES = ["auto", "bind", "rest"] as const;

/** Checks a MirrorOptions bag (and MirrorClipOptions' `name`) at the public boundary; AnimgraphError otherwise. */
export function checkMirrorOptions(fn: string, argument: string, options: unknown, jointCount: number): asserts options is MirrorOptions | undefined {
  expectOptionalObject(fn, argument, options);
  if (options === undefined) return;
  const o = options as Record<string, unknown>;
  if (o["axis"] !== undefined) expectOneOf(fn, `${argument}.axis`, o["axis"], AXES);
  if (o["detect"] !== undefined) expectBoolean(fn, `${argument}.detect`, o["detect"]);
  for (const key of ["file", "pairsFile", "pairsPointer", "name"]) if (o[key] !== undefined) expectString(fn, `${argument}.${key}`, o[key]);
  const reference = o["reference"];
  if (reference !== undefined && typeof reference !== "object") expectOneOf(fn, `${argument}.reference`, reference, REFERENCES);
  else if (reference !== undefined) expectPose(fn, `${argument}.reference`, reference, jointCount);
  if (o["pairs"] !== undefined) checkPairs(fn, `${argument}.pairs`, o["pairs"]);
}

/** An array of [string, string] pairs. */
export function checkPairs(fn: string, argument: string, pairs: unknown): void {
  expectArray(fn, argument, pairs);
  pairs.forEach((pair, i) => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string" || typeof pair[1] !== "string") {
      throw argumentError(fn, `${argument}[${i}]`, "a pair of two joint names", pair);
    }
  });
}

/** A MirrorMap as compileMirrorMap makes it. */
export function expectMirrorMap(fn: string, argument: string, value: unknown): asserts value is MirrorMap {
  const map = value as Partial<MirrorMap> | null;
  if (typeof map !== "object" || map === null || !(map.partner instanceof Int32Array) || !(map.rotation instanceof Float64Array)
    || !(map.translation instanceof Float64Array) || !(map.scale instanceof Float64Array) || typeof map.skeleton !== "object"
    || map.rotation.length !== 16 * map.partner.length || map.translation.length !== 12 * map.partner.length || map.scale.length !== 9 * map.partner.length) {
    throw argumentError(fn, argument, "a MirrorMap (from compileMirrorMap)", value);
  }
}

/** ERR_SKELETON_MISMATCH for a clip or pose of another skeleton. */
export function skeletonMismatch(fn: string, argument: string, message: string): AnimgraphError {
  return new AnimgraphError("ERR_SKELETON_MISMATCH", `${fn}: ${argument}: ${message}`, { argument });
}
