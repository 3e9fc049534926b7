import { argumentError, expectArray, expectObject, expectString, invalidValue } from "../errors/check-argument.ts";
import type { PermilleAxis } from "./bilinear-permille.ts";
import type { BlendCheckSpec } from "./blend-spec.ts";

// Boundary checks of the blend-check functions. Their inputs are the validated spec of
// `validateBlendSpec` (integers as bigint); these checks catch a spec typed by hand or a wrong
// argument. Not a per-frame path: walking the spec's lists is as cheap as the analysis itself.

/** A bigint (the blend check's integers are exact at any size). */
export function expectBigInt(fn: string, argument: string, value: unknown): asserts value is bigint {
  if (typeof value !== "bigint") throw argumentError(fn, argument, "a bigint", value);
}

/** An axis `{ min, max }` of bigints with max > min. */
export function expectPermilleAxis(fn: string, argument: string, value: unknown): asserts value is PermilleAxis {
  expectObject(fn, argument, value);
  const axis = value as { min?: unknown; max?: unknown };
  expectBigInt(fn, `${argument}.min`, axis.min);
  expectBigInt(fn, `${argument}.max`, axis.max);
  if (!(axis.max > axis.min)) throw invalidValue(fn, argument, `max (${axis.max}) must be larger than min (${axis.min})`);
}

/** A list of `{ x, y }` points with bigint coordinates (samples, query points). */
export function expectBigIntPoints(fn: string, argument: string, value: unknown): void {
  expectArray(fn, argument, value);
  value.forEach((p, i) => {
    expectObject(fn, `${argument}[${i}]`, p);
    expectBigInt(fn, `${argument}[${i}].x`, (p as { x?: unknown }).x);
    expectBigInt(fn, `${argument}[${i}].y`, (p as { y?: unknown }).y);
  });
}

function expectStrings(fn: string, argument: string, value: unknown): void {
  expectArray(fn, argument, value);
  value.forEach((s, i) => expectString(fn, `${argument}[${i}]`, s));
}

/** A BlendCheckSpec as `validateBlendSpec` returns it. */
export function expectBlendCheckSpec(fn: string, argument: string, value: unknown): asserts value is BlendCheckSpec {
  expectObject(fn, argument, value);
  const spec = value as Partial<Record<keyof BlendCheckSpec, unknown>>;
  if (!("blendSpace" in spec) && "diagnostics" in spec) {
    throw argumentError(fn, argument, "a BlendCheckSpec (the `spec` of validateBlendSpec's result, not the result)", value);
  }
  expectString(fn, `${argument}.project`, spec.project);
  expectObject(fn, `${argument}.blendSpace`, spec.blendSpace);
  const bs = spec.blendSpace as { name?: unknown; axes?: unknown; samples?: unknown };
  expectString(fn, `${argument}.blendSpace.name`, bs.name);
  expectArray(fn, `${argument}.blendSpace.axes`, bs.axes);
  if (bs.axes.length !== 2) throw invalidValue(fn, `${argument}.blendSpace.axes`, `has ${bs.axes.length} axes; a blend-check space has exactly two (x, y)`);
  bs.axes.forEach((axis, i) => {
    expectPermilleAxis(fn, `${argument}.blendSpace.axes[${i}]`, axis);
    expectString(fn, `${argument}.blendSpace.axes[${i}].param`, (axis as { param?: unknown }).param);
  });
  expectBigIntPoints(fn, `${argument}.blendSpace.samples`, bs.samples);
  (bs.samples as readonly { clip?: unknown }[]).forEach((s, i) => expectString(fn, `${argument}.blendSpace.samples[${i}].clip`, s.clip));
  expectStrings(fn, `${argument}.clipSet`, spec.clipSet);
  expectBigIntPoints(fn, `${argument}.queryPoints`, spec.queryPoints);
  expectStrings(fn, `${argument}.states`, spec.states);
  expectObject(fn, `${argument}.transitionBudget`, spec.transitionBudget);
  const budget = spec.transitionBudget as { minFrames?: unknown; maxFrames?: unknown };
  expectBigInt(fn, `${argument}.transitionBudget.minFrames`, budget.minFrames);
  expectBigInt(fn, `${argument}.transitionBudget.maxFrames`, budget.maxFrames);
  expectArray(fn, `${argument}.transitions`, spec.transitions);
  spec.transitions.forEach((t, i) => {
    const at = `${argument}.transitions[${i}]`;
    expectObject(fn, at, t);
    const tr = t as { from?: unknown; to?: unknown; frames?: unknown; exitPermille?: unknown; interruptible?: unknown };
    expectString(fn, `${at}.from`, tr.from);
    expectString(fn, `${at}.to`, tr.to);
    expectBigInt(fn, `${at}.frames`, tr.frames);
    expectBigInt(fn, `${at}.exitPermille`, tr.exitPermille);
    if (typeof tr.interruptible !== "boolean") throw argumentError(fn, `${at}.interruptible`, "a boolean", tr.interruptible);
  });
}
