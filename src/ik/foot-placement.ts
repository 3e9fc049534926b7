import { quatInvert, quatMultiply, quatRotateVec3, type QuatArray } from "../math/quat.ts";
import { expectFiniteNumber, expectFunction, expectInteger, expectNumberArray, expectOptionalObject, invalidValue } from "../errors/check-argument.ts";
import { solveTwoBoneIk, TWO_BONE_POLE_WEIGHT, TWO_BONE_SOFTNESS, TWO_BONE_WEIGHT } from "./two-bone-ik.ts";

/**
 * The ground under a point: writes the ground's height (along the job's `up`) below the model-space point
 * p[po..po+2] to out[o] and the ground's unit normal there to out[o + 1..o + 3]. Called once per leg per
 * call; it must not allocate if the frame loop is to stay allocation-free.
 */
export type GroundFunction = (out: Float64Array, o: number, p: Float64Array, po: number) => void;

/** Settings of {@link footPlacement}; keep one object and pass it every frame. */
export interface FootPlacementSettings {
  /** Unit up vector of model space. Default (0, 1, 0). */
  readonly up?: ArrayLike<number>;
  /** Height (along up) of the flat floor the animation was made on. Default 0. */
  readonly floor?: number;
  /** The most the pelvis may be lowered, in model units. Default: no limit (a ground offset counts at most 1,000 leg lengths). */
  readonly maxPelvisDrop?: number;
  /** 0–1, default 1: how far each foot tilts from `up` onto the ground's normal under it. */
  readonly alignToNormal?: number;
  /** The legs' soft limit (TwoBoneIkSettings.softness). Default 0.02. */
  readonly softness?: number;
  /** The knees' forward direction (the pole of a straight leg). Default (0, 0, 1). */
  readonly forward?: ArrayLike<number>;
}

/** A ground offset is clamped to this many lengths of its leg (see footPlacementUnchecked). */
const FAR_GROUND = 1000;

/** |upper − middle| + |middle − end| from model positions. */
function legLength(p: QuatArray, a: number, b: number, e: number): number {
  const x0 = p[3 * b]! - p[3 * a]!, y0 = p[3 * b + 1]! - p[3 * a + 1]!, z0 = p[3 * b + 2]! - p[3 * a + 2]!;
  const x1 = p[3 * e]! - p[3 * b]!, y1 = p[3 * e + 1]! - p[3 * b + 1]!, z1 = p[3 * e + 2]! - p[3 * b + 2]!;
  return Math.sqrt(x0 * x0 + y0 * y0 + z0 * z0) + Math.sqrt(x1 * x1 + y1 * y1 + z1 * z1);
}

/** Most legs one call places (a spider has eight). */
export const MAX_FOOT_PLACEMENT_LEGS = 8;

const Y_UP = [0, 1, 0];
const Z_FORWARD = [0, 0, 1];
const NO_SETTINGS: FootPlacementSettings = {};
const g = new Float64Array(4 * MAX_FOOT_PLACEMENT_LEGS);
const pt = new Float64Array(3);
const tgt = new Float64Array(3);
const pole = new Float64Array(3);
const solved = new Float64Array(8);
const rel = new Float64Array(4);
const inv = new Float64Array(4);
const d = new Float64Array(3);
const ikArgs = new Float64Array(4);

/**
 * Foot placement on uneven ground, in model space (the Unreal/Unity "foot IK" layer). The animation was made
 * on a flat floor at height `floor`; for each leg (`legs`: upper, middle and end joint per leg, e.g. thigh,
 * shin, ankle) the ground is sampled under the ankle and its offset from the floor (ground − floor) is
 * added to the ankle's height, so a planted foot stands on the ground and a lifted foot keeps its lift
 * above it. The pelvis is lowered by the most negative offset (the lower foot must reach: on a slope the
 * downhill leg would otherwise be too short), at most `maxPelvisDrop`, and each leg is then solved by
 * {@link twoBoneIk} (keeping its bend plane, with the soft limit) so its ankle reaches the new target; each
 * foot tilts onto the ground's normal by `alignToNormal`. Everything is scaled by `weight` (0–1).
 *
 * `rotations` and `positions` are model-space arrays of the whole skeleton (4 and 3 per joint), updated in
 * place for the pelvis (position), the leg joints (rotations and positions of upper, middle, end); other
 * joints are not touched: convert the changed joints back to local and let the rest follow. Returns the
 * pelvis offset along up (≤ 0). No allocation (given a ground function that allocates nothing).
 */
export function footPlacement(
  rotations: QuatArray, positions: QuatArray,
  pelvis: number, legs: ArrayLike<number>,
  ground: GroundFunction, weight: number,
  settings: FootPlacementSettings = NO_SETTINGS,
): number {
  const fn = "footPlacement";
  expectNumberArray(fn, "rotations", rotations);
  expectNumberArray(fn, "positions", positions);
  expectInteger(fn, "pelvis", pelvis);
  expectNumberArray(fn, "legs", legs);
  expectFunction(fn, "ground", ground);
  expectFiniteNumber(fn, "weight", weight);
  expectOptionalObject(fn, "settings", settings);
  expectDirection(fn, "settings.up", settings.up);
  expectDirection(fn, "settings.forward", settings.forward);
  const count = Math.floor(legs.length / 3);
  if (count > MAX_FOOT_PLACEMENT_LEGS || legs.length % 3 !== 0) throw invalidValue(fn, "legs", `needs 3 joints per leg for at most ${MAX_FOOT_PLACEMENT_LEGS} legs, got ${legs.length} numbers`);
  for (let k = -1; k < legs.length; k++) {
    const j = k < 0 ? pelvis : legs[k]!;
    if (k >= 0) expectInteger(fn, "legs[i]", j);
    if (4 * j + 4 > rotations.length || 3 * j + 3 > positions.length) throw invalidValue(fn, k < 0 ? "pelvis" : "legs", `joint ${j} is outside rotations (${rotations.length / 4} joints) or positions (${positions.length / 3})`);
  }
  placementArgs[0] = weight;
  footPlacementUnchecked(rotations, positions, pelvis, legs, ground, placementArgs, settings);
  return placementArgs[1]!;
}
const placementArgs = new Float64Array(2);

/** A constant direction, when given: three numbers of a finite, non-zero length (a zero `up` moved nothing). */
function expectDirection(fn: string, name: string, v: ArrayLike<number> | undefined): void {
  if (v === undefined) return;
  expectNumberArray(fn, name, v, 3);
  const square = v[0]! * v[0]! + v[1]! * v[1]! + v[2]! * v[2]!;
  if (!(square > 0 && square < Infinity)) throw invalidValue(fn, name, `(${v[0]}, ${v[1]}, ${v[2]}) has no direction (its squared length is ${square})`);
}

/**
 * {@link footPlacement} without the argument checks, for the graph's IK layers (validated at compile time):
 * the weight is read from args[0] and the pelvis offset written to args[1], so no double crosses the call.
 */
export function footPlacementUnchecked(
  rotations: QuatArray, positions: QuatArray,
  pelvis: number, legs: ArrayLike<number>,
  ground: GroundFunction, args: Float64Array,
  settings: FootPlacementSettings = NO_SETTINGS,
): void {
  const weight = args[0]!;
  args[1] = 0;
  const count = Math.floor(legs.length / 3);
  const w = weight > 0 ? (weight < 1 ? weight : 1) : 0;
  if (!(w > 0) || count === 0) return;
  const up = settings.up ?? Y_UP, fwd = settings.forward ?? Z_FORWARD;
  const ux = up[0]!, uy = up[1]!, uz = up[2]!;
  const floor = settings.floor ?? 0;
  const align = Math.min(1, Math.max(0, settings.alignToNormal ?? 1)) * w;
  ikArgs[TWO_BONE_WEIGHT] = 1;
  ikArgs[TWO_BONE_POLE_WEIGHT] = 0;
  ikArgs[TWO_BONE_SOFTNESS] = settings.softness ?? 0.02;

  // Ground under each ankle, and the pelvis drop: the lowest offset, never raised.
  let drop = 0;
  for (let i = 0; i < count; i++) {
    const e = legs[3 * i + 2]!;
    for (let c = 0; c < 3; c++) pt[c] = positions[3 * e + c]!;
    ground(g, 4 * i, pt, 0);
    const offset = g[4 * i]! - floor;
    // A ground more than FAR_GROUND leg lengths from the floor (a trace that missed, a parameter at
    // ±1e308) counts as that far: the foot's target is out of reach in the same direction either way, and
    // the pelvis drop and the positions stay far inside float32's range (the pose is float32).
    const reach = FAR_GROUND * legLength(positions, legs[3 * i]!, legs[3 * i + 1]!, e);
    g[4 * i] = Number.isFinite(offset) ? (offset > reach ? reach : offset < -reach ? -reach : offset) * w : 0;
    drop = Math.min(drop, g[4 * i]!);
  }
  const maxDrop = settings.maxPelvisDrop ?? Infinity;
  if (drop < -maxDrop) drop = -maxDrop;
  if (drop < 0) {
    positions[3 * pelvis] = positions[3 * pelvis]! + drop * ux;
    positions[3 * pelvis + 1] = positions[3 * pelvis + 1]! + drop * uy;
    positions[3 * pelvis + 2] = positions[3 * pelvis + 2]! + drop * uz;
    for (let k = 0; k < 3 * count; k++) {
      const j = legs[k]!;
      if (j === pelvis) continue;
      positions[3 * j] = positions[3 * j]! + drop * ux;
      positions[3 * j + 1] = positions[3 * j + 1]! + drop * uy;
      positions[3 * j + 2] = positions[3 * j + 2]! + drop * uz;
    }
  }

  for (let i = 0; i < count; i++) {
    const a = legs[3 * i]!, b = legs[3 * i + 1]!, e = legs[3 * i + 2]!;
    const lift = g[4 * i]! - drop;
    tgt[0] = positions[3 * e]! + lift * ux;
    tgt[1] = positions[3 * e + 1]! + lift * uy;
    tgt[2] = positions[3 * e + 2]! + lift * uz;
    for (let c = 0; c < 3; c++) pole[c] = fwd[c]!;
    solveTwoBoneIk(solved, 0, positions, 3 * a, 3 * b, 3 * e, rotations, 4 * a, 4 * b, tgt, 0, pole, 0, ikArgs);
    // New positions: the knee and the ankle carried by each bone's turn (new · old⁻¹).
    quatInvert(inv, 0, rotations, 4 * a);
    quatMultiply(rel, 0, solved, 0, inv, 0);
    for (let c = 0; c < 3; c++) d[c] = positions[3 * b + c]! - positions[3 * a + c]!;
    quatRotateVec3(d, 0, rel, 0, d, 0);
    const kx = positions[3 * a]! + d[0]!, ky = positions[3 * a + 1]! + d[1]!, kz = positions[3 * a + 2]! + d[2]!;
    quatInvert(inv, 0, rotations, 4 * b);
    quatMultiply(rel, 0, solved, 4, inv, 0);
    for (let c = 0; c < 3; c++) d[c] = positions[3 * e + c]! - positions[3 * b + c]!;
    quatRotateVec3(d, 0, rel, 0, d, 0);
    positions[3 * b] = kx; positions[3 * b + 1] = ky; positions[3 * b + 2] = kz;
    for (let c = 0; c < 3; c++) positions[3 * e + c] = positions[3 * b + c]! + d[c]!;
    for (let c = 0; c < 4; c++) {
      rotations[4 * a + c] = solved[c]!;
      rotations[4 * b + c] = solved[4 + c]!;
    }
    // The foot's tilt: the swing from up onto the ground normal, scaled by `align`.
    const nx = g[4 * i + 1]!, ny = g[4 * i + 2]!, nz = g[4 * i + 3]!;
    const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(align > 0 && nl > 0)) continue;
    const ax = uy * nz - uz * ny, ay = uz * nx - ux * nz, az = ux * ny - uy * nx;
    const sin = Math.sqrt(ax * ax + ay * ay + az * az) / nl, cos = (ux * nx + uy * ny + uz * nz) / nl;
    if (!(sin > 1e-12)) continue;
    // The swing as a quaternion, computed here: a double passed to a call V8 does not inline is boxed.
    const half = (align * Math.atan2(sin, cos)) / 2, al = Math.sqrt(ax * ax + ay * ay + az * az);
    const sn = Math.sin(half) / al;
    rel[0] = ax * sn;
    rel[1] = ay * sn;
    rel[2] = az * sn;
    rel[3] = Math.cos(half);
    quatMultiply(rotations, 4 * e, rel, 0, rotations, 4 * e);
  }
  args[1] = drop < 0 ? drop : 0;
}
