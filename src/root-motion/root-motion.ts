// Root motion: the root joint's horizontal travel and yaw are taken out of the pose (which then stays in
// place) and handed to the game as a per-step displacement of the character (docs/blending.md,
// "Root motion").
import type { Clip, JointTrack, LoopMode } from "../clip/clip.ts";
import { sampleTrackAt } from "../clip/sample-track.ts";
import { contributes } from "../blend/normalize-weights.ts";
import { quatConjugate, quatMultiply, quatRotateVec3, quatTwistAngle, quatTwistAngleAt } from "../math/quat.ts";
import type { Pose } from "../pose/pose.ts";
import { argumentError, expectArray, expectInteger, expectNumber, expectNumberArray, expectOneOf, expectPose, rangeError } from "../errors/check-argument.ts";
import { expectShape, type FieldKind } from "../errors/check-shape.ts";
import { expectWholeClip } from "../clip/check-clip.ts";
import { expectDelta, expectLoopMode, expectRootMotionExtractor, rememberExtractor } from "./check-root-motion.ts";

/** Options of `createRootMotionExtractor`. */
export interface RootMotionOptions {
  /** The model-space up axis. Default "y" (glTF). */
  readonly up?: "x" | "y" | "z";
  /** Keep vertical motion (bobbing, jumps) in the pose rather than extracting it. Default true. */
  readonly keepVertical?: boolean;
  /** Extract rotation about the up axis (turning) as well. Default true. */
  readonly extractYaw?: boolean;
}

/**
 * Precomputed root-motion data for one clip and joint: an immutable asset (its only mutable member is
 * the two-entry search hint). The joint's ancestors are taken at their rest pose.
 */
export interface RootMotionExtractor {
  readonly clip: Clip;
  /** The joint that carries the travel (Fox: `b_Hip_01`; a glTF root node often). */
  readonly joint: number;
  readonly keepVertical: boolean;
  readonly extractYaw: boolean;
  /** Unit up axis in model space. */
  readonly upModel: Float64Array;
  /** Unit up axis in the joint's parent space. */
  readonly upLocal: Float64Array;
  /** Rest rotation of the joint's parent in model space (ancestor chain), x y z w. */
  readonly parentRotation: Float64Array;
  /** Uniform scale of the ancestor chain (product of the mean rest scales). */
  readonly parentScale: number;
  /** Joint translation (parent space) at time 0. */
  readonly startTranslation: Float64Array;
  /** The joint's twist about upLocal at time 0, as a unit quaternion (identity without yaw extraction). */
  readonly startTwist: Float64Array;
  /** The same twist as an angle, radians. */
  readonly startYaw: number;
  /** Key-segment hints for the translation and rotation tracks. */
  readonly hints: Int32Array;
}

const OPTIONS_SHAPE: Readonly<Record<string, FieldKind>> = { up: "string?", keepVertical: "boolean?", extractYaw: "boolean?" };
const UP_AXES: readonly ("x" | "y" | "z")[] = ["x", "y", "z"];

/**
 * Creates an extractor for `clip`'s joint `rootJoint` (index). A joint out of range is
 * AnimgraphError ERR_OUT_OF_RANGE; a wrong-typed argument ERR_ARGUMENT.
 */
export function createRootMotionExtractor(clip: Clip, rootJoint: number, options: RootMotionOptions = {}): RootMotionExtractor {
  const fn = "createRootMotionExtractor";
  expectWholeClip(fn, "clip", clip);
  const skeleton = clip.skeleton;
  expectInteger(fn, "rootJoint", rootJoint, 0, Math.max(0, skeleton.jointCount - 1));
  if (skeleton.jointCount === 0) throw rangeError(fn, "rootJoint", "a joint of the clip's skeleton, which has none", rootJoint);
  expectShape(fn, "options", options, "a RootMotionOptions object ({ up?, keepVertical?, extractYaw? })", OPTIONS_SHAPE);
  if (options.up !== undefined) expectOneOf(fn, "options.up", options.up, UP_AXES);
  const made = createRootMotionExtractorUnchecked(clip, rootJoint, options);
  rememberExtractor(made);
  return made;
}

/** `createRootMotionExtractor` without the argument checks: what compileGraph calls for its validated clips. */
export function createRootMotionExtractorUnchecked(clip: Clip, rootJoint: number, options: RootMotionOptions = {}): RootMotionExtractor {
  const skeleton = clip.skeleton;
  const parentRotation = new Float64Array([0, 0, 0, 1]);
  let parentScale = 1;
  const rest = skeleton.rest;
  // Model rotation of the parent = r_root · … · r_parent (ancestors applied outermost first).
  for (let a = skeleton.parents[rootJoint]!; a >= 0; a = skeleton.parents[a]!) {
    quatMultiply(parentRotation, 0, rest.r, 4 * a, parentRotation, 0);
    parentScale *= (rest.s[3 * a]! + rest.s[3 * a + 1]! + rest.s[3 * a + 2]!) / 3;
  }
  const upModel = new Float64Array([options.up === "x" ? 1 : 0, (options.up ?? "y") === "y" ? 1 : 0, options.up === "z" ? 1 : 0]);
  const inv = quatConjugate(new Float64Array(4), 0, parentRotation, 0);
  const upLocal = quatRotateVec3(new Float64Array(3), 0, inv, 0, upModel, 0);
  const startTranslation = new Float64Array(3);
  const startTwist = new Float64Array([0, 0, 0, 1]);
  const extractor: RootMotionExtractor = {
    clip,
    joint: rootJoint,
    keepVertical: options.keepVertical ?? true,
    extractYaw: options.extractYaw ?? true,
    upModel,
    upLocal,
    parentRotation,
    parentScale,
    startTranslation,
    startTwist,
    startYaw: 0,
    hints: new Int32Array(2),
  };
  // Time 0 is at or before every track's first key, so this copies stored keys: no rounding, no trig.
  const q = new Float64Array(4);
  sampleRoot(extractor, new Float64Array(1), 0, startTranslation, q);
  if (extractor.extractYaw) twistOf(startTwist, q, upLocal);
  return { ...extractor, startYaw: quatTwistAngle(q, 0, upLocal[0]!, upLocal[1]!, upLocal[2]!) };
}

function track(extractor: RootMotionExtractor, slot: 0 | 1): JointTrack | undefined {
  const index = extractor.clip.trackIndex[3 * extractor.joint + slot]!;
  return index >= 0 ? extractor.clip.tracks[index] : undefined;
}

/**
 * Samples the joint's translation (parent space) and rotation at clip time ts[ti]. Rotations use the
 * deterministic fast slerp, so root motion is bit-identical on every engine.
 */
function sampleRoot(extractor: RootMotionExtractor, ts: Float64Array, ti: number, outT: Float64Array, outR: Float64Array): void {
  const rest = extractor.clip.skeleton.rest;
  const j = extractor.joint;
  const tt = track(extractor, 0);
  if (tt) extractor.hints[0] = sampleTrackAt(outT, 0, tt.times, tt.values, 3, tt.interpolation, false, "fastSlerp", ts, ti, extractor.hints[0]!);
  else for (let c = 0; c < 3; c++) outT[c] = rest.t[3 * j + c]!;
  const rt = track(extractor, 1);
  if (rt) extractor.hints[1] = sampleTrackAt(outR, 0, rt.times, rt.values, 4, rt.interpolation, true, "fastSlerp", ts, ti, extractor.hints[1]!);
  else for (let c = 0; c < 4; c++) outR[c] = rest.r[4 * j + c]!;
}

/**
 * The twist of q about the unit axis u as a unit quaternion: normalize(u·(q.xyz · u), q.w) (swing–twist
 * decomposition, only + − × ÷ √). A rotation by π about a horizontal axis has no defined twist: identity.
 */
function twistOf(out: Float64Array, q: ArrayLike<number>, u: Float64Array, qo = 0): void {
  const p = q[qo]! * u[0]! + q[qo + 1]! * u[1]! + q[qo + 2]! * u[2]!;
  const w = q[qo + 3]!;
  const n = Math.sqrt(p * p + w * w);
  if (!(n > 1e-12)) {
    out[0] = out[1] = out[2] = 0;
    out[3] = 1;
    return;
  }
  out[0] = (p * u[0]!) / n;
  out[1] = (p * u[1]!) / n;
  out[2] = (p * u[2]!) / n;
  out[3] = w / n;
}

const tA = new Float64Array(3), tB = new Float64Array(3), qA = new Float64Array(4), qB = new Float64Array(4);
const twA = new Float64Array(4), twB = new Float64Array(4), rot = new Float64Array(4), vec = new Float64Array(3);
// The running total in the joint's parent space: displacement (in the frame at t0) and the turn, a
// rotation about upLocal.
const accD = new Float64Array(3), accR = new Float64Array(4);
const segD = new Float64Array(3), segR = new Float64Array(4);
// Clip times go to `segment` in memory, not as arguments: a double passed to a call V8 does not
// inline is boxed into a new heap number (src/math/quat.ts explains), and this runs every frame.
const segTimes = new Float64Array(2);
const args = new Float64Array(2);

/** Motion from clip time a = segTimes[0] to b = segTimes[1] within one cycle, in parent space and the character frame at a. */
function segment(extractor: RootMotionExtractor): void {
  const u = extractor.upLocal;
  sampleRoot(extractor, segTimes, 0, tA, qA);
  sampleRoot(extractor, segTimes, 1, tB, qB);
  let dx = tB[0]! - tA[0]!, dy = tB[1]! - tA[1]!, dz = tB[2]! - tA[2]!;
  if (extractor.keepVertical) {
    const v = dx * u[0]! + dy * u[1]! + dz * u[2]!;
    dx -= v * u[0]!; dy -= v * u[1]!; dz -= v * u[2]!;
  }
  segD[0] = dx; segD[1] = dy; segD[2] = dz;
  if (!extractor.extractYaw) {
    segR[0] = segR[1] = segR[2] = 0;
    segR[3] = 1;
    return;
  }
  twistOf(twA, qA, u);
  twistOf(twB, qB, u);
  // Undo the yaw the character has already been given since the start: rotate by twist0 · twist(a)⁻¹.
  quatConjugate(twA, 0, twA, 0);
  quatMultiply(rot, 0, extractor.startTwist, 0, twA, 0);
  quatRotateVec3(segD, 0, rot, 0, segD, 0);
  quatMultiply(segR, 0, twB, 0, twA, 0); // twist(b) · twist(a)⁻¹
}

/** acc ← acc ∘ seg: the segment's displacement is turned by the yaw accumulated so far. */
function compose(): void {
  quatRotateVec3(vec, 0, accR, 0, segD, 0);
  accD[0] = accD[0]! + vec[0]!;
  accD[1] = accD[1]! + vec[1]!;
  accD[2] = accD[2]! + vec[2]!;
  quatMultiply(accR, 0, segR, 0, accR, 0);
}

/** Cycles crossed one by one in a frame; more are composed arithmetically (`wholeCycles`). */
const MAX_CYCLES_WALKED = 4;

// A cycle piece's [m, a, b] go to `cyclePiece` in memory: doubles passed as arguments would be boxed.
const piece = new Float64Array(3);

/** acc ← acc ∘ (motion from a to b, clamped to [0, d], within cycle m = piece[0..2]; pingpong plays odd cycles backwards). */
function cyclePiece(extractor: RootMotionExtractor, loopMode: LoopMode): void {
  const d = extractor.clip.duration;
  const m = piece[0]!;
  let a = piece[1]!, b = piece[2]!;
  if (a < 0) a = 0;
  if (b > d) b = d;
  if (!(b > a)) return;
  const backwards = loopMode === "pingpong" && m % 2 !== 0;
  segTimes[0] = backwards ? d - a : a;
  segTimes[1] = backwards ? d - b : b;
  segment(extractor);
  compose();
}

const powD = new Float64Array(3), powR = new Float64Array(4), sumD = new Float64Array(3), sumR = new Float64Array(4);

/**
 * acc ← acc ∘ (n whole cycles from cycle `first`): one period's motion (one cycle, or a forward and a
 * backward one for pingpong) raised to the power by repeated squaring, so the work is logarithmic in n.
 * Only + − × ÷ √, like the rest.
 */
function wholeCycles(extractor: RootMotionExtractor, first: number, n: number, loopMode: LoopMode): void {
  if (!(n > 0)) return;
  const period = loopMode === "pingpong" ? 2 : 1;
  // Lead-in: whole cycles until a period boundary (pingpong starting on an odd cycle).
  let lead = loopMode === "pingpong" ? ((first % 2) + 2) % 2 : 0;
  if (lead > n) lead = n;
  for (let i = 0; i < lead; i++) wholeCycle(extractor, first + i, loopMode);
  let periods = Math.floor((n - lead) / period);
  const rest = n - lead - periods * period;
  // The period's motion into pow*, using acc as scratch (saved in sum*).
  sumD.set(accD); sumR.set(accR);
  accD.fill(0); accR[0] = accR[1] = accR[2] = 0; accR[3] = 1;
  for (let i = 0; i < period; i++) wholeCycle(extractor, i, loopMode);
  powD.set(accD); powR.set(accR);
  accD.set(sumD); accR.set(sumR);
  // acc ∘ pow^periods, by squaring: fold pow in on each set bit, square pow each round.
  for (let guard = 0; periods > 0 && guard < 1100; guard++) {
    if (periods % 2 === 1) composeWith(accD, accR, powD, powR);
    periods = Math.floor(periods / 2);
    if (periods > 0) {
      sumD.set(powD); sumR.set(powR);
      composeWith(powD, powR, sumD, sumR);
    }
  }
  for (let i = 0; i < rest; i++) wholeCycle(extractor, i, loopMode);
}

/** acc ← acc ∘ (all of cycle m). Only on the rare many-cycles path, so its arguments may box. */
function wholeCycle(extractor: RootMotionExtractor, m: number, loopMode: LoopMode): void {
  piece[0] = m; piece[1] = 0; piece[2] = extractor.clip.duration;
  cyclePiece(extractor, loopMode);
}

/** (D, R) ← (D, R) ∘ (E, S): D + R·E and S·R, as `compose` does with a segment. */
function composeWith(D: Float64Array, R: Float64Array, E: Float64Array, S: Float64Array): void {
  quatRotateVec3(vec, 0, R, 0, E, 0);
  D[0] = D[0]! + vec[0]!;
  D[1] = D[1]! + vec[1]!;
  D[2] = D[2]! + vec[2]!;
  quatMultiply(R, 0, S, 0, R, 0);
}

/**
 * The root motion between playback times t0 and t1 (seconds, **unwrapped**: the values the clip's local
 * clock had at the two frames, before `wrapTime`) under `loopMode`, into outDelta = [dx, dy, dz, dyaw]:
 * the displacement in model units, expressed in the character's frame at t0 (rotate it by the
 * character's orientation before adding it to its position), and the yaw change in radians about the up
 * axis. When outDelta has 8 entries, [4..7] also receives the turn as a model-space quaternion
 * (x, y, z, w). Across a loop boundary the motion is summed per piece — (end − t0) then (t1 − start),
 * composed — so a looping walk never jumps back. Pingpong pieces play backwards on odd cycles; clamp
 * holds at the ends. t1 < t0 gives the inverse motion. Everything but the final yaw angle uses only
 * + − × ÷ √ (deterministic). No allocation (uses module scratch; not re-entrant).
 */
export function extractRootMotion(outDelta: Float32Array | Float64Array, extractor: RootMotionExtractor, t0: number, t1: number, loopMode: LoopMode): Float32Array | Float64Array {
  // Called every frame: type tests only, and the extractor's full check is done once (WeakSet).
  const fn = "extractRootMotion";
  expectDelta(fn, "outDelta", outDelta, 4);
  expectRootMotionExtractor(fn, "extractor", extractor);
  expectNumber(fn, "t0", t0);
  expectNumber(fn, "t1", t1);
  expectLoopMode(fn, "loopMode", loopMode);
  args[0] = t0;
  args[1] = t1;
  return extractRootMotionAt(outDelta, extractor, args, 0, loopMode);
}

/**
 * `extractRootMotion` for t0 = ts[ti], t1 = ts[ti + 1]: the per-frame form (`step` calls it for every
 * clip that moves the root), with the times in memory rather than in arguments that V8 would box.
 */
export function extractRootMotionAt(outDelta: Float32Array | Float64Array, extractor: RootMotionExtractor, ts: Float64Array, ti: number, loopMode: LoopMode): Float32Array | Float64Array {
  const t0 = ts[ti]!, t1 = ts[ti + 1]!;
  const reverse = t1 < t0;
  const from = reverse ? t1 : t0;
  const to = reverse ? t0 : t1;
  accD[0] = accD[1] = accD[2] = 0;
  accR[0] = accR[1] = accR[2] = 0;
  accR[3] = 1;
  const d = extractor.clip.duration;
  if (d > 0 && Number.isFinite(from) && Number.isFinite(to) && to > from) {
    if (loopMode === "clamp") {
      segTimes[0] = Math.min(Math.max(from, 0), d);
      segTimes[1] = Math.min(Math.max(to, 0), d);
      segment(extractor);
      compose();
    } else {
      const m0 = Math.floor(from / d);
      const m1 = Math.floor(to / d);
      if (m1 - m0 <= MAX_CYCLES_WALKED) {
        let m = m0;
        let p = from;
        // Bounded even where (m + 1)·d no longer moves p (times past 2^53 cycles' precision).
        for (let i = 0; i <= MAX_CYCLES_WALKED && p < to; i++) {
          const q = Math.min(to, (m + 1) * d);
          piece[0] = m; piece[1] = p - m * d; piece[2] = q - m * d;
          cyclePiece(extractor, loopMode);
          p = q;
          m++;
        }
      } else {
        // Many whole cycles (a huge dt or speed): the first partial cycle, the whole ones composed by
        // repeated squaring (O(log n) work for n cycles), then the last partial cycle.
        piece[0] = m0; piece[1] = from - m0 * d; piece[2] = d;
        cyclePiece(extractor, loopMode);
        wholeCycles(extractor, m0 + 1, m1 - m0 - 1, loopMode);
        piece[0] = m1; piece[1] = 0; piece[2] = to - m1 * d;
        cyclePiece(extractor, loopMode);
      }
    }
  }
  if (reverse) {
    // Inverse motion: (−R⁻¹·d, R⁻¹).
    quatConjugate(accR, 0, accR, 0);
    quatRotateVec3(accD, 0, accR, 0, accD, 0);
    accD[0] = -accD[0]!; accD[1] = -accD[1]!; accD[2] = -accD[2]!;
  }
  // Parent space → model space.
  const k = extractor.parentScale;
  vec[0] = accD[0]! * k; vec[1] = accD[1]! * k; vec[2] = accD[2]! * k;
  quatRotateVec3(vec, 0, extractor.parentRotation, 0, vec, 0);
  const u = extractor.upLocal;
  outDelta[0] = vec[0]!; outDelta[1] = vec[1]!; outDelta[2] = vec[2]!;
  quatTwistAngleAt(outDelta, 3, accR, 0, u, 0);
  if (outDelta.length >= 8) {
    // P · R · P⁻¹: the same turn about the model up axis.
    quatMultiply(rot, 0, extractor.parentRotation, 0, accR, 0);
    quatConjugate(twA, 0, extractor.parentRotation, 0);
    quatMultiply(rot, 0, rot, 0, twA, 0);
    outDelta[4] = rot[0]!; outDelta[5] = rot[1]!; outDelta[6] = rot[2]!; outDelta[7] = rot[3]!;
  }
  return outDelta;
}

/**
 * Removes the extracted motion from a pose sampled from the extractor's clip: the joint's horizontal
 * translation (and the vertical one unless keepVertical) is reset to its value at time 0, and its twist
 * about the up axis to the twist at time 0 (q ← twist₀ · twist(q)⁻¹ · q), so the character animates in
 * place. Only + − × ÷ √: bit-identical on every engine. No allocation.
 */
export function stripRootMotion(pose: Pose, extractor: RootMotionExtractor): Pose {
  expectRootMotionExtractor("stripRootMotion", "extractor", extractor);
  expectPose("stripRootMotion", "pose", pose, extractor.clip.skeleton.jointCount);
  return stripRootMotionUnchecked(pose, extractor);
}

/** `stripRootMotion` without the argument checks: what `step` calls every frame. */
export function stripRootMotionUnchecked(pose: Pose, extractor: RootMotionExtractor): Pose {
  const j = extractor.joint;
  const u = extractor.upLocal;
  const t = pose.t;
  const s0 = extractor.startTranslation;
  let dx = t[3 * j]! - s0[0]!, dy = t[3 * j + 1]! - s0[1]!, dz = t[3 * j + 2]! - s0[2]!;
  if (extractor.keepVertical) {
    const v = dx * u[0]! + dy * u[1]! + dz * u[2]!;
    dx -= v * u[0]!; dy -= v * u[1]!; dz -= v * u[2]!;
  }
  t[3 * j] = t[3 * j]! - dx;
  t[3 * j + 1] = t[3 * j + 1]! - dy;
  t[3 * j + 2] = t[3 * j + 2]! - dz;
  if (extractor.extractYaw) {
    twistOf(twB, pose.r, u, 4 * j);
    quatConjugate(twB, 0, twB, 0);
    quatMultiply(rot, 0, extractor.startTwist, 0, twB, 0);
    quatMultiply(pose.r, 4 * j, rot, 0, pose.r, 4 * j);
  }
  return pose;
}

/**
 * Blends root-motion deltas with the pose weights: out = Σ ŵ_i·delta_i (component-wise, yaw included;
 * per-frame yaw steps are small, so their linear blend is accurate). Non-contributing weights (≤ 0,
 * NaN) are skipped; no contributing weight gives zeros. `out` may be one of `deltas`. No allocation.
 */
export function blendRootMotion(out: Float32Array | Float64Array, deltas: readonly (Float32Array | Float64Array)[], weights: ArrayLike<number>): Float32Array | Float64Array {
  const fn = "blendRootMotion";
  expectDelta(fn, "out", out, 4);
  expectArray(fn, "deltas", deltas);
  expectNumberArray(fn, "weights", weights);
  let total = 0;
  const n = Math.min(deltas.length, weights.length);
  for (let i = 0; i < n; i++) {
    // Per-frame: a few type tests per delta, and the argument path is only built when one fails.
    const w = weights[i];
    if (typeof w !== "number") throw argumentError(fn, `weights[${i}]`, "a number", w);
    const dlt = deltas[i];
    if (!(dlt instanceof Float32Array || dlt instanceof Float64Array) || dlt.length < 4) {
      throw argumentError(fn, `deltas[${i}]`, "a Float32Array or Float64Array of at least 4 numbers (dx, dy, dz, dyaw)", dlt);
    }
    if (contributes(w)) total += w;
  }
  let x = 0, y = 0, z = 0, yaw = 0;
  if (total > 0) {
    for (let i = 0; i < n; i++) {
      const w = weights[i]!;
      if (!contributes(w)) continue;
      const k = w / total;
      const dlt = deltas[i]!;
      x += k * dlt[0]!; y += k * dlt[1]!; z += k * dlt[2]!; yaw += k * dlt[3]!;
    }
  }
  out[0] = x; out[1] = y; out[2] = z; out[3] = yaw;
  return out;
}
