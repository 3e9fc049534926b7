import { expectArray, expectInteger, expectNumberArray, invalidValue, rangeError } from "../errors/check-argument.ts";

/**
 * A rig's up as its legs show it, for foot-placement layers that do not give `up` (compile time only; the
 * studio's "add foot placement" and the linter use the same measure).
 */
export interface LegsUp {
  /** The unit direction from the feet to the hips in the rest pose: the sum over legs of upper − foot, normalized. */
  readonly measured: readonly [number, number, number];
  /** What a layer uses: the skeleton space's nearest axis (±x, ±y, ±z) when within {@link LEGS_UP_SNAP_DEGREES} of `measured`, else `measured`. */
  readonly up: readonly [number, number, number];
  /** Degrees between `measured` and `up` (0 when `up` is the measured direction itself, no axis being within the snap). */
  readonly degrees: number;
}

/**
 * The widest angle, in degrees, between the measured legs and an axis that still counts as that axis. A rest
 * pose's legs are rarely exactly along its up: the Fox's hind legs bend at the hock (hip to hock 13.6° off
 * +y), the robot's, CesiumMan's and the CMU pirouette's hang 2.7–3.1° off; a rig is almost always built
 * along an axis, so an axis this near is taken as meant.
 */
export const LEGS_UP_SNAP_DEGREES = 20;

/** {@link legsUp} without the argument checks, for compileGraph and the linter (which pass resolved joints). */
export function legsUpUnchecked(rest: ArrayLike<number>, legs: ArrayLike<number>): LegsUp | undefined {
  const m = [0, 0, 0];
  for (let i = 0; i + 2 < legs.length; i += 3) for (let c = 0; c < 3; c++) m[c] = m[c]! + rest[3 * legs[i]! + c]! - rest[3 * legs[i + 2]! + c]!;
  const len = Math.hypot(m[0]!, m[1]!, m[2]!);
  if (!(len > 0 && len < Infinity)) return undefined;
  const measured = m.map((x) => x / len) as unknown as readonly [number, number, number];
  const k = measured.reduce((best, x, c) => (Math.abs(x) > Math.abs(measured[best]!) ? c : best), 0);
  const degrees = (Math.acos(Math.min(1, Math.abs(measured[k]!))) * 180) / Math.PI;
  if (degrees > LEGS_UP_SNAP_DEGREES) return { measured, up: measured, degrees: 0 };
  return { measured, up: measured.map((x, c) => (c === k ? Math.sign(x) : 0)) as unknown as readonly [number, number, number], degrees };
}

const vec = (v: ArrayLike<number>): string => `[${Array.from(v, (x) => Math.round(x * 1e3) / 1e3 || 0).join(", ")}]`;

/** The message of I_IK_UP_DERIVED. */
export function legsUpMessage(layer: string, found: LegsUp | undefined): string {
  return `IK layer "${layer}": no "up" given: ${found ? `${vec(found.up)}, from the legs' rest pose (feet to hips ${vec(found.measured)}, ${found.degrees.toFixed(1)}° off)` : "[0, 1, 0], the legs' rest pose shows none"}`;
}

/** The message of I_IK_PELVIS_DERIVED, or, without a pelvis, of the E_IK_NOT_A_CHAIN that refuses the layer. */
export function legsPelvisMessage(layer: string, pelvis: string | undefined): string {
  return `IK layer "${layer}": no "pelvis" given${pelvis === undefined ? " and no joint is above every leg" : `: "${pelvis}", the nearest joint above every leg`}`;
}

/** {@link legsPelvis} without the argument checks. */
export function legsPelvisUnchecked(parents: ArrayLike<number>, uppers: readonly number[]): number {
  // The first ancestor of the first upper joint that is above all of them.
  const above = (a: number, j: number): boolean => {
    for (let p = parents[j]!; p >= 0; p = parents[p]!) if (p === a) return true;
    return false;
  };
  if (uppers.length === 0) return -1;
  let p = parents[uppers[0]!]!;
  while (p >= 0 && !uppers.every((u) => above(p, u))) p = parents[p]!;
  return p;
}

/**
 * The up of a rig from its legs' rest pose: `rest` holds model-space positions (3 per joint, as
 * `modelFrames` gives them for the skeleton's rest pose), `legs` upper, middle and foot joint per leg. The
 * sum over legs of upper − foot, normalized, is `measured`; `up` is the nearest axis (±x, ±y, ±z) when within
 * {@link LEGS_UP_SNAP_DEGREES}, else `measured`. Undefined when the legs give no direction (every foot where
 * its hip is). What compileGraph uses for a foot-placement layer without `up` (docs/ik.md).
 */
export function legsUp(rest: ArrayLike<number>, legs: ArrayLike<number>): LegsUp | undefined {
  expectNumberArray("legsUp", "rest", rest);
  expectNumberArray("legsUp", "legs", legs, 3);
  if (legs.length % 3 !== 0) throw invalidValue("legsUp", "legs", `needs 3 joints per leg (upper, middle, foot), got ${legs.length} numbers`);
  for (let i = 0; i < legs.length; i++) expectInteger("legsUp", `legs[${i}]`, legs[i], 0, rest.length / 3 - 1);
  return legsUpUnchecked(rest, legs);
}

/**
 * The nearest joint above every joint of `uppers` (a layer's upper leg joints; the parent of the one upper
 * joint of a one-legged layer), −1 when there is none: what compileGraph lowers for a foot-placement layer
 * without `pelvis`. `parents` as `Skeleton.parents` (−1 for a root, parents before children).
 */
export function legsPelvis(parents: ArrayLike<number>, uppers: readonly number[]): number {
  expectNumberArray("legsPelvis", "parents", parents);
  expectArray("legsPelvis", "uppers", uppers);
  for (let j = 0; j < parents.length; j++) {
    const p = parents[j]!;
    if (!(Number.isInteger(p) && p >= -1 && p < j)) throw rangeError("legsPelvis", `parents[${j}]`, `-1 or a parent index below ${j} (parents before children, as Skeleton.parents)`, p);
  }
  uppers.forEach((u, i) => expectInteger("legsPelvis", `uppers[${i}]`, u, 0, parents.length - 1));
  return legsPelvisUnchecked(parents, uppers);
}
