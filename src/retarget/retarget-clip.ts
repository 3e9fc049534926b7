import { createClip, type Clip, type JointTrack } from "../clip/clip.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { compileBoneMap, type CompileBoneMapOptions, type CompiledBoneMap } from "./compile-bone-map.ts";
import { contactIntervals, detectFootContacts, type FootContactOptions } from "./foot-contacts.ts";
import { RetargetFrame } from "./retarget-frame.ts";
import { gapsToRefine } from "./refine-keys.ts";
import type { BoneMap } from "./propose-bone-map.ts";
import { expectWholeClip } from "../clip/check-clip.ts";
import { AnimgraphError } from "../errors/animgraph-error.ts";
import { expectNumberInRange, expectObject, expectPose, expectSkeleton, invalidValue } from "../errors/check-argument.ts";
import { expectArrayOfShape, expectShape, type FieldKind } from "../errors/check-shape.ts";

/**
 * How `retargetClip` transfers a clip: the bone-map compile options (used when it is given an uncompiled
 * map) plus the new clip's name, key rate, grounding and foot IK.
 */
export interface RetargetOptions extends CompileBoneMapOptions {
  /** Name of the new clip. Default: the source clip's name. */
  readonly name?: string;
  /**
   * Keys per second of the result. Default: the source clip's own key times (the union over its
   * tracks), which keeps a BVH's frames one to one.
   */
  readonly sampleRate?: number;
  /**
   * Put the target on its own ground: the trajectory's vertical offset is shifted so that when the
   * source's feet are at their lowest in this clip, the target's feet are at their reference height
   * above its floor (so a capture whose ankle joints sit 9 cm above the floor does not make a
   * character whose foot joints are at its soles float), and no foot or toe joint goes below its
   * reference height. Default false: p_target = k · C · p_source exactly.
   */
  readonly groundFeet?: boolean;
  /**
   * Feet by IK (default true): the source's foot contacts are detected (`detectFootContacts`), each
   * planted foot of the target is locked where it lands, and each leg is solved with `twoBoneIk` so its
   * foot reaches that target (pole: the knee's reference forward direction). False: pure rotation
   * transfer (a skeleton retargeted onto a copy of itself is reproduced exactly).
   */
  readonly footIk?: boolean;
  /** Foot contact thresholds (see FootContactOptions). */
  readonly contacts?: FootContactOptions;
  /**
   * The most (radians) foot IK may turn a thigh or shin away from its transferred direction (default
   * 20°). Where a locked foot would need more (a wide-hipped character turning on a planted foot), the
   * foot gives way towards where the leg puts it rather than the leg bending further.
   */
  readonly maxLegDeviation?: number;
  /**
   * With foot IK, keys are added (evenly, between the source's) so that consecutive keys are at most
   * 1 / minKeyRate seconds apart. Default 60. IK bends legs non-linearly between the source's keys: a player
   * interpolating a 24 fps result linearly would dip a planted foot 2 % of the leg into the floor at the
   * midpoints of a jump's push-off. Ignored when `sampleRate` is given or foot IK is off.
   */
  readonly minKeyRate?: number;
}

const DEFAULT_MAX_LEG_DEVIATION = (20 * Math.PI) / 180;
const DEFAULT_MIN_KEY_RATE = 60;

const OPTIONS_SHAPE: Readonly<Record<string, FieldKind>> = {
  name: "string?", sampleRate: "number?", groundFeet: "boolean?", footIk: "boolean?", contacts: "object?", maxLegDeviation: "number?", minKeyRate: "number?",
  alignRest: "boolean?", rootMotionScale: "number?", sourceRest: "object?", targetRest: "object?", file: "string?", targetRoot: "string?", targetClips: "array?",
};
const ENTRY_SHAPE: Readonly<Record<string, FieldKind>> = { source: "string", target: "string" };
/** Highest key rate retargetClip resamples at, keys per second (a higher one is a unit mistake, not a wish). */
const MAX_KEY_RATE = 10_000;

/** Seconds over which a foot eases into and out of its lock. */
const LOCK_EASE = 0.12;

/**
 * Plays `clip` (bound to `source`) on `target`: returns a new LINEAR clip bound to `target`.
 *
 * Seed 003's rule, per bone. Rotations are transferred through both reference poses in model space:
 * `Qt(t) = C · Qs(t) · Qs0⁻¹ · C⁻¹ · A_t · Qt0` (C the axis change, A the rest alignment), then made local
 * with the target parent's model rotation this key. Translations keep each target bone's own length and
 * offsets: a bone's local translation is its reference offset plus r · F · (what the source animates
 * beyond its own rest offset), r = l_target / l_source of that bone. Only the trajectory is scaled: the
 * target's animated root (`compiled.rootTarget`: RobotExpressive's Body) is placed so the target's
 * pelvis is at `k · C · Ps(t)` (k the hip height ratio). Feet that hang elsewhere than from their lower
 * leg (IK-style feet) are placed at the end of the target's own lower leg. Then, with `footIk`, feet are
 * locked while the source's are planted and each leg is solved by two-bone IK (see docs/retargeting.md).
 * Unmapped target bones keep their local reference pose. Scale tracks are not transferred.
 *
 * `map` may be a BoneMap (compiled here; a map naming unknown bones is a programmer error and throws —
 * validate user files with readBoneMap / compileBoneMap first) or a CompiledBoneMap for these skeletons.
 */
export function retargetClip(clip: Clip, source: Skeleton, target: Skeleton, map: BoneMap | CompiledBoneMap, options: RetargetOptions = {}): Clip {
  const fn = "retargetClip";
  expectSkeleton(fn, "source", source);
  expectSkeleton(fn, "target", target);
  expectWholeClip(fn, "clip", clip, source.jointCount);
  if (clip.skeleton !== source) throw new AnimgraphError("ERR_SKELETON_MISMATCH", `${fn}: clip "${clip.name}" is not bound to the source skeleton`, { argument: "clip" });
  expectObject(fn, "map", map);
  expectShape(fn, "options", options, "a RetargetOptions object", OPTIONS_SHAPE);
  if (options.sampleRate !== undefined) expectNumberInRange(fn, "options.sampleRate", options.sampleRate, Number.MIN_VALUE, MAX_KEY_RATE);
  if (options.minKeyRate !== undefined) expectNumberInRange(fn, "options.minKeyRate", options.minKeyRate, Number.MIN_VALUE, MAX_KEY_RATE);
  if (options.sourceRest !== undefined) expectPose(fn, "options.sourceRest", options.sourceRest, source.jointCount);
  if (options.targetRest !== undefined) expectPose(fn, "options.targetRest", options.targetRest, target.jointCount);
  let compiled: CompiledBoneMap;
  if ("sourceOf" in map) {
    if (map.source !== source || map.target !== target) throw invalidValue(fn, "map", "the compiled bone map is for other skeletons than source and target");
    compiled = map;
  } else {
    expectArrayOfShape(fn, "map.entries", (map as Partial<BoneMap>).entries, "BoneMapEntry", ENTRY_SHAPE);
    const result = compileBoneMap(map, source, target, options);
    if (!result.compiled) throw invalidValue(fn, "map", result.diagnostics.map((d) => d.message).join("; "));
    compiled = result.compiled;
  }
  const footIk = options.footIk ?? true;
  let times = keyTimes(clip, options.sampleRate);
  const refine = footIk && options.sampleRate === undefined;
  if (refine) times = densify(times, options.minKeyRate ?? DEFAULT_MIN_KEY_RATE);
  let out = retargetAtTimes(clip, compiled, times, options);
  // The keys hold the feet on the ground and IK-style feet on their shins; a player's interpolation
  // between two keys can still break either (a capture's first frame that is a reference pose, 121° of
  // hip turn from the second). Where it does, a key goes in at the worst probe and the clip is retargeted
  // again with it (src/retarget/refine-keys.ts).
  if (refine) {
    for (let round = 0; round < MAX_REFINE_ROUNDS; round++) {
      const extra = gapsToRefine(out, compiled, REFINE_TOLERANCE, MIN_REFINED_GAP, options.groundFeet === true);
      if (extra.length === 0) break;
      times = mergeTimes(times, extra);
      out = retargetAtTimes(clip, compiled, times, options);
    }
  }
  return out;
}

/** Rounds of key insertion at most (each at least halves the gap around a dip, which shrinks it about fourfold). */
const MAX_REFINE_ROUNDS = 8;
/**
 * Gaps shorter than this (seconds) get no more keys: where the retarget itself changes abruptly (a foot
 * lock letting go) more keys would only crowd in around that instant.
 */
const MIN_REFINED_GAP = 0.001;
/** A dip between keys deeper than this share of the leg, or a foot this far off its shin, gets a key (the bounds are 1 %). */
const REFINE_TOLERANCE = 0.001;

/** retargetClip's work for given key times. */
function retargetAtTimes(clip: Clip, compiled: CompiledBoneMap, times: Float32Array, options: RetargetOptions): Clip {
  const footIk = options.footIk ?? true;
  const target = compiled.target;
  const n = times.length;
  const JT = target.jointCount;
  const { sourceOf, positionDriven, legs, sourceLegs } = compiled;
  const solver = new RetargetFrame(clip, compiled);

  // Which target joints get tracks: mapped joints a rotation, legs solved by IK a rotation, the root,
  // IK-style feet and bones whose source animates a translation a translation.
  const rotValues: (Float32Array | undefined)[] = new Array(JT);
  const posValues: (Float32Array | undefined)[] = new Array(JT);
  for (let t = 0; t < JT; t++) {
    const s = sourceOf[t]!;
    if (s >= 0 || solver.solvedByIk[t]) rotValues[t] = new Float32Array(4 * n);
    if (s >= 0 && (positionDriven[t] || (compiled.sameChain[t] && clip.trackIndex[3 * s]! >= 0))) posValues[t] = new Float32Array(3 * n);
    if (solver.footPlaced[t]) posValues[t] ??= new Float32Array(3 * n);
  }

  // Pass 1: the source alone — lowest feet (groundFeet) and contacts.
  const sideCount = 2;
  const srcFoot = [new Float64Array(3 * n), new Float64Array(3 * n)];
  for (let f = 0; f < n; f++) {
    solver.sampleSource(times[f]!);
    for (let side = 0; side < sideCount; side++) {
      const s = sourceLegs[4 * side + 2]!;
      if (s >= 0) for (let c = 0; c < 3; c++) srcFoot[side]![3 * f + c] = solver.sp[3 * s + c]!;
    }
  }
  const up = compiled.sourceUp;
  const [footL, footR] = [compiled.sourceFeet[0]!, compiled.sourceFeet[1]!];
  let groundOffset = 0;
  if (options.groundFeet && footL >= 0 && footR >= 0) {
    let lowest = Infinity;
    for (let f = 0; f < n; f++) {
      solver.sampleSource(times[f]!);
      for (const j of [footL, footR]) lowest = Math.min(lowest, solver.sp[3 * j]! * up[0]! + solver.sp[3 * j + 1]! * up[1]! + solver.sp[3 * j + 2]! * up[2]!);
    }
    groundOffset = compiled.targetFootHeight - compiled.rootMotionScale * lowest;
    solver.setGroundOffset(groundOffset);
  }
  solver.clampToGround = options.groundFeet === true;

  // Pass 2: where the target's feet land with its own legs (before IK), and the foot targets.
  // A leg the map drives only in part (completedLegs) has no transferred pose to keep: it is always solved,
  // its foot going where the source's foot is, and locked while planted with footIk.
  const { completedLegs } = compiled;
  const useIk = (footIk || completedLegs[0]! + completedLegs[1]! > 0) && compiled.sourceHipHeight > 0 && (legs[0]! >= 0 || legs[4]! >= 0);
  if (useIk) {
    const fk = [new Float64Array(3 * n), new Float64Array(3 * n)];
    for (let f = 0; f < n; f++) {
      solver.sampleSource(times[f]!);
      solver.transfer();
      for (let side = 0; side < sideCount; side++) {
        if (legs[4 * side]! < 0) continue;
        if (completedLegs[side]) solver.sourceFootFromHip(fk[side]!, 3 * f, side);
        else solver.legEnd(fk[side]!, 3 * f, side);
      }
    }
    for (let side = 0; side < sideCount; side++) if (!footIk && completedLegs[side]) solver.footTargets[side] = fk[side]!;
    if (footIk) placeFeet(solver, compiled, fk, srcFoot, times, options, groundOffset);
  }
  // Pass 3: transfer, IK, store.
  for (let f = 0; f < n; f++) {
    solver.sampleSource(times[f]!);
    solver.transfer();
    if (useIk) solver.solveLegs(f);
    for (let t = 0; t < JT; t++) {
      const rv = rotValues[t];
      if (rv) storeRotation(rv, f, solver.localRotation(t));
      const pv = posValues[t];
      if (pv) for (let c = 0; c < 3; c++) pv[3 * f + c] = solver.lt[3 * t + c]!;
    }
  }

  const tracks: JointTrack[] = [];
  for (let t = 0; t < JT; t++) {
    const pv = posValues[t];
    if (pv) tracks.push({ joint: t, path: "translation", interpolation: "LINEAR", stride: 3, times, values: pv });
    const rv = rotValues[t];
    if (rv) tracks.push({ joint: t, path: "rotation", interpolation: "LINEAR", stride: 4, times, values: rv });
  }
  return createClip({ name: options.name ?? clip.name, skeleton: target, tracks, loopMode: clip.loopMode });
}

/** Pass 2 with footIk: foot locks while the source's feet are planted, the give-way and the planted-speed cap. */
function placeFeet(solver: RetargetFrame, compiled: CompiledBoneMap, fk: Float64Array[], srcFoot: Float64Array[], times: Float32Array, options: RetargetOptions, groundOffset: number): void {
  const n = times.length, sideCount = 2, legs = compiled.legs, up = compiled.sourceUp;
  const heightOf = (p: Float64Array, f: number): number => p[3 * f]! * up[0]! + p[3 * f + 1]! * up[1]! + p[3 * f + 2]! * up[2]!;
  const lifts: Float64Array[] = [];
  for (let side = 0; side < sideCount; side++) {
    if (legs[4 * side]! < 0) continue;
    const contacts = new Uint8Array(n);
    detectFootContacts(contacts, srcFoot[side]!, times, up, compiled.sourceHipHeight, options.contacts);
    let lowest = Infinity;
    for (let f = 0; f < n; f++) lowest = Math.min(lowest, heightOf(srcFoot[side]!, f));
    const lift = new Float64Array(n);
    for (let f = 0; f < n; f++) lift[f] = compiled.rootMotionScale * (heightOf(srcFoot[side]!, f) - lowest);
    solver.contacts[side] = contacts;
    lifts[side] = lift;
  }
  if (options.groundFeet) {
    // The target's own legs decide its height: shift the trajectory so that, over the planted keys, the
    // median foot is where the lock will put it (its ground plus the source's lift). Legs that are
    // longer or shorter than the hip-height ratio says then neither stretch nor crouch to reach the floor.
    const tUp = compiled.targetUp;
    const residuals: number[] = [];
    for (let side = 0; side < sideCount; side++) {
      const contacts = solver.contacts[side];
      if (!contacts) continue;
      for (let f = 0; f < n; f++) {
        if (!contacts[f]) continue;
        const h = fk[side]![3 * f]! * tUp[0]! + fk[side]![3 * f + 1]! * tUp[1]! + fk[side]![3 * f + 2]! * tUp[2]!;
        residuals.push(compiled.targetGround[2 * side]! + lifts[side]![f]! - h);
      }
    }
    if (residuals.length > 0) {
      residuals.sort((a, b) => a - b);
      const shift = residuals[residuals.length >> 1]!;
      groundOffset += shift;
      solver.setGroundOffset(groundOffset);
      for (const side of [0, 1]) if (solver.contacts[side]) for (let f = 0; f < n; f++) for (let c = 0; c < 3; c++) fk[side]![3 * f + c] = fk[side]![3 * f + c]! + shift * tUp[c]!;
    }
  }
  for (let side = 0; side < sideCount; side++) {
    const contacts = solver.contacts[side];
    if (!contacts) continue;
    solver.footTargets[side] = lockFeet(fk[side]!, contacts, lifts[side]!, times, compiled.targetUp, compiled.targetGround[2 * side]!);
  }
  limitLegDeviation(solver, fk, times, options.maxLegDeviation ?? DEFAULT_MAX_LEG_DEVIATION);
  for (let side = 0; side < sideCount; side++) {
    const targets = solver.footTargets[side], contacts = solver.contacts[side];
    if (targets && contacts) capPlantedSpeed(targets, contacts, srcFoot[side]!, times, up, compiled.targetUp, compiled.rootMotionScale);
  }
}

/**
 * Pulls each key's foot target back towards the unlocked foot `fk` (target = fk + α · (target − fk))
 * until solving the leg turns no bone more than `limit` from the transferred pose (α by bisection), then
 * smooths α over time (a minimum over ±LOCK_EASE, then a mean over the same window) so the foot gives way
 * gradually rather than popping.
 */
function limitLegDeviation(solver: RetargetFrame, fk: Float64Array[], times: Float32Array, limit: number): void {
  const n = times.length;
  const alphas = [new Float64Array(n).fill(1), new Float64Array(n).fill(1)];
  const trial = new Float64Array(3);
  let any = false;
  for (let f = 0; f < n; f++) {
    let sampled = false;
    for (let side = 0; side < 2; side++) {
      const targets = solver.footTargets[side];
      if (!targets) continue;
      if (!sampled) {
        solver.sampleSource(times[f]!);
        solver.transfer();
        sampled = true;
      }
      if (solver.legDeviation(side, targets, 3 * f) <= limit) continue;
      any = true;
      let lo = 0, hi = 1;
      for (let i = 0; i < 12; i++) {
        const mid = 0.5 * (lo + hi);
        for (let c = 0; c < 3; c++) trial[c] = fk[side]![3 * f + c]! + mid * (targets[3 * f + c]! - fk[side]![3 * f + c]!);
        if (solver.legDeviation(side, trial, 0) <= limit) lo = mid;
        else hi = mid;
      }
      alphas[side]![f] = lo;
    }
  }
  if (!any) return;
  for (let side = 0; side < 2; side++) {
    const targets = solver.footTargets[side];
    if (!targets) continue;
    const a = alphas[side]!;
    const lowered = windowed(a, times, (x, y) => Math.min(x, y), 1);
    const smooth = windowMean(lowered, times);
    for (let f = 0; f < n; f++) {
      const w = Math.min(a[f]!, smooth[f]!);
      for (let c = 0; c < 3; c++) targets[3 * f + c] = fk[side]![3 * f + c]! + w * (targets[3 * f + c]! - fk[side]![3 * f + c]!);
    }
  }
}

/**
 * While the source's foot is planted, the target's foot may move horizontally between two keys at most as
 * far as the source's foot does then, or at 4× the source's mean planted speed if that is more (scaled by
 * k): where limitLegDeviation let a lock give way faster, the foot is held back (the leg bends further).
 * A keyframed source whose planted feet do not move (RobotExpressive's Jump) gives target feet that do not
 * move; a capture's jittering feet leave the give-way its room (4×: measured on the CMU takes, where
 * 1× turned legs up to 31° from the capture and 4× keeps them within 24°, with the target sliding a
 * third of the source's).
 *
 * What the cap held back (the lag behind the uncapped target) is let go after the contact, at most at the
 * source foot's mean speed off the ground (scaled by k), so the foot catches up with its uncapped target
 * over a few keys instead of jumping there at the first free key: CMU 131_01 on RobotExpressive jumped
 * 11 cm within one key at 2.442 s (219 m/s, 15× the capture's fastest foot in leg lengths per second).
 * After the contact rather than before its end: a keyframed source's still feet stay still while planted.
 */
function capPlantedSpeed(targets: Float64Array, contacts: Uint8Array, source: Float64Array, times: Float32Array, sourceUp: Float64Array, up: Float64Array, k: number): void {
  // The source's mean planted speed: a step may go as fast as the source's foot at that step or on average.
  let path = 0, span = 0, swingPath = 0, swingSpan = 0;
  for (let f = 1; f < contacts.length; f++) {
    const dt = times[f]! - times[f - 1]!;
    if (contacts[f] && contacts[f - 1]) {
      path += horizontalStep(source, f, sourceUp, null);
      span += dt;
    } else {
      swingPath += horizontalStep(source, f, sourceUp, null);
      swingSpan += dt;
    }
  }
  const mean = span > 0 ? path / span : 0;
  const release = k * Math.max(swingSpan > 0 ? swingPath / swingSpan : 0, PLANTED_SPEED_ROOM * mean);
  // One pass forwards: a planted step is capped; any other step lets go of the lag (uncapped − target)
  // left by the cap, by at most release × dt.
  const uncapped = Float64Array.from(targets);
  let lag = 0;
  for (let f = 1; f < contacts.length; f++) {
    const dt = times[f]! - times[f - 1]!;
    if (contacts[f] && contacts[f - 1]) {
      const allowed = k * Math.max(horizontalStep(source, f, sourceUp, null), PLANTED_SPEED_ROOM * mean * dt);
      const moved = horizontalStep(targets, f, up, step);
      if (moved > allowed) {
        const keep = allowed / moved;
        for (let c = 0; c < 3; c++) targets[3 * f + c] = targets[3 * f + c]! - (1 - keep) * step[c]!;
      }
      lag = Math.hypot(uncapped[3 * f]! - targets[3 * f]!, uncapped[3 * f + 1]! - targets[3 * f + 1]!, uncapped[3 * f + 2]! - targets[3 * f + 2]!);
      continue;
    }
    if (!(lag > 0)) continue;
    // The direction of the lag left at the last key, applied at this key's uncapped target, shortened.
    const left = Math.max(0, lag - release * dt), scale = left / lag;
    for (let c = 0; c < 3; c++) targets[3 * f + c] = uncapped[3 * f + c]! - scale * (uncapped[3 * f - 3 + c]! - targets[3 * f - 3 + c]!);
    lag = left;
  }
}
const step = new Float64Array(3);
const PLANTED_SPEED_ROOM = 4;

/** Horizontal distance (⊥ up) from key f − 1 to key f of a 3-per-key track; the horizontal step into `out`. */
function horizontalStep(p: Float64Array, f: number, up: Float64Array, out: Float64Array | null): number {
  const dx = p[3 * f]! - p[3 * f - 3]!, dy = p[3 * f + 1]! - p[3 * f - 2]!, dz = p[3 * f + 2]! - p[3 * f - 1]!;
  const du = dx * up[0]! + dy * up[1]! + dz * up[2]!;
  const hx = dx - du * up[0]!, hy = dy - du * up[1]!, hz = dz - du * up[2]!;
  if (out) {
    out[0] = hx;
    out[1] = hy;
    out[2] = hz;
  }
  return Math.hypot(hx, hy, hz);
}

/** Folds `op` over the keys within ±LOCK_EASE seconds of each key. */
function windowed(a: Float64Array, times: Float32Array, op: (x: number, y: number) => number, start: number): Float64Array {
  const out = new Float64Array(a.length);
  for (let f = 0; f < a.length; f++) {
    let acc = start;
    for (let g = f; g >= 0 && times[f]! - times[g]! <= LOCK_EASE; g--) acc = op(acc, a[g]!);
    for (let g = f + 1; g < a.length && times[g]! - times[f]! <= LOCK_EASE; g++) acc = op(acc, a[g]!);
    out[f] = acc;
  }
  return out;
}

function windowMean(a: Float64Array, times: Float32Array): Float64Array {
  const out = new Float64Array(a.length);
  for (let f = 0; f < a.length; f++) {
    let sum = 0, count = 0;
    for (let g = f; g >= 0 && times[f]! - times[g]! <= LOCK_EASE; g--, count++) sum += a[g]!;
    for (let g = f + 1; g < a.length && times[g]! - times[f]! <= LOCK_EASE; g++, count++) sum += a[g]!;
    out[f] = sum / count;
  }
  return out;
}

/**
 * Foot targets per frame (3 per frame): the unlocked foot position `fk`, pulled onto a lock while the
 * source's foot is planted — the mean landing position of that contact, at the ground height plus the
 * source's scaled lift — easing in and out over LOCK_EASE seconds with smoothstep. A locked foot does not
 * move (limitLegDeviation may later let it give way where the leg would have to bend too far). Between two
 * contacts closer than 2 · LOCK_EASE the foot is held by both eases at once: it goes from one lock to the
 * next over the gap (smoothstep) instead of switching where the two eases cross, which jumped by the
 * distance between the locks in one key (CMU 131_03 on RobotExpressive: 45 cm, a foot 2.2 % off its shin
 * between the keys around it).
 */
function lockFeet(fk: Float64Array, contacts: Uint8Array, lift: Float64Array, times: Float32Array, up: Float64Array, ground: number): Float64Array {
  const n = times.length;
  const out = Float64Array.from(fk);
  const weight = new Float64Array(n);
  const intervals = contactIntervals(contacts);
  const locks = new Float64Array(3 * intervals.length);
  intervals.forEach(([a, b], k) => {
    let meanLift = 0;
    const m = b - a + 1;
    for (let f = a; f <= b; f++) {
      for (let c = 0; c < 3; c++) locks[3 * k + c] = locks[3 * k + c]! + fk[3 * f + c]! / m;
      meanLift += lift[f]! / m;
    }
    const h = locks[3 * k]! * up[0]! + locks[3 * k + 1]! * up[1]! + locks[3 * k + 2]! * up[2]!;
    for (let c = 0; c < 3; c++) locks[3 * k + c] = locks[3 * k + c]! + (ground + meanLift - h) * up[c]!;
    let first = a;
    while (first > 0 && times[a]! - times[first - 1]! < LOCK_EASE) first--;
    for (let f = first; f < n; f++) {
      const gap = f < a ? times[a]! - times[f]! : f > b ? times[f]! - times[b]! : 0;
      if (f > b && gap >= LOCK_EASE) break;
      const x = 1 - gap / LOCK_EASE;
      weight[f] = Math.max(weight[f]!, x * x * (3 - 2 * x));
    }
  });
  // The lock each frame eases towards: its contact's inside one, the nearer one in a long gap (where the
  // eases do not meet), a smoothstep from one to the next across a short gap.
  const lock = new Float64Array(3);
  let k = 0;
  for (let f = 0; f < n; f++) {
    const w = weight[f]!;
    if (!(w > 0)) continue;
    while (k < intervals.length && intervals[k]![1] < f) k++;
    const prev = k - 1, next = k < intervals.length ? k : -1;
    let from = next >= 0 ? next : prev, to = from, s = 0;
    if (prev >= 0 && next >= 0 && f < intervals[next]![0]) {
      const tb = times[intervals[prev]![1]]!, ta = times[intervals[next]![0]]!;
      const u = (times[f]! - tb) / (ta - tb);
      if (ta - tb < 2 * LOCK_EASE) {
        from = prev;
        s = u * u * (3 - 2 * u);
      } else from = to = u <= 0.5 ? prev : next;
    }
    for (let c = 0; c < 3; c++) {
      lock[c] = locks[3 * from + c]! + s * (locks[3 * to + c]! - locks[3 * from + c]!);
      out[3 * f + c] = fk[3 * f + c]! + w * (lock[c]! - fk[3 * f + c]!);
    }
  }
  return out;
}

/** The source's key times (sorted union over its tracks), or a uniform grid at `rate` keys per second. */
function keyTimes(clip: Clip, rate: number | undefined): Float32Array {
  if (rate !== undefined) {
    if (!(Number.isFinite(rate) && rate > 0)) throw new RangeError(`retargetClip: sampleRate must be > 0, got ${rate}`);
    const span = clip.duration - clip.startTime;
    const count = Math.max(1, Math.round(span * rate) + 1);
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = count === 1 ? clip.startTime : clip.startTime + (span * i) / (count - 1);
    return out;
  }
  const first = clip.tracks[0]?.times;
  if (first && clip.tracks.every((tr) => tr.times === first)) return first;
  const all = new Set<number>();
  for (const tr of clip.tracks) for (const x of tr.times) all.add(x);
  if (all.size === 0) all.add(clip.startTime);
  return Float32Array.from([...all].sort((a, b) => a - b));
}

/** `times` with keys added evenly inside every interval longer than 1 / rate seconds. */
/** The sorted union of two sets of key times. */
function mergeTimes(a: Float32Array, b: Float32Array): Float32Array {
  const out = Float32Array.from(new Set([...a, ...b]));
  return out.sort();
}

function densify(times: Float32Array, rate: number): Float32Array {
  if (!(Number.isFinite(rate) && rate > 0)) throw new RangeError(`retargetClip: minKeyRate must be > 0, got ${rate}`);
  const out: number[] = [];
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    out.push(t);
    if (i + 1 === times.length) break;
    const next = times[i + 1]!;
    const parts = Math.ceil((next - t) * rate - 1e-6);
    for (let k = 1; k < parts; k++) out.push(t + ((next - t) * k) / parts);
  }
  return out.length === times.length ? times : Float32Array.from(out);
}

/** Stores key f, flipped into the previous key's hemisphere so LINEAR interpolation takes the short way. */
function storeRotation(values: Float32Array, f: number, q: Float64Array): void {
  let sign = 1;
  if (f > 0) {
    const p = 4 * (f - 1);
    if (q[0]! * values[p]! + q[1]! * values[p + 1]! + q[2]! * values[p + 2]! + q[3]! * values[p + 3]! < 0) sign = -1;
  }
  values[4 * f] = sign * q[0]!;
  values[4 * f + 1] = sign * q[1]!;
  values[4 * f + 2] = sign * q[2]!;
  values[4 * f + 3] = sign * q[3]!;
}
