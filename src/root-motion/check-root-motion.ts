import { argumentError, expectOneOf, rangeError } from "../errors/check-argument.ts";
import { expectWholeClip } from "../clip/check-clip.ts";
import type { LoopMode } from "../clip/clip.ts";
import type { RootMotionExtractor } from "./root-motion.ts";

// Argument checks of the root-motion exports. extractRootMotion and blendRootMotion run once per frame
// and clip, so these test types and lengths only (no allocation unless they throw) and an extractor is
// checked in full once: extractors are immutable assets, remembered in a WeakSet after their first check.

const checkedExtractors = new WeakSet<object>();
/**
 * The extractor checked last: most frames pass the same one again, and one comparison beats a WeakSet
 * lookup. It starts as a private object, so undefined or null never match it; it keeps at most one
 * extractor alive until the next one is checked.
 */
let lastChecked: object = Object.freeze({});

/** Marks an extractor built by createRootMotionExtractor as checked. */
export function rememberExtractor(extractor: RootMotionExtractor): void {
  checkedExtractors.add(extractor);
}

/** A RootMotionExtractor from createRootMotionExtractor (its clip, joint and precomputed frames). */
export function expectRootMotionExtractor(fn: string, argument: string, value: unknown): asserts value is RootMotionExtractor {
  if (value === lastChecked) return;
  if (checkedExtractors.has(value as object)) {
    lastChecked = value as object;
    return;
  }
  const e = value as Partial<RootMotionExtractor> | null;
  if (typeof e !== "object" || e === null || !Number.isInteger(e.joint) || typeof e.parentScale !== "number"
    || !(e.upLocal instanceof Float64Array) || !(e.upModel instanceof Float64Array) || !(e.parentRotation instanceof Float64Array)
    || !(e.startTranslation instanceof Float64Array) || !(e.startTwist instanceof Float64Array) || !(e.hints instanceof Int32Array)) {
    throw argumentError(fn, argument, "a RootMotionExtractor (from createRootMotionExtractor)", value);
  }
  expectWholeClip(fn, `${argument}.clip`, e.clip);
  if (!(e.joint! >= 0 && e.joint! < e.clip!.skeleton.jointCount)) {
    throw argumentError(fn, `${argument}.joint`, `a joint index of the extractor's clip (0 to ${e.clip!.skeleton.jointCount - 1})`, e.joint);
  }
  checkedExtractors.add(e);
  lastChecked = e;
}

const LOOP_MODES: readonly LoopMode[] = ["loop", "clamp", "pingpong"];

/** One of "loop", "clamp", "pingpong". */
export function expectLoopMode(fn: string, argument: string, value: unknown): asserts value is LoopMode {
  if (value === "loop" || value === "clamp" || value === "pingpong") return;
  expectOneOf(fn, argument, value, LOOP_MODES);
}

/** A Float32Array or Float64Array of at least `minLength` numbers: a root-motion delta. */
export function expectDelta(fn: string, argument: string, value: unknown, minLength: number): asserts value is Float32Array | Float64Array {
  if (!(value instanceof Float32Array || value instanceof Float64Array)) {
    throw argumentError(fn, argument, `a Float32Array or Float64Array of at least ${minLength} numbers`, value);
  }
  if (value.length < minLength) throw rangeError(fn, argument, `a Float32Array or Float64Array of at least ${minLength} numbers`, value);
}
