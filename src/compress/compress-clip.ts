import type { Clip, FloatTrack, TrackPath } from "../clip/clip.ts";
import { createClipCursor } from "../clip/clip-cursor.ts";
import { sampleClipUnchecked } from "../clip/sample-clip.ts";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import type { QuatInterpolation } from "../math/quat.ts";
import { createPose, type Pose } from "../pose/pose.ts";
import { blockCount, compressedByteLength, decodeKey, fineCount, frameTime, KEYS_PER_BLOCK, runtimeByteLength, trackByteLength, TrackEncoding, type CompressedClip, type CompressedTrack } from "./compressed-clip.ts";
import { assembleTrack, codeBytes, encodeCoarse, encodeFineBlock, fineBlockBits, fitTrack, type FitTarget, type TrackCode } from "./fit-track.ts";
import { createCompressedClipCursor, sampleCompressedClipUnchecked } from "./sample-compressed-clip.ts";
import { compensatedLevers, compensateRotation, compensateTranslation, hasUnitScale } from "./compensate.ts";
import { createFrameSequence, jointErrorsUnchecked, modelTransformsUnchecked, modelTransformsRange, vertexErrorUnchecked, type FrameSequence } from "./virtual-vertex-error.ts";
import { createUndoLog, forget, saveRange, saveRuns, undo } from "./undo-log.ts";
import { expectWholeClip } from "../clip/check-clip.ts";
import { expectInteger, expectOneOf } from "../errors/check-argument.ts";
import { expectShape, type FieldKind } from "../errors/check-shape.ts";
import { expectCompressedClip } from "./check-compressed.ts";

/** Options of `compressClip`. Lengths are in metres and converted with `unitsPerMetre`. */
export interface CompressOptions {
  /** Largest virtual-vertex error allowed, metres. Default 1e-4 (0.1 mm, ACL's default). */
  readonly tolerance?: number;
  /** Distance of the virtual vertices from each joint, metres. Default 0.03 (3 cm, as ACL). */
  readonly virtualVertexDistance?: number;
  /**
   * Skeleton units per metre. Default 1 (glTF is in metres). CMU BVH files are not: use
   * `estimateUnitsPerMetre` or pass the known factor (docs/compression.md).
   */
  readonly unitsPerMetre?: number;
  /** Rate of the key grid, Hz (> 0). Default: the source clip's own key rate (`detectSampleRate`). */
  readonly sampleRate?: number;
  /**
   * A fixed rotation precision, 1…24: every rotation residual is quantised with the step of a plain
   * `rotationBits`-bit quantiser over [−1, 1] (2 / (2^bits − 1)). Default: the coarsest steps that meet the
   * error bound, per track and block.
   */
  readonly rotationBits?: number;
  /** A fixed translation precision, 1…24: the step of a plain quantiser over the track's largest extent. */
  readonly translationBits?: number;
  /** A fixed scale precision, 1…24 (as `translationBits`). */
  readonly scaleBits?: number;
  /**
   * Coarse keys every 2^coarseShift grid frames, 1…4 (default 2: every 4th frame). Smaller is smaller
   * data but a larger table of decoded coarse keys in memory (docs/compression.md).
   */
  readonly coarseShift?: number;
  /** Rotation interpolation the runtime will sample with (sampleCompressedClip's `quatMode`). Default slerp. */
  readonly quatMode?: QuatInterpolation;
  /**
   * Aim each animated track below the root at the local values that undo its ancestors' decoded errors
   * (docs/compression.md, "Compensation down the hierarchy"; used only when every scale is 1). Default
   * true; false fits every track to its own reference values.
   */
  readonly compensate?: boolean;
  /** The file named in diagnostics. Default: the clip's name. */
  readonly file?: string;
  /** Called with the fraction done (0…1) after each refinement pass. */
  readonly onProgress?: (fraction: number) => void;
}

/** What compression achieved, measured at every grid frame with `sampleCompressedClip`. */
export interface CompressionStats {
  readonly clip: string;
  readonly jointCount: number;
  readonly frameCount: number;
  /** Hz. */
  readonly sampleRate: number;
  /** ACL's raw size: 10 float32 (t, r, s) per joint per grid frame = 40 × J × frames bytes. */
  readonly rawBytes: number;
  /** `compressedByteLength`: the clip's bytes in the .agc container (without names and skeleton). */
  readonly compressedBytes: number;
  /** rawBytes / compressedBytes. */
  readonly ratio: number;
  /** `runtimeByteLength`: what the clip occupies in memory once built or read (stored + derived tables). */
  readonly runtimeBytes: number;
  /** Tolerance asked for, metres. */
  readonly tolerance: number;
  /** Largest virtual-vertex error over all joints and grid frames, metres. */
  readonly maxError: number;
  /** Mean virtual-vertex error over all joints and grid frames, metres. */
  readonly meanError: number;
  /** The joint with the largest error (its name), and its index. */
  readonly worstJoint: string;
  readonly worstJointIndex: number;
  /** Largest error per joint, metres. */
  readonly jointMaxError: Float64Array;
  /** Compressed tracks (constant ones included) and their keys in all (a CONSTANT track has one, the others one per frame). */
  readonly trackCount: number;
  readonly keyCount: number;
  /** Refinement passes run. */
  readonly passes: number;
}

/** What `compressClip` returns: the compressed clip and its statistics, or the reasons it could not be made. */
export interface CompressResult {
  /** Absent when the clip cannot be compressed (see the diagnostics). */
  readonly compressed?: CompressedClip;
  /** Sizes and measured errors, present with `compressed`. */
  readonly stats?: CompressionStats;
  /** `E_COMPRESS_*` problems with the options or the clip (pointer ""). */
  readonly diagnostics: Diagnostic[];
}

/** Most key-grid frames (frame indices are 16-bit). */
export const MAX_COMPRESSED_FRAMES = 65536;
/**
 * Most joints × key-grid frames compressed at once: memory grows about 0.9 kB per joint-frame (reference
 * and candidate poses and model transforms in float64; a trial's undo log adds at most 0.25 kB, twice
 * that with its buffer's headroom), so this keeps a run under about 0.75 GB.
 */
export const MAX_COMPRESS_JOINT_FRAMES = 1 << 19;
/**
 * Most work of one clip, in frames × Σ over joints of (depth + 1): a track's trial re-measures its
 * whole subtree, so deep chains cost more than wide trees. About 4 µs a unit here (≈ 30 s at the limit).
 */
export const MAX_COMPRESS_WORK = 1 << 23;

/** Σ over joints of (depth + 1), the number of (joint, ancestor-or-self) pairs. */
function chainWork(parents: Int16Array, J: number): number {
  const depth = new Int32Array(J);
  let sum = 0;
  for (let j = 0; j < J; j++) {
    const p = parents[j]!;
    depth[j] = p < 0 ? 0 : depth[p]! + 1;
    sum += depth[j]! + 1;
  }
  return sum;
}

/** Passes of the tighten-and-refit loop before giving up on a joint. */
const MAX_PASSES = 60;
/** The loop aims a little under the tolerance so errors between grid frames stay within it. */
const TARGET_SHARE = 0.95;
/** Each track's first budget, as a share of the tolerance (errors along a chain add up). */
const INITIAL_SHARE = 0.8;
/** Budget factors the greedy pass tries, coarse to fine, and its rounds per factor. */
const GREEDY_FACTORS = [1.6, 1.25, 1.1];
const GREEDY_ROUNDS = 1;
/**
 * Smallest step-code increments (of 2^(1/8)) the block pass tries, coarse to fine (each trial takes the
 * first code from there on that saves bits), and its rounds per increment.
 */
const BLOCK_STEPS = [4, 1];
const BLOCK_ROUNDS = 2;
/** Default coarse key spacing: every 2^2 = 4 grid frames. */
const DEFAULT_COARSE_SHIFT = 2;
const PATH_SLOT: Record<TrackPath, number> = { translation: 0, rotation: 1, scale: 2 };

/**
 * The key rate of a clip, from its track with the most keys: when its key intervals are uniform
 * (all within 1 % of their median) (n − 1) / (t_last − t_first), which gives a BVH take its exact
 * frame rate; otherwise 1 / the median interval (Fox's Run: 24 Hz keys with one 0.2 s gap → 24 Hz).
 * 30 when no track has two keys.
 */
export function detectSampleRate(clip: Clip): number {
  let densest: Float32Array | undefined;
  for (const track of clip.tracks) {
    const n = track.times.length;
    if (n >= 2 && track.times[n - 1]! > track.times[0]! && (!densest || n > densest.length)) densest = track.times;
  }
  if (!densest) return 30;
  const n = densest.length;
  const intervals = new Float64Array(n - 1);
  for (let i = 1; i < n; i++) intervals[i - 1] = densest[i]! - densest[i - 1]!;
  intervals.sort();
  const median = intervals[(n - 1) >> 1]!;
  const uniform = intervals[0]! >= 0.99 * median && intervals[n - 2]! <= 1.01 * median;
  return uniform ? (n - 1) / (densest[n - 1]! - densest[0]!) : 1 / median;
}

/**
 * Compresses `clip` onto a uniform key grid: every key is predicted (coarse keys from the two before
 * them, fine keys from the coarse keys around them) and its quantised prediction error stored, with
 * steps tightened track by track, then loosened block by block, so that every joint's virtual-vertex
 * error stays within `tolerance` (docs/compression.md).
 * Never modifies `clip`. Returns diagnostics instead of throwing on unusable options or clips.
 */
export function compressClip(clip: Clip, options: CompressOptions = {}): CompressResult {
  const diagnostics: Diagnostic[] = [];
  const file = options.file ?? clip.name;
  const fail = (code: string, message: string): CompressResult => {
    diagnostics.push({ code, severity: "error", file, pointer: "", message });
    return { diagnostics };
  };
  const upm = options.unitsPerMetre ?? 1;
  const toleranceM = options.tolerance ?? 1e-4;
  const vvM = options.virtualVertexDistance ?? 0.03;
  if (!(upm > 0 && Number.isFinite(upm))) return fail("E_COMPRESS_OPTION", `unitsPerMetre must be a positive number, not ${upm}`);
  if (!(toleranceM > 0 && Number.isFinite(toleranceM))) return fail("E_COMPRESS_OPTION", `tolerance must be a positive length, not ${toleranceM}`);
  if (!(vvM > 0 && Number.isFinite(vvM))) return fail("E_COMPRESS_OPTION", `virtualVertexDistance must be positive, not ${vvM}`);
  for (const [name, bits] of [["rotationBits", options.rotationBits], ["translationBits", options.translationBits], ["scaleBits", options.scaleBits]] as const) {
    if (bits !== undefined && !(Number.isInteger(bits) && bits >= 1 && bits <= 24)) return fail("E_COMPRESS_OPTION", `${name} must be an integer 1…24, not ${bits}`);
  }
  if (options.compensate !== undefined && typeof options.compensate !== "boolean") return fail("E_COMPRESS_OPTION", `compensate must be true or false, not ${String(options.compensate)}`);
  const coarseShift = options.coarseShift ?? DEFAULT_COARSE_SHIFT;
  if (!(Number.isInteger(coarseShift) && coarseShift >= 1 && coarseShift <= 4)) return fail("E_COMPRESS_OPTION", `coarseShift must be an integer 1…4, not ${coarseShift}`);
  const rate = options.sampleRate ?? detectSampleRate(clip);
  if (!(rate > 0 && Number.isFinite(rate))) return fail("E_COMPRESS_OPTION", `sampleRate must be a positive number of Hz, not ${rate}`);
  const skeleton = clip.skeleton;
  const J = skeleton.jointCount;
  const start = clip.startTime;
  const span = Math.max(0, clip.duration - start);
  // The grid covers [start, duration]; when the span is not a whole number of frames the last interval
  // is shorter (`frameTime`: the last frame is at `duration`; a thousandth of a frame is rounding, e.g.
  // BVH frame times written to 7 digits).
  let F = Math.round(span * rate) + 1;
  if (span - (F - 1) / rate > 1e-3 / rate) F++;
  if (F > MAX_COMPRESSED_FRAMES) {
    return fail("E_COMPRESS_TOO_MANY_FRAMES", `${F} frames at ${rate} Hz; the limit is ${MAX_COMPRESSED_FRAMES} (try a lower --resample rate)`);
  }
  const J0 = clip.skeleton.jointCount;
  if (J0 * F > MAX_COMPRESS_JOINT_FRAMES) {
    return fail("E_COMPRESS_LIMIT", `${J0} joints × ${F} frames = ${J0 * F} joint-frames; the limit is ${MAX_COMPRESS_JOINT_FRAMES} (memory): resample lower (--resample) or split the take`);
  }
  const work = F * chainWork(clip.skeleton.parents, J0);
  if (work > MAX_COMPRESS_WORK) {
    return fail("E_COMPRESS_LIMIT", `${F} frames × ${work / F} (joints weighted by chain depth) = ${work} units of work; the limit is ${MAX_COMPRESS_WORK} (about half a minute): resample lower (--resample) or split the take`);
  }
  const quatMode = options.quatMode ?? "slerp";
  const tol = toleranceM * upm;
  const vv = vvM * upm;
  const target = TARGET_SHARE * tol;
  warnOffGrid(clip, rate, start, diagnostics, file);
  if (clip.floatTracks.length > 0) {
    diagnostics.push({
      code: "W_COMPRESS_FLOAT_TRACKS", severity: "warning", file, pointer: "",
      message: `${describeFloatTracks(clip.floatTracks)} ${clip.floatTracks.length === 1 ? "is" : "are"} not part of the compressed clip (an .agc holds joint transforms only)`,
    });
  }

  // 1. The reference: the source sampled at every grid frame, and its model-space transforms.
  const ref = createFrameSequence(J, F);
  const pose = createPose(J);
  const cursor = createClipCursor(clip);
  for (let f = 0; f < F; f++) {
    sampleClipUnchecked(pose, clip, frameTime(start, rate, F, clip.duration, f), cursor, quatMode);
    storeFrame(ref, pose, f);
  }
  makeHemisphereContinuous(ref);
  const refModel = modelTransformsUnchecked(new Float64Array(12 * J * F), skeleton, ref);
  const lever = leverArms(refModel, skeleton.parents, J, F, vv);
  const subtrees = subtreeLists(skeleton.parents, J);

  // 2. Fit every animated track with a first budget, then tighten the tracks above each joint that
  // misses the bound until none does. Tracks are fitted parents first: an animated track below the root
  // is aimed at the local values that undo its ancestors' decoded errors (compensate.ts), when the clip's
  // scales are all 1.
  const parents = skeleton.parents;
  const slots: number[] = [];
  for (const track of clip.tracks) slots.push(3 * track.joint + PATH_SLOT[track.path]);
  slots.sort((a, b) => a - b);
  const jointSlots: number[][] = Array.from({ length: J }, () => []);
  for (const slot of slots) jointSlots[Math.floor(slot / 3)]!.push(slot);
  const fitted = new Map<number, CompressedTrack | undefined>();
  const codes = new Map<number, TrackCode | undefined>();
  const share = new Map<number, number>();
  const targets = new Map<number, FitTarget>();
  for (const slot of slots) {
    share.set(slot, INITIAL_SHARE);
    targets.set(slot, fitTargetFor(ref, skeleton.rest, slot, F, lever));
  }
  const fixedStep = (slot: number): number => {
    const bits = slot % 3 === 1 ? options.rotationBits : slot % 3 === 0 ? options.translationBits : options.scaleBits;
    if (bits === undefined) return 0;
    return (slot % 3 === 1 ? 2 : largestExtent(targets.get(slot)!)) / (2 ** bits - 1);
  };
  const fit = (slot: number): void => {
    const result = fitTrack(targets.get(slot)!, { tolerance: share.get(slot)! * tol, fixedStep: fixedStep(slot), coarseShift });
    fitted.set(slot, result.track);
    codes.set(slot, result.code);
  };
  // Compensated slots: translation and rotation tracks below the root that the reference fit finds
  // animated (a constant track stays constant rather than taking up its parent's noise).
  const compensated = new Uint8Array(3 * J);
  if (options.compensate !== false && hasUnitScale(ref)) {
    for (const slot of slots) {
      const joint = Math.floor(slot / 3);
      if (slot % 3 === 2 || parents[joint]! < 0) continue;
      fit(slot);
      if (codes.get(slot)) compensated[slot] = 1;
    }
    const rotationCompensated = new Uint8Array(J);
    for (let j = 0; j < J; j++) rotationCompensated[j] = compensated[3 * j + 1]!;
    const compLever = compensatedLevers(refModel, parents, J, F, vv, rotationCompensated);
    for (const slot of slots) {
      const base = fitTargetFor(ref, skeleton.rest, slot, F, compLever);
      targets.set(slot, compensated[slot] ? { ...base, values: Float64Array.from(base.values) } : base);
    }
  }
  const compensatedOfJoint = jointSlots.map((list) => list.filter((s) => compensated[s]));
  const compensatedSlotsOf = (j: number): number[] => compensatedOfJoint[j]!;
  /** Recomputes the compensated targets of `slot` at frames f0 ≤ f < f1 from the parent's current decoded model transforms. */
  const compensateSlot = (slot: number, f0: number, f1: number): void => {
    const joint = Math.floor(slot / 3);
    const values = targets.get(slot)!.values;
    if (slot % 3 === 1) compensateRotation(values, ref.r.subarray(4 * joint * F, 4 * (joint + 1) * F), refModel, candModel, J, joint, parents[joint]!, f0, f1);
    else compensateTranslation(values, refModel, candModel, J, joint, parents[joint]!, f0, f1);
  };
  const cand = createFrameSequence(J, F);
  fillRest(cand, skeleton.rest);
  const candModel = new Float64Array(12 * J * F);
  const jointOnly = new Int32Array(1);
  // A trial saves what it overwrites in `log` and, when rejected, copies it back (undo-log.ts).
  const log = createUndoLog(16 * J * F);
  const updateModel = (j: number, f0: number, f1: number): void => {
    jointOnly[0] = j;
    modelTransformsRange(candModel, skeleton, cand, jointOnly, f0, f1);
  };
  for (let j = 0; j < J; j++) {
    for (const slot of jointSlots[j]!) {
      if (compensated[slot]) compensateSlot(slot, 0, F);
      fit(slot);
      evaluateSlot(cand, slot, fitted.get(slot), skeleton.rest);
    }
    updateModel(j, 0, F);
  }
  const errors = new Float64Array(J);
  let passes = 0;
  const sizeOf = (): number => {
    let n = 0;
    for (const t of fitted.values()) if (t) n += trackByteLength(t);
    return n;
  };
  const dirty = new Uint8Array(J);
  let best: { fitted: Map<number, CompressedTrack | undefined>; codes: Map<number, TrackCode | undefined>; share: Map<number, number>; bytes: number } | undefined;
  for (; passes < MAX_PASSES; passes++) {
    jointErrorsUnchecked(errors, refModel, candModel, J, F, vv);
    options.onProgress?.(Math.min(0.5, (0.5 * (passes + 1)) / MAX_PASSES));
    const change = new Map<number, number>();
    for (let j = 0; j < J; j++) {
      const e = errors[j]!;
      if (!(e > target)) continue;
      // Every animated track from the root down to j contributes: scale their budgets down in
      // proportion to the overshoot (at least ×0.85 so the loop always moves, at most ×0.3).
      const factor = Math.min(0.85, Math.max(0.3, (0.9 * target) / e));
      for (let a = j; a >= 0; a = parents[a]!) {
        for (const slot of jointSlots[a]!) change.set(slot, Math.min(change.get(slot) ?? 1, factor));
      }
    }
    if (change.size === 0) {
      // Feasible: the greedy and block passes below spend the slack (rounds of loosening whole subtrees
      // here gave under 0.3 % and cost a full refit of every track per round).
      best = { fitted: new Map(fitted), codes: new Map(codes), share: new Map(share), bytes: sizeOf() };
      break;
    }
    // Refit the tracks whose budget changed and, parents first, every compensated track below them.
    for (let j = 0; j < J; j++) {
      const p = parents[j]!;
      const parentMoved = p >= 0 && dirty[p]! === 1;
      let moved = parentMoved;
      for (const slot of jointSlots[j]!) {
        const factor = change.get(slot);
        if (factor === undefined && !(parentMoved && compensated[slot])) continue;
        if (factor !== undefined) share.set(slot, share.get(slot)! * factor);
        if (compensated[slot]) compensateSlot(slot, 0, F);
        fit(slot);
        evaluateSlot(cand, slot, fitted.get(slot), skeleton.rest);
        moved = true;
      }
      dirty[j] = moved ? 1 : 0;
      if (dirty[j]) updateModel(j, 0, F);
    }
  }
  if (best) {
    for (const [slot, track] of best.fitted) fitted.set(slot, track);
    for (const [slot, code] of best.codes) codes.set(slot, code);
    for (const [slot, value] of best.share) share.set(slot, value);
    passes += greedyLoosen();
    options.onProgress?.(0.75);
    if (!options.rotationBits && !options.translationBits && !options.scaleBits) passes += blockLoosen();
  }

  /** Whether joint j stays within the target at frames f0 ≤ f < f1. */
  function jointWithin(j: number, f0: number, f1: number): boolean {
    for (let f = f0; f < f1; f++) {
      const o = (f * J + j) * 12;
      if (vertexErrorUnchecked(refModel, o, candModel, o, vv) > target) return false;
    }
    return true;
  }

  /** Saves slot's candidate values at frames f0 ≤ f < f1. */
  function saveCand(slot: number, f0: number, f1: number): void {
    const k = slot % 3;
    const stride = k === 1 ? 4 : 3;
    const base = Math.floor(slot / 3) * F * stride;
    saveRange(log, k === 0 ? cand.t : k === 1 ? cand.r : cand.s, base + stride * f0, stride * (f1 - f0));
  }
  /** Saves joint j's candidate model transforms at frames f0 ≤ f < f1. */
  function saveModel(j: number, f0: number, f1: number): void {
    saveRuns(log, candModel, (f0 * J + j) * 12, 12, f1 - f0, 12 * J);
  }
  /** Saves what `encodeFineBlock(code, b, …)` and the compensation of frames f0 ≤ f < f1 overwrite. */
  function saveFineBlock(slot: number, code: TrackCode, b: number, f0: number, f1: number): void {
    const stride = code.stride;
    if (compensated[slot]) saveRange(log, targets.get(slot)!.values, stride * f0, stride * (f1 - f0));
    saveRange(log, code.fineQ, 3 * f0, 3 * (f1 - f0));
    saveRange(log, code.decoded, stride * f0, stride * (f1 - f0));
    saveRange(log, code.fineDropped, f0, f1 - f0);
    saveRange(log, code.widths, 6 * b, 3);
    saveRange(log, code.fineCodes, b, 1);
    saveRange(log, code.explicitFine, b, 1);
    saveRange(log, code.blockError, b, 1);
  }
  /** Saves everything a re-encoding of a compensated track (targets, coarse and fine keys) overwrites. */
  function saveTrack(slot: number, code: TrackCode): void {
    saveRange(log, targets.get(slot)!.values, 0, code.stride * F);
    for (const a of [code.coarse, code.coarseQ, code.fineQ, code.widths, code.decoded, code.blockError, code.explicitCoarse, code.explicitFine, code.coarseDropped, code.fineDropped]) {
      saveRange(log, a, 0, a.length);
    }
  }

  /** Bytes of a slot's track as currently encoded. */
  function bytesNow(slot: number): number {
    const code = codes.get(slot);
    if (code) return codeBytes(code);
    const track = fitted.get(slot);
    return track ? trackByteLength(track) : 0;
  }

  /** Writes a slot's current decoded values into `cand`. */
  function show(slot: number): void {
    const code = codes.get(slot);
    if (code) storeDecoded(cand, slot, code, 0, F);
    else evaluateSlot(cand, slot, fitted.get(slot), skeleton.rest);
  }

  /**
   * After the tracks of joint `subtree[0]` changed in `cand`: model transforms of the subtree, parents
   * first, re-encoding every compensated track below it with its steps against its parent's new decoded
   * transforms (a search of new steps per trial cost twice the time for no smaller result), everything
   * overwritten saved in `log`. Returns the bytes of the tracks re-encoded, or −1 as soon as a joint
   * leaves the target (the trial fails whatever the bytes; the joints below are left as they were).
   */
  function propagate(subtree: Int32Array): number {
    let bytes = 0;
    saveModel(subtree[0]!, 0, F);
    updateModel(subtree[0]!, 0, F);
    if (!jointWithin(subtree[0]!, 0, F)) return -1;
    for (let k = 1; k < subtree.length; k++) {
      const j = subtree[k]!;
      for (const slot of compensatedSlotsOf(j)) {
        const code = codes.get(slot);
        if (!code) continue;
        saveTrack(slot, code);
        saveCand(slot, 0, F);
        compensateSlot(slot, 0, F);
        encodeCoarse(code, code.coarseCode);
        for (let b = 0; b < code.fineCodes.length; b++) encodeFineBlock(code, b, code.fineCodes[b]!);
        storeDecoded(cand, slot, code, 0, F);
        bytes += codeBytes(code);
      }
      saveModel(j, 0, F);
      updateModel(j, 0, F);
      if (!jointWithin(j, 0, F)) return -1;
    }
    return bytes;
  }

  /** Bytes of the compensated tracks strictly below the subtree's root. */
  function bytesBelow(subtree: Int32Array): number {
    let bytes = 0;
    for (let k = 1; k < subtree.length; k++) for (const slot of compensatedSlotsOf(subtree[k]!)) if (codes.get(slot)) bytes += bytesNow(slot);
    return bytes;
  }

  /**
   * Error-driven greedy: try a larger budget on one track at a time (the biggest tracks first) and keep
   * it when every joint's measured error stays within the target (compensated tracks below it
   * re-encoded) and the bytes of the track and those below it shrink. Errors along a chain rarely line
   * up, so the budgets the proportional loop leaves are conservative; this spends the slack where the
   * bytes are. Returns the trials run.
   */
  function greedyLoosen(): number {
    let trials = 0;
    for (const factor of GREEDY_FACTORS) {
      for (let round = 0; round < GREEDY_ROUNDS; round++) {
        let accepted = 0;
        const size = new Map(slots.map((s) => [s, bytesNow(s)]));
        const order = [...slots].sort((a, b) => size.get(b)! - size.get(a)!);
        for (const slot of order) {
          const oldTrack = fitted.get(slot);
          const oldCode = codes.get(slot);
          const oldShare = share.get(slot)!;
          const oldBytes = bytesNow(slot);
          share.set(slot, oldShare * factor);
          fit(slot);
          const newBytes = bytesNow(slot);
          if (newBytes >= oldBytes) {
            share.set(slot, oldShare);
            fitted.set(slot, oldTrack);
            codes.set(slot, oldCode);
            continue;
          }
          trials++;
          saveCand(slot, 0, F);
          show(slot);
          // Only the track's subtree moves, and every other joint is within the target already.
          const subtree = subtrees[Math.floor(slot / 3)]!;
          const before = bytesBelow(subtree);
          const after = propagate(subtree);
          if (after >= 0 && newBytes - oldBytes + after - before < 0) {
            accepted++;
            forget(log);
          } else {
            share.set(slot, oldShare);
            fitted.set(slot, oldTrack);
            codes.set(slot, oldCode);
            undo(log);
          }
        }
        if (accepted === 0) break;
      }
    }
    for (const slot of slots) {
      const code = codes.get(slot);
      if (code) fitted.set(slot, assembleTrack(code));
    }
    return trials;
  }

  /**
   * Error-driven greedy per block: a fine key depends only on the coarse keys and its own block's step,
   * so coarsening one block's step changes that block's 16 frames alone (and, below a compensated
   * track, the fine keys of its descendants' compensated tracks in those frames, re-encoded with their
   * steps: coarse frames do not move). Largest tracks first, each block's step is coarsened by 2^(k/8)
   * and kept when every joint of the track's subtree stays within the target at those frames and the
   * bits of the blocks re-encoded shrink: errors differ over time, so a block far from the track's worst
   * frame has room its track-wide budget does not use. Returns the trials run.
   */
  function blockLoosen(): number {
    let trials = 0;
    const blocks = blockCount(F);
    const order = slots.filter((s) => codes.get(s)).sort((a, b) => codeBytes(codes.get(b)!) - codeBytes(codes.get(a)!));
    // Per joint, the compensated predicted tracks strictly below it (parents first).
    const dependents = new Map<number, { slot: number; code: TrackCode }[]>();
    for (let j = 0; j < J; j++) {
      const list: { slot: number; code: TrackCode }[] = [];
      const subtree = subtrees[j]!;
      for (let k = 1; k < subtree.length; k++) for (const s of compensatedSlotsOf(subtree[k]!)) if (codes.get(s)) list.push({ slot: s, code: codes.get(s)! });
      dependents.set(j, list);
    }
    /**
     * After block b of joint `subtree[0]`'s track changed in `cand`: the subtree's model transforms at
     * frames f0 ≤ f < f1, re-encoding block b of every compensated track below it (steps unchanged),
     * everything overwritten saved in `log`. Returns the fine bits of the blocks re-encoded, or −1 as
     * soon as a joint leaves the target.
     */
    const reencodeBelow = (subtree: Int32Array, b: number, f0: number, f1: number): number => {
      let bits = 0;
      saveModel(subtree[0]!, f0, f1);
      updateModel(subtree[0]!, f0, f1);
      if (!jointWithin(subtree[0]!, f0, f1)) return -1;
      for (let k = 1; k < subtree.length; k++) {
        const j = subtree[k]!;
        for (const s of compensatedSlotsOf(j)) {
          const code = codes.get(s);
          if (!code) continue;
          saveFineBlock(s, code, b, f0, f1);
          saveCand(s, f0, f1);
          compensateSlot(s, f0, f1);
          encodeFineBlock(code, b, code.fineCodes[b]!);
          storeDecoded(cand, s, code, f0, f1);
          bits += fineBlockBits(code, b);
        }
        saveModel(j, f0, f1);
        updateModel(j, f0, f1);
        if (!jointWithin(j, f0, f1)) return -1;
      }
      return bits;
    };
    for (let si = 0; si < BLOCK_STEPS.length; si++) {
      const step = BLOCK_STEPS[si]!;
      for (let round = 0; round < BLOCK_ROUNDS; round++) {
        let accepted = 0;
        for (const slot of order) {
          const code = codes.get(slot)!;
          const joint = Math.floor(slot / 3);
          const subtree = subtrees[joint]!;
          const below = dependents.get(joint)!;
          for (let b = 0; b < blocks; b++) {
            if (fineCount(F, code.coarseShift, b) === 0) continue;
            const old = code.fineCodes[b]!;
            const oldBits = fineBlockBits(code, b);
            const f0 = b * KEYS_PER_BLOCK;
            const f1 = Math.min(F, f0 + KEYS_PER_BLOCK);
            saveFineBlock(slot, code, b, f0, f1);
            // The finest step above the current one that saves bits (a coarser step with the same widths
            // only adds error).
            let next = old + step;
            while (next <= 255 && next <= old + 24) {
              encodeFineBlock(code, b, next);
              if (fineBlockBits(code, b) < oldBits) break;
              next++;
            }
            if (next > 255 || next > old + 24) {
              undo(log);
              continue;
            }
            trials++;
            let belowBits = 0;
            for (const d of below) belowBits += fineBlockBits(d.code, b);
            saveCand(slot, f0, f1);
            storeDecoded(cand, slot, code, f0, f1);
            const newBelow = reencodeBelow(subtree, b, f0, f1);
            if (newBelow >= 0 && fineBlockBits(code, b) + newBelow < oldBits + belowBits) {
              accepted++;
              forget(log);
            } else {
              undo(log);
            }
          }
        }
        options.onProgress?.(Math.min(0.99, 0.75 + (0.24 * (si * BLOCK_ROUNDS + round + 1)) / (BLOCK_STEPS.length * BLOCK_ROUNDS)));
        if (accepted === 0) break;
      }
    }
    for (const slot of slots) {
      const code = codes.get(slot);
      if (code) fitted.set(slot, assembleTrack(code));
    }
    return trials;
  }

  const tracks: CompressedTrack[] = [];
  const trackIndex = new Int32Array(3 * J).fill(-1);
  for (const slot of [...slots].sort((a, b) => a - b)) {
    const track = fitted.get(slot);
    if (!track) continue;
    trackIndex[slot] = tracks.length;
    tracks.push(track);
  }
  const compressed: CompressedClip = Object.freeze({
    name: clip.name, skeleton, sampleRate: rate, frameCount: F, startTime: start, duration: clip.duration,
    loopMode: clip.loopMode, tracks: Object.freeze(tracks), trackIndex,
  });
  const stats = measureUnchecked(clip, compressed, { tolerance: toleranceM, virtualVertexDistance: vvM, unitsPerMetre: upm, quatMode }, passes, { refModel, cand, candModel });
  if (stats.maxError > toleranceM) {
    diagnostics.push({
      code: "W_COMPRESS_TOLERANCE_NOT_MET", severity: "warning", file, pointer: "",
      message: `largest error ${(stats.maxError * 1000).toFixed(4)} mm (joint "${stats.worstJoint}") exceeds the tolerance ${(toleranceM * 1000).toFixed(4)} mm`,
    });
  }
  options.onProgress?.(1);
  return { compressed, stats, diagnostics };
}

const MEASURE_OPTIONS_SHAPE: Readonly<Record<string, FieldKind>> = { tolerance: "number", virtualVertexDistance: "number?", unitsPerMetre: "number?", quatMode: "string?" };

/**
 * Measures a compressed clip against its source at every grid frame (both sampled with their real
 * samplers, model space in float64): sizes, ratio, per-joint maximum and mean virtual-vertex error.
 */
export function measureCompression(
  clip: Clip,
  compressed: CompressedClip,
  options: { tolerance: number; virtualVertexDistance?: number; unitsPerMetre?: number; quatMode?: QuatInterpolation },
  passes = 0,
): CompressionStats {
  const fn = "measureCompression";
  expectWholeClip(fn, "clip", clip);
  expectCompressedClip(fn, "compressed", compressed, clip.skeleton.jointCount);
  expectShape(fn, "options", options, "an options object ({ tolerance, virtualVertexDistance?, unitsPerMetre?, quatMode? })", MEASURE_OPTIONS_SHAPE);
  if (options.quatMode !== undefined) expectOneOf(fn, "options.quatMode", options.quatMode, ["slerp", "fastSlerp", "nlerp"]);
  expectInteger(fn, "passes", passes);
  return measureUnchecked(clip, compressed, options, passes);
}

/**
 * `measureCompression` without the argument checks. compressClip passes the source's model transforms
 * at the grid frames, which it sampled the same way (its hemisphere flips leave the matrices' bits
 * as they are), and its candidate buffers, which it no longer needs.
 */
function measureUnchecked(
  clip: Clip,
  compressed: CompressedClip,
  options: { tolerance: number; virtualVertexDistance?: number; unitsPerMetre?: number; quatMode?: QuatInterpolation },
  passes: number,
  known?: { refModel: Float64Array; cand: FrameSequence; candModel: Float64Array },
): CompressionStats {
  const J = clip.skeleton.jointCount;
  const F = compressed.frameCount;
  const upm = options.unitsPerMetre ?? 1;
  const vv = (options.virtualVertexDistance ?? 0.03) * upm;
  const quatMode = options.quatMode ?? "slerp";
  const ref = known ? undefined : createFrameSequence(J, F);
  const cand = known ? known.cand : createFrameSequence(J, F);
  const pose = createPose(J);
  const cursor = createClipCursor(clip);
  const ccursor = createCompressedClipCursor(compressed);
  for (let f = 0; f < F; f++) {
    const time = frameTime(compressed.startTime, compressed.sampleRate, F, compressed.duration, f);
    if (ref) {
      sampleClipUnchecked(pose, clip, time, cursor, quatMode);
      storeFrame(ref, pose, f);
    }
    sampleCompressedClipUnchecked(pose, compressed, time, ccursor, quatMode);
    storeFrame(cand, pose, f);
  }
  const refModel = known ? known.refModel : modelTransformsUnchecked(new Float64Array(12 * J * F), clip.skeleton, ref!);
  const candModel = modelTransformsUnchecked(known ? known.candModel : new Float64Array(12 * J * F), clip.skeleton, cand);
  const jointMaxError = new Float64Array(J);
  const mean = jointErrorsUnchecked(jointMaxError, refModel, candModel, J, F, vv);
  let worst = 0;
  for (let j = 1; j < J; j++) if (jointMaxError[j]! > jointMaxError[worst]!) worst = j;
  for (let j = 0; j < J; j++) jointMaxError[j] = jointMaxError[j]! / upm;
  const rawBytes = 40 * J * F;
  const compressedBytes = compressedByteLength(compressed);
  let keyCount = 0;
  for (const t of compressed.tracks) keyCount += t.encoding === TrackEncoding.CONSTANT ? 1 : t.frameCount;
  return {
    clip: clip.name, jointCount: J, frameCount: F, sampleRate: compressed.sampleRate,
    rawBytes, compressedBytes, ratio: rawBytes / compressedBytes, runtimeBytes: runtimeByteLength(compressed), tolerance: options.tolerance,
    maxError: J > 0 ? jointMaxError[worst]! : 0, meanError: mean / upm,
    worstJoint: J > 0 ? clip.skeleton.names[worst]! : "", worstJointIndex: J > 0 ? worst : -1,
    jointMaxError, trackCount: compressed.tracks.length, keyCount, passes,
  };
}

function storeFrame(seq: FrameSequence, pose: Pose, f: number): void {
  const F = seq.frameCount;
  for (let j = 0; j < seq.jointCount; j++) {
    const i = j * F + f;
    for (let c = 0; c < 3; c++) {
      seq.t[3 * i + c] = pose.t[3 * j + c]!;
      seq.s[3 * i + c] = pose.s[3 * j + c]!;
    }
    for (let c = 0; c < 4; c++) seq.r[4 * i + c] = pose.r[4 * j + c]!;
  }
}

/** Flips rotation frames so consecutive ones lie in the same hemisphere (q and −q are one rotation). */
function makeHemisphereContinuous(seq: FrameSequence): void {
  const F = seq.frameCount;
  const r = seq.r;
  for (let j = 0; j < seq.jointCount; j++) {
    for (let f = 1; f < F; f++) {
      const a = 4 * (j * F + f - 1);
      const b = a + 4;
      if (r[a]! * r[b]! + r[a + 1]! * r[b + 1]! + r[a + 2]! * r[b + 2]! + r[a + 3]! * r[b + 3]! < 0) {
        for (let c = 0; c < 4; c++) r[b + c] = -r[b + c]!;
      }
    }
  }
}

/**
 * Lever arm per joint: the virtual-vertex distance plus the farthest any joint of its subtree gets
 * from it over the clip (an angle error θ at the joint moves that joint's vertices by about θ × lever).
 */
function leverArms(model: Float64Array, parents: Int16Array, J: number, F: number, vv: number): Float64Array {
  const lever = new Float64Array(J);
  for (let f = 0; f < F; f++) {
    for (let k = 0; k < J; k++) {
      const ko = (f * J + k) * 12;
      for (let a = parents[k]!; a >= 0; a = parents[a]!) {
        const ao = (f * J + a) * 12;
        const dx = model[ko + 9]! - model[ao + 9]!, dy = model[ko + 10]! - model[ao + 10]!, dz = model[ko + 11]! - model[ao + 11]!;
        // Math.hypot (allocating, and slower) only where it can raise the maximum: the plain root is
        // within 1e-15 of it, so the levers are the same bits as with hypot everywhere.
        const s2 = dx * dx + dy * dy + dz * dz;
        if (s2 > 1e-300 && Math.sqrt(s2) < lever[a]! * (1 - 1e-9)) continue;
        const d = Math.hypot(dx, dy, dz);
        if (d > lever[a]!) lever[a] = d;
      }
    }
  }
  for (let j = 0; j < J; j++) lever[j] = lever[j]! + vv;
  return lever;
}

function fitTargetFor(ref: FrameSequence, rest: Pose, slot: number, F: number, lever: Float64Array): FitTarget {
  const joint = Math.floor(slot / 3);
  const k = slot % 3;
  const path: TrackPath = k === 0 ? "translation" : k === 1 ? "rotation" : "scale";
  const stride = k === 1 ? 4 : 3;
  const src = k === 0 ? ref.t : k === 1 ? ref.r : ref.s;
  const restSrc = k === 0 ? rest.t : k === 1 ? rest.r : rest.s;
  return {
    joint, path, frameCount: F, lever: lever[joint]!,
    values: src.subarray(joint * F * stride, (joint + 1) * F * stride),
    rest: restSrc.subarray(stride * joint, stride * joint + stride),
  };
}

function fillRest(seq: FrameSequence, rest: Pose): void {
  for (let j = 0; j < seq.jointCount; j++) {
    for (let f = 0; f < seq.frameCount; f++) {
      const i = j * seq.frameCount + f;
      for (let c = 0; c < 3; c++) {
        seq.t[3 * i + c] = rest.t[3 * j + c]!;
        seq.s[3 * i + c] = rest.s[3 * j + c]!;
      }
      for (let c = 0; c < 4; c++) seq.r[4 * i + c] = rest.r[4 * j + c]!;
    }
  }
}

/** Writes what `sampleCompressedClip` gives for one track at every grid frame into `seq`. */
function evaluateSlot(seq: FrameSequence, slot: number, track: CompressedTrack | undefined, rest: Pose): void {
  const joint = Math.floor(slot / 3);
  const k = slot % 3;
  const stride = k === 1 ? 4 : 3;
  const out = k === 0 ? seq.t : k === 1 ? seq.r : seq.s;
  const F = seq.frameCount;
  const base = joint * F * stride;
  if (!track || track.encoding === TrackEncoding.CONSTANT) {
    const src = track ? track.params : (k === 0 ? rest.t : k === 1 ? rest.r : rest.s).subarray(stride * joint, stride * joint + stride);
    for (let f = 0; f < F; f++) for (let c = 0; c < stride; c++) out[base + f * stride + c] = Math.fround(src[c]!);
    return;
  }
  for (let f = 0; f < F; f++) {
    decodeKey(key, 0, track, f);
    for (let c = 0; c < stride; c++) out[base + f * stride + c] = key[c]!;
  }
}

const key = new Float32Array(4);

/** Writes the encoder's decoded values of frames f0 ≤ f < f1 of a predicted track into `seq`. */
function storeDecoded(seq: FrameSequence, slot: number, code: TrackCode, f0: number, f1: number): void {
  const joint = Math.floor(slot / 3);
  const k = slot % 3;
  const stride = code.stride;
  const out = k === 0 ? seq.t : k === 1 ? seq.r : seq.s;
  const base = joint * seq.frameCount * stride;
  for (let f = f0; f < f1; f++) for (let c = 0; c < stride; c++) out[base + f * stride + c] = code.decoded[f * stride + c]!;
}

/** Per joint, the joint and its descendants, parents first. */
function subtreeLists(parents: Int16Array, J: number): Int32Array[] {
  const lists: Int32Array[] = [];
  const inside = new Uint8Array(J);
  for (let j = 0; j < J; j++) {
    inside.fill(0);
    inside[j] = 1;
    const list = [j];
    for (let k = j + 1; k < J; k++) {
      const p = parents[k]!;
      if (p >= 0 && inside[p]) {
        inside[k] = 1;
        list.push(k);
      }
    }
    lists.push(Int32Array.from(list));
  }
  return lists;
}

/** The largest extent of a translation or scale track's components over the clip. */
function largestExtent(target: FitTarget): number {
  let worst = 0;
  const v = target.values;
  for (let c = 0; c < 3; c++) {
    let lo = Infinity, hi = -Infinity;
    for (let f = 0; f < target.frameCount; f++) {
      lo = Math.min(lo, v[3 * f + c]!);
      hi = Math.max(hi, v[3 * f + c]!);
    }
    worst = Math.max(worst, hi - lo);
  }
  return worst > 0 ? worst : 1;
}

/** Warns when source keys do not lie on the grid (between grid frames the compressed curve is linear). */
function warnOffGrid(clip: Clip, rate: number, start: number, diagnostics: Diagnostic[], diagnosticsFile: string): void {
  let offGrid = 0;
  let cubic = 0;
  for (const track of clip.tracks) {
    if (track.interpolation === "CUBICSPLINE") cubic++;
    for (let i = 0; i < track.times.length; i++) {
      const u = (track.times[i]! - start) * rate;
      if (Math.abs(u - Math.round(u)) > 1e-3) {
        offGrid++;
        break;
      }
    }
  }
  if (offGrid > 0 || cubic > 0) {
    diagnostics.push({
      code: "W_COMPRESS_OFF_GRID", severity: "warning", file: diagnosticsFile, pointer: "",
      message: `${offGrid} track(s) have keys off the ${rate.toFixed(3)} Hz grid and ${cubic} are CUBICSPLINE; the error is measured at grid frames only`,
    });
  }
}

/**
 * A clip's float tracks named by what the file has: a .vrma's VRM expressions (`expression:<name>`) and
 * look-at, a glTF's morph weights. "2 morph-weight track(s)" told a .vrma's user nothing about their smile.
 */
export function describeFloatTracks(tracks: readonly FloatTrack[]): string {
  const expressions = tracks.filter((t) => t.target.startsWith("expression:")).map((t) => `"${t.target.slice("expression:".length)}"`);
  const lookAt = tracks.filter((t) => t.target === "lookAt").length;
  const morph = tracks.length - expressions.length - lookAt;
  const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? "" : "s"}`;
  const parts: string[] = [];
  if (expressions.length > 0) parts.push(`${plural(expressions.length, "VRM expression track")} (${expressions.slice(0, 6).join(", ")}${expressions.length > 6 ? ", …" : ""})`);
  if (lookAt > 0) parts.push(lookAt === 1 ? "the VRM look-at track" : plural(lookAt, "VRM look-at track"));
  if (morph > 0) parts.push(plural(morph, "morph-weight track"));
  return parts.join(" and ");
}
