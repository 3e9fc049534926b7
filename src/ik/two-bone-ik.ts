import { expectFiniteNumber, expectInteger, expectNumberArray, expectOptionalObject } from "../errors/check-argument.ts";
import { quatMultiply, quatRotateVec3, type QuatArray } from "../math/quat.ts";

// Scratch for the solver: module-level so a call allocates nothing (the job is synchronous).
const v = new Float64Array(40);
const q = new Float64Array(12);
const A = 0, B = 3, C = 6, T = 9, P = 12, H = 15, W = 18, X = 21, K = 24;
// Scalar slots: doubles travel through these, never as arguments or results of a call (V8 boxes a double
// that crosses a call it did not inline: one heap number per frame; docs/performance.md, "Allocation").
const AX = 27, L1 = 31, L2 = 32, D = 33, ANGLE = 34, POLE_W = 35;
/** `solveTwoBoneIk`'s numbers: [weight, pole weight, softness] in, [3] the distance left out. */
export const TWO_BONE_WEIGHT = 0, TWO_BONE_POLE_WEIGHT = 1, TWO_BONE_SOFTNESS = 2, TWO_BONE_LEFT = 3;
const publicArgs = new Float64Array(4);

/** Optional settings of {@link twoBoneIk}; keep one object and pass it every frame (nothing is allocated). */
export interface TwoBoneIkSettings {
  /**
   * 0–1, default 0: how far the solved chain then turns about the line from the upper joint to the target
   * so that the middle joint points at the pole (a knee forward, an elbow back), like Unreal's joint target
   * and Unity's hint weight. 0 keeps the current bend plane (the pole then decides only a straight chain).
   */
  readonly poleWeight?: number;
  /**
   * Soft limit against the knee pop, a fraction of the chain's length l1 + l2 (0–0.5, default 0 = hard).
   * With L = l1 + l2 and k = max((1 − s)·L, the chain's current extension), a target at distance d > k is
   * reached at k + (L − k)·(1 − e^−(d − k)/(L − k)) (Nicholas's soft IK): the chain straightens smoothly and
   * never snaps straight, so the end lags a little behind a target near full reach instead of the knee
   * popping as the target passes it. Starting the zone no nearer than the current extension keeps a target
   * at the current end exact (a layer whose target has not moved changes nothing).
   */
  readonly softness?: number;
}

const NO_SETTINGS: TwoBoneIkSettings = {};
const QA = 0, QB = 4, R = 8;

/**
 * Analytic two-bone IK (a thigh and a shin, an upper arm and a forearm), in model space.
 *
 * Inputs: the model positions of the upper joint `a` (hip), the middle joint `b` (knee) and the chain's
 * end `c` (ankle), the model rotations of the upper and middle joints, the `target` the end should reach
 * and a `pole`: the direction the middle joint should point towards (a knee points forward, an elbow
 * back). Writes the new model rotations of the upper joint (out[o..o+3]) and of the middle joint
 * (out[o+4..o+7]); descendants keep their model rotations or follow, as the caller decides.
 *
 * Method: (1) the middle joint turns about its hinge axis so |c − a| equals the (clamped) target
 * distance, by the law of cosines; the hinge is the plane normal b−a × c−b of the current bend, or, when
 * the chain is straight, pole × (b − a) so it bends with the middle joint towards the pole; (2) the whole
 * chain swings about `a` by the smallest rotation taking the new end direction onto the target direction.
 * The current bend plane is kept (so a transferred knee direction survives); the pole only decides a
 * straight chain. The target distance is clamped to [|l1 − l2|, l1 + l2]·(1 ∓ 1e-9): an unreachable
 * target is reached as closely as the bone lengths allow, in its direction.
 *
 * `weight` (0–1) moves the effective target from the current end towards `target`. `settings` adds a
 * pole weight (turn the bend plane towards the pole) and a soft limit (see {@link TwoBoneIkSettings}).
 * Returns the distance left between the solved end and `target` (0 when reached, up to rounding). No
 * allocation. All inputs are read before `out` is written, so `out` may alias `rotations` (e.g. write
 * back in place). Degenerate input (zero-length bones, a target at the upper joint) gives finite unit
 * rotations, never NaN.
 */
export function twoBoneIk(
  out: QuatArray, o: number,
  positions: QuatArray, upperAt: number, middleAt: number, endAt: number,
  rotations: QuatArray, upperRotAt: number, middleRotAt: number,
  target: QuatArray, targetAt: number,
  pole: QuatArray, poleAt: number,
  weight: number,
  settings: TwoBoneIkSettings = NO_SETTINGS,
): number {
  const fn = "twoBoneIk";
  expectInteger(fn, "o", o);
  expectNumberArray(fn, "out", out, o + 8);
  for (const [name, at] of [["upperAt", upperAt], ["middleAt", middleAt], ["endAt", endAt]] as const) {
    expectInteger(fn, name, at);
    expectNumberArray(fn, "positions", positions, at + 3);
  }
  expectInteger(fn, "upperRotAt", upperRotAt);
  expectInteger(fn, "middleRotAt", middleRotAt);
  expectNumberArray(fn, "rotations", rotations, Math.max(upperRotAt, middleRotAt) + 4);
  expectInteger(fn, "targetAt", targetAt);
  expectNumberArray(fn, "target", target, targetAt + 3);
  expectInteger(fn, "poleAt", poleAt);
  expectNumberArray(fn, "pole", pole, poleAt + 3);
  expectFiniteNumber(fn, "weight", weight);
  expectOptionalObject(fn, "settings", settings);
  if (settings.poleWeight !== undefined) expectFiniteNumber(fn, "settings.poleWeight", settings.poleWeight);
  if (settings.softness !== undefined) expectFiniteNumber(fn, "settings.softness", settings.softness);
  publicArgs[TWO_BONE_WEIGHT] = weight;
  publicArgs[TWO_BONE_POLE_WEIGHT] = settings.poleWeight ?? 0;
  publicArgs[TWO_BONE_SOFTNESS] = settings.softness ?? 0;
  solveTwoBoneIk(out, o, positions, upperAt, middleAt, endAt, rotations, upperRotAt, middleRotAt, target, targetAt, pole, poleAt, publicArgs);
  return publicArgs[TWO_BONE_LEFT]!;
}

/**
 * {@link twoBoneIk} without the argument checks, for the library's own per-frame loops: the weight, pole
 * weight and softness are read from args[TWO_BONE_WEIGHT…TWO_BONE_SOFTNESS] and the distance left is
 * written to args[TWO_BONE_LEFT], so no double crosses the call.
 */
export function solveTwoBoneIk(
  out: QuatArray, o: number,
  positions: QuatArray, upperAt: number, middleAt: number, endAt: number,
  rotations: QuatArray, upperRotAt: number, middleRotAt: number,
  target: QuatArray, targetAt: number,
  pole: QuatArray, poleAt: number,
  args: Float64Array,
): void {
  const pw = args[TWO_BONE_POLE_WEIGHT]!, sw = args[TWO_BONE_SOFTNESS]!, weight = args[TWO_BONE_WEIGHT]!;
  const poleWeight = pw > 0 ? (pw < 1 ? pw : 1) : 0;
  const softness = sw > 0 ? (sw < 0.5 ? sw : 0.5) : 0;
  for (let c = 0; c < 3; c++) {
    v[A + c] = positions[upperAt + c]!;
    v[B + c] = positions[middleAt + c]!;
    v[C + c] = positions[endAt + c]!;
    v[P + c] = pole[poleAt + c]!;
  }
  const w = weight > 0 ? (weight < 1 ? weight : 1) : 0;
  for (let c = 0; c < 3; c++) v[T + c] = v[C + c]! + w * (target[targetAt + c]! - v[C + c]!);
  for (let c = 0; c < 4; c++) {
    q[QA + c] = rotations[upperRotAt + c]!;
    q[QB + c] = rotations[middleRotAt + c]!;
  }
  const l1 = Math.sqrt((v[B]! - v[A]!) * (v[B]! - v[A]!) + (v[B + 1]! - v[A + 1]!) * (v[B + 1]! - v[A + 1]!) + (v[B + 2]! - v[A + 2]!) * (v[B + 2]! - v[A + 2]!));
  const l2 = Math.sqrt((v[C]! - v[B]!) * (v[C]! - v[B]!) + (v[C + 1]! - v[B + 1]!) * (v[C + 1]! - v[B + 1]!) + (v[C + 2]! - v[B + 2]!) * (v[C + 2]! - v[B + 2]!));
  const lt = Math.sqrt((v[T]! - v[A]!) * (v[T]! - v[A]!) + (v[T + 1]! - v[A + 1]!) * (v[T + 1]! - v[A + 1]!) + (v[T + 2]! - v[A + 2]!) * (v[T + 2]! - v[A + 2]!));
  const lc = Math.sqrt((v[C]! - v[A]!) * (v[C]! - v[A]!) + (v[C + 1]! - v[A + 1]!) * (v[C + 1]! - v[A + 1]!) + (v[C + 2]! - v[A + 2]!) * (v[C + 2]! - v[A + 2]!));
  const lo = Math.abs(l1 - l2) * (1 + 1e-9), hi = (l1 + l2) * (1 - 1e-9);
  // Soft limit: beyond `knee` the reach approaches l1 + l2 exponentially. The zone starts no nearer than
  // the current extension, so a target where the end already is stays exact (a layer at rest is identity).
  let reach = lt;
  const knee = Math.max(l1 + l2 - softness * (l1 + l2), lc), soft = l1 + l2 - knee;
  if (softness > 0 && soft > 0 && reach > knee) reach = knee + soft * (1 - Math.exp(-(reach - knee) / soft));
  const want = Math.min(Math.max(reach, lo), hi);
  // (1) bend: interior angle at the middle joint, current and wanted.
  v[L1] = l1;
  v[L2] = l2;
  v[D] = lc;
  interiorAngle();
  const cur = v[ANGLE]!;
  v[D] = want;
  interiorAngle();
  const next = v[ANGLE]!;
  // Hinge axis H = (b − a) × (c − b); when straight, pole × (b − a).
  crossOf(H, B, A, C, B);
  let hl = Math.sqrt((v[H]!) * (v[H]!) + (v[H + 1]!) * (v[H + 1]!) + (v[H + 2]!) * (v[H + 2]!));
  if (!(hl > 1e-9 * l1 * l2)) {
    for (let c = 0; c < 3; c++) v[W + c] = v[B + c]! - v[A + c]!;
    v[H] = v[P + 1]! * v[W + 2]! - v[P + 2]! * v[W + 1]!;
    v[H + 1] = v[P + 2]! * v[W]! - v[P]! * v[W + 2]!;
    v[H + 2] = v[P]! * v[W + 1]! - v[P + 1]! * v[W]!;
    hl = Math.sqrt((v[H]!) * (v[H]!) + (v[H + 1]!) * (v[H + 1]!) + (v[H + 2]!) * (v[H + 2]!));
    if (!(hl > 1e-12 * l1)) {
      // The pole lies along the upper bone too: bend about any axis perpendicular to it.
      const ax = Math.abs(v[W]!), ay = Math.abs(v[W + 1]!), az = Math.abs(v[W + 2]!);
      const e = ax <= ay && ax <= az ? 0 : ay <= az ? 1 : 2;
      v[H] = e === 0 ? 0 : e === 1 ? v[W + 2]! : -v[W + 1]!;
      v[H + 1] = e === 0 ? -v[W + 2]! : e === 1 ? 0 : v[W]!;
      v[H + 2] = e === 0 ? v[W + 1]! : e === 1 ? -v[W]! : 0;
      hl = Math.sqrt((v[H]!) * (v[H]!) + (v[H + 1]!) * (v[H + 1]!) + (v[H + 2]!) * (v[H + 2]!));
    }
  }
  if (hl > 0 && l1 > 0 && l2 > 0) {
    // Rotating (c − b) about H by +θ bends it further from the line of (b − a): the bend grows by
    // cur − next when the interior angle shrinks from cur to next.
    v[AX] = v[H]!;
    v[AX + 1] = v[H + 1]!;
    v[AX + 2] = v[H + 2]!;
    v[AX + 3] = cur - next;
    axisAngle();
    quatMultiply(q, QB, q, R, q, QB);
    for (let c = 0; c < 3; c++) v[W + c] = v[C + c]! - v[B + c]!;
    quatRotateVec3(v, W, q, R, v, W);
    for (let c = 0; c < 3; c++) v[C + c] = v[B + c]! + v[W + c]!;
  }
  // (2) swing the chain about a: (c − a) onto (t − a).
  for (let c = 0; c < 3; c++) {
    v[W + c] = v[C + c]! - v[A + c]!;
    v[X + c] = v[T + c]! - v[A + c]!;
  }
  const wx = v[W]!, wy = v[W + 1]!, wz = v[W + 2]!, tx = v[X]!, ty = v[X + 1]!, tz = v[X + 2]!;
  const ax = wy * tz - wz * ty, ay = wz * tx - wx * tz, az = wx * ty - wy * tx;
  const sin = Math.sqrt(ax * ax + ay * ay + az * az), cos = wx * tx + wy * ty + wz * tz;
  for (let c = 0; c < 3; c++) v[K + c] = v[B + c]! - v[A + c]!;
  if (sin > 1e-12 * Math.sqrt(wx * wx + wy * wy + wz * wz) * Math.sqrt(tx * tx + ty * ty + tz * tz)) {
    v[AX] = ax;
    v[AX + 1] = ay;
    v[AX + 2] = az;
    v[AX + 3] = Math.atan2(sin, cos);
    axisAngle();
    quatMultiply(q, QA, q, R, q, QA);
    quatMultiply(q, QB, q, R, q, QB);
    quatRotateVec3(v, W, q, R, v, W);
    quatRotateVec3(v, K, q, R, v, K);
  }
  v[POLE_W] = poleWeight;
  if (poleWeight > 0) turnTowardsPole();
  for (let c = 0; c < 4; c++) {
    out[o + c] = q[QA + c]!;
    out[o + 4 + c] = q[QB + c]!;
  }
  // Distance from the solved end (a + W) to the requested target.
  let d2 = 0;
  for (let c = 0; c < 3; c++) {
    const e = v[A + c]! + v[W + c]! - target[targetAt + c]!;
    d2 += e * e;
  }
  args[TWO_BONE_LEFT] = Math.sqrt(d2);
}

/**
 * (3) the pole: turns the solved chain about its root→end axis (v[W], the end relative to the root) so
 * that the middle joint (v[K], relative to the root) swings by `poleWeight` of the angle between the two
 * directions' parts perpendicular to that axis. The end stays where it is.
 */
function turnTowardsPole(): void {
  const poleWeight = v[POLE_W]!;
  const ul = Math.sqrt((v[W]!) * (v[W]!) + (v[W + 1]!) * (v[W + 1]!) + (v[W + 2]!) * (v[W + 2]!));
  if (!(ul > 0)) return;
  const ux = v[W]! / ul, uy = v[W + 1]! / ul, uz = v[W + 2]! / ul;
  const kd = v[K]! * ux + v[K + 1]! * uy + v[K + 2]! * uz;
  const kx = v[K]! - kd * ux, ky = v[K + 1]! - kd * uy, kz = v[K + 2]! - kd * uz;
  const pd = v[P]! * ux + v[P + 1]! * uy + v[P + 2]! * uz;
  const px = v[P]! - pd * ux, py = v[P + 1]! - pd * uy, pz = v[P + 2]! - pd * uz;
  const kl = Math.sqrt(kx * kx + ky * ky + kz * kz), pl = Math.sqrt(px * px + py * py + pz * pz);
  if (!(kl > 1e-12 * ul && pl > 1e-12 * Math.sqrt((v[P]!) * (v[P]!) + (v[P + 1]!) * (v[P + 1]!) + (v[P + 2]!) * (v[P + 2]!)))) return;
  // Signed angle from k to p about u.
  const cx = ky * pz - kz * py, cy = kz * px - kx * pz, cz = kx * py - ky * px;
  const angle = Math.atan2(cx * ux + cy * uy + cz * uz, kx * px + ky * py + kz * pz);
  v[AX] = ux;
  v[AX + 1] = uy;
  v[AX + 2] = uz;
  v[AX + 3] = poleWeight * angle;
  axisAngle();
  quatMultiply(q, QA, q, R, q, QA);
  quatMultiply(q, QB, q, R, q, QB);
}

/**
 * The rotation of v[AX + 3] radians about the axis v[AX..AX+2] into q[R..R+3] (a zero axis: identity), with
 * a tiny axis scaled up first: the squares of components near 1e-160 are denormal, and their square root
 * too inexact to normalise the axis (the rotation would not be unit).
 */
function axisAngle(): void {
  let ax = v[AX]!, ay = v[AX + 1]!, az = v[AX + 2]!;
  const m = Math.max(Math.max(Math.abs(ax), Math.abs(ay)), Math.abs(az));
  if (m > 0 && m < 1e-100) {
    ax /= m;
    ay /= m;
    az /= m;
  }
  const len = Math.sqrt(ax * ax + ay * ay + az * az);
  if (!(len > 0)) {
    q[R] = 0; q[R + 1] = 0; q[R + 2] = 0; q[R + 3] = 1;
    return;
  }
  const half = v[AX + 3]! / 2;
  const sn = Math.sin(half) / len;
  q[R] = ax * sn;
  q[R + 1] = ay * sn;
  q[R + 2] = az * sn;
  q[R + 3] = Math.cos(half);
}

/** (v[i] − v[j]) × (v[k] − v[l]) into v[out]. */
function crossOf(out: number, i: number, j: number, k: number, l: number): void {
  const x1 = v[i]! - v[j]!, y1 = v[i + 1]! - v[j + 1]!, z1 = v[i + 2]! - v[j + 2]!;
  const x2 = v[k]! - v[l]!, y2 = v[k + 1]! - v[l + 1]!, z2 = v[k + 2]! - v[l + 2]!;
  v[out] = y1 * z2 - z1 * y2;
  v[out + 1] = z1 * x2 - x1 * z2;
  v[out + 2] = x1 * y2 - y1 * x2;
}

/** Angle at the middle joint of a triangle with sides v[L1], v[L2] around it and v[D] opposite (law of cosines), into v[ANGLE]. */
function interiorAngle(): void {
  const l1 = v[L1]!, l2 = v[L2]!, d = v[D]!;
  if (!(l1 > 0 && l2 > 0)) {
    v[ANGLE] = Math.PI;
    return;
  }
  // In units of the longer bone, so tiny (denormal) lengths do not square to 0.
  const m = Math.max(l1, l2), a = l1 / m, b = l2 / m, e = d / m;
  const c = (a * a + b * b - e * e) / (2 * a * b);
  v[ANGLE] = c >= 1 ? 0 : c <= -1 ? Math.PI : c === c ? Math.acos(c) : Math.PI;
}
