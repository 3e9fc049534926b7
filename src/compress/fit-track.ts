import type { TrackPath } from "../clip/clip.ts";
import { expGolombLength, MAX_FIELD_BITS, wordsFor, writeBits, writeExpGolomb, zigzag } from "./bit-pack.ts";
import {
  blockCount, EXPLICIT_BITS, HEADER_CODE_ORDER, HEADER_WIDTH_ORDER, coarseCount, coarseFrame, deriveTrack, droppedComponent, isCoarse, KEYS_PER_BLOCK, predictCoarse,
  predictFine, reconstructFrom, reconstructCoarse, STEP_CODE_ONE, stepFor, TrackEncoding, type CompressedTrack,
} from "./compressed-clip.ts";

/** What `fitTrack` needs to know about one track (all lengths in skeleton units). */
export interface FitTarget {
  readonly joint: number;
  readonly path: TrackPath;
  /** Reference values at every grid frame, `stride` floats each (rotations hemisphere-continuous). */
  readonly values: Float64Array;
  readonly frameCount: number;
  /**
   * Displacement per unit of value difference: 1 for translations; for scales and rotations the
   * lever arm L (the farthest virtual vertex of the joint's subtree from the joint). A rotation error
   * with chord |Δq| moves a point at distance L by about 2 |Δq| L.
   */
  readonly lever: number;
  /** The rest value (the track is dropped when it stays within tolerance of it). */
  readonly rest: ArrayLike<number>;
}

export interface FitSettings {
  /** Displacement budget of every key of this track (skeleton units). */
  readonly tolerance: number;
  /** A fixed quantisation step (value units), or 0 to choose the coarsest steps that meet the budget. */
  readonly fixedStep: number;
  /** Coarse keys every 2^coarseShift frames (0…4). */
  readonly coarseShift: number;
}

/**
 * The encoder's state of one predicted track: its steps and everything needed to re-encode one block's
 * fine keys alone (`encodeFineBlock`), which only changes that block's frames — fine keys are predicted
 * from the coarse keys, never from each other.
 */
export interface TrackCode {
  readonly target: FitTarget;
  readonly rotation: boolean;
  readonly stride: number;
  /** Displacement per unit of value difference (see `FitTarget.lever`). */
  readonly weight: number;
  readonly coarseShift: number;
  /** Base step s0 (a float32 value; stored as the last param). */
  readonly s0: number;
  readonly coarseCode: number;
  /** Fine step code per block. */
  readonly fineCodes: Uint8Array;
  /** Decoded coarse keys (what `deriveTrack` rebuilds from the stored bits). */
  readonly coarse: Float32Array;
  /** Residuals of the coarse keys, 3 per coarse key (key 0 is stored whole). */
  readonly coarseQ: Int32Array;
  /** Residuals of the fine keys, 3 per frame (coarse frames unused). */
  readonly fineQ: Int32Array;
  /** Per block, the widths of the fine residuals' three components, then of the coarse ones (6 bytes). */
  readonly widths: Uint8Array;
  /** Every frame's decoded value (float32, as the sampler's cache holds it), `stride` floats each. */
  readonly decoded: Float32Array;
  /** Largest weighted key error per block (skeleton units). */
  readonly blockError: Float64Array;
  /**
   * Rotations: per block, whether a coarse key (explicitCoarse) or a fine key (explicitFine) in it needs
   * an explicit dropped component; either makes the block store one for every key.
   */
  readonly explicitCoarse: Uint8Array;
  readonly explicitFine: Uint8Array;
  /** Rotations: the component each coarse key (per coarse key) and fine key (per frame) drops. */
  readonly coarseDropped: Uint8Array;
  readonly fineDropped: Uint8Array;
}

/** Whether block b of `code` stores explicit dropped components. */
export function isExplicit(code: TrackCode, b: number): boolean {
  return code.explicitCoarse[b]! + code.explicitFine[b]! > 0;
}

/** Bits a key of block b spends on its explicit dropped component (0 or EXPLICIT_BITS). */
function explicitBits(code: TrackCode, b: number): number {
  return isExplicit(code, b) ? EXPLICIT_BITS : 0;
}

/** What `fitTrack` gives: nothing (the rest pose does), a CONSTANT track, or a predicted one with its code. */
export interface FitResult {
  readonly track: CompressedTrack | undefined;
  readonly code: TrackCode | undefined;
}

/** The largest residual magnitude a 24-bit field holds. */
const MAX_Q = (1 << (MAX_FIELD_BITS - 1)) - 1;
/** Step codes tried above the analytic estimate before walking down to the first that meets the budget. */
const CODE_HEADROOM = 6;

/**
 * Fits one track: `undefined` when it stays within its budget of the rest value for the whole clip (the
 * joint then takes the rest pose), a CONSTANT track when it stays within its budget of its first frame,
 * otherwise a predicted track whose coarse step and per-block fine steps are the coarsest (in steps of
 * 2^(1/8)) whose every key stays within the budget.
 */
export function fitTrack(target: FitTarget, settings: FitSettings): FitResult {
  const rotation = target.path === "rotation";
  const stride = rotation ? 4 : 3;
  const v = target.values;
  const F = target.frameCount;
  const weight = trackWeight(target);
  const tol = settings.tolerance;
  let maxFromFirst = 0;
  let maxFromRest = 0;
  for (let f = 0; f < F; f++) {
    maxFromFirst = Math.max(maxFromFirst, weight * distance(v, f * stride, v, 0, stride));
    maxFromRest = Math.max(maxFromRest, weight * distance(v, f * stride, target.rest, 0, stride));
  }
  if (maxFromRest <= tol) return { track: undefined, code: undefined };
  if (maxFromFirst <= tol || F === 1) {
    const params = new Float32Array(stride);
    for (let c = 0; c < stride; c++) params[c] = v[c]!;
    return { track: constantTrack(target.joint, target.path, F, params), code: undefined };
  }
  const fixed = settings.fixedStep > 0;
  // Per-component error ≤ s/2 on three components: |Δ| ≤ (√3/2)·s, and the restored fourth moves too.
  const estimate = fixed ? settings.fixedStep : tol / (weight * (rotation ? 1.2 : 0.9));
  const s0 = Math.fround(estimate);
  const blocks = blockCount(F);
  const nC = coarseCount(F, settings.coarseShift);
  const code: TrackCode = {
    target, rotation, stride, weight, coarseShift: settings.coarseShift, s0, coarseCode: STEP_CODE_ONE,
    fineCodes: new Uint8Array(blocks).fill(STEP_CODE_ONE), coarse: new Float32Array(stride * nC), coarseQ: new Int32Array(3 * nC),
    fineQ: new Int32Array(3 * F), widths: new Uint8Array(6 * blocks), decoded: new Float32Array(stride * F), blockError: new Float64Array(blocks),
    explicitCoarse: new Uint8Array(blocks), explicitFine: new Uint8Array(blocks), coarseDropped: new Uint8Array(nC), fineDropped: new Uint8Array(F),
  };
  if (!fixed) {
    // The coarsest coarse step whose keys all meet the budget (at most CODE_HEADROOM above the estimate).
    const top = STEP_CODE_ONE + CODE_HEADROOM;
    const c = searchCode(STEP_CODE_ONE + 2, top, (k) => encodeCoarse(code, k) <= tol);
    if (code.coarseCode !== c) encodeCoarse(code, c);
  } else {
    encodeCoarse(code, STEP_CODE_ONE);
  }
  // Each block's fine step: the search starts where the block before ended (neighbours are alike), so
  // it usually takes two or three trial encodings instead of walking down from the top.
  let start = code.coarseCode + 2;
  for (let b = 0; b < blocks; b++) {
    if (fixed) {
      encodeFineBlock(code, b, STEP_CODE_ONE);
      continue;
    }
    const top = code.coarseCode + CODE_HEADROOM;
    const c = searchCode(Math.min(start, top), top, (k) => encodeFineBlock(code, b, k) <= tol);
    if (code.fineCodes[b] !== c) encodeFineBlock(code, b, c);
    start = c;
  }
  return { track: assembleTrack(code), code };
}

/**
 * A step code meeting `ok`, searched from `start`: upward while the next code still meets it (up to
 * `top`), or downward to the first that does (0 when none does). The last code tried is the result
 * unless the search went up and failed, so callers re-encode only when the last trial was not it.
 */
function searchCode(start: number, top: number, ok: (code: number) => boolean): number {
  let c = start;
  if (ok(c)) {
    while (c < top && ok(c + 1)) c++;
    return c;
  }
  while (c > 0 && !ok(c - 1)) c--;
  return c > 0 ? c - 1 : 0;
}

/** Displacement per unit of value difference of a track: 1, 2L or L (see `FitTarget.lever`). */
export function trackWeight(target: FitTarget): number {
  return target.path === "translation" ? 1 : target.path === "rotation" ? 2 * target.lever : target.lever;
}

function constantTrack(joint: number, path: TrackPath, F: number, params: Float32Array): CompressedTrack {
  return {
    joint, path, encoding: TrackEncoding.CONSTANT, frameCount: F, coarseShift: 0, coarseCode: 0, params, data: new Uint32Array(0),
    coarse: new Float32Array(0), blockOffset: new Uint32Array(0), blockWidth: new Uint8Array(0), blockStep: new Float64Array(0),
  };
}

/** Euclidean distance between two value vectors, sign-insensitive for quaternions (q ≡ −q). */
export function distance(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, stride: number): number {
  let s = 0;
  let t = 0;
  for (let c = 0; c < stride; c++) {
    const x = a[ao + c]!, y = b[bo + c]!;
    s += (x - y) * (x - y);
    t += (x + y) * (x + y);
  }
  return Math.sqrt(stride === 4 ? Math.min(s, t) : s);
}

const pred = new Float64Array(4);
const truth = new Float64Array(4);
const slots = new Int32Array(3);

/**
 * The component rotation key v[vo …] should drop against the prediction in `pred`: the prediction's
 * largest (`droppedComponent`, implied, no bits), unless that component is less than half the key's
 * largest in magnitude — then the key's largest, stored explicitly. Returns the component, plus 4 when it must be stored.
 */
function chooseDropped(v: Float64Array, vo: number): number {
  const d = droppedComponent(pred[0]!, pred[1]!, pred[2]!, pred[3]!);
  let m = 0;
  let dm = 0;
  for (let c = 0; c < 4; c++) {
    const a = Math.abs(v[vo + c]!);
    if (a > m) { m = a; dm = c; }
  }
  return Math.abs(v[vo + d]!) < 0.5 * m ? dm + 4 : d;
}

/**
 * The residuals of value v[vo …] against the prediction in `pred` with step s, into q[qo … qo + 2]
 * (rounded, clamped to 24 bits). Rotations: `d` is the dropped component, the value is taken in the
 * hemisphere where component d has the prediction's sign, and the other three are stored.
 */
function quantiseResidual(q: Int32Array, qo: number, v: Float64Array, vo: number, rotation: boolean, s: number, d: number): void {
  if (rotation) {
    // The dropped component is restored with the prediction's sign (+ when it is 0): take the value (q
    // or −q, one rotation) whose dropped component has that sign. Normally that is also the one nearer
    // the prediction; after a jump in the source (a glitch) it may not be, and the residual is large instead.
    const sign = (pred[d]! < 0) !== (v[vo + d]! < 0) ? -1 : 1;
    for (let c = 0; c < 4; c++) truth[c] = sign * v[vo + c]!;
    for (let i = 0, c = 0; c < 4; c++) if (c !== d) slots[i++] = c;
  } else {
    for (let c = 0; c < 3; c++) {
      truth[c] = v[vo + c]!;
      slots[c] = c;
    }
  }
  for (let i = 0; i < 3; i++) {
    const c = slots[i]!;
    const r = Math.round((truth[c]! - pred[c]!) / s);
    q[qo + i] = r > MAX_Q ? MAX_Q : r < -MAX_Q ? -MAX_Q : r;
  }
}

/** Bits needed by a signed value q in two's complement. */
function bitsOf(q: number): number {
  const m = q < 0 ? -q - 1 : q;
  return m === 0 && q === 0 ? 0 : 33 - Math.clz32(m);
}

const keyScratch = new Float32Array(4);

/**
 * (Re)encodes the coarse keys of `code` with step code `stepCode`: sequentially, each predicted from the
 * decoded keys before it. Fills `coarse`, `coarseQ`, the coarse widths and the coarse frames of `decoded`;
 * returns the largest weighted error of a coarse key.
 */
export function encodeCoarse(code: TrackCode, stepCode: number): number {
  (code as { coarseCode: number }).coarseCode = stepCode;
  const { target, rotation, stride, coarse, coarseQ, widths, decoded } = code;
  const F = target.frameCount;
  const shift = code.coarseShift;
  const v = target.values;
  const s = stepFor(code.s0, stepCode);
  const nC = coarseCount(F, shift);
  const blocks = blockCount(F);
  for (let b = 0; b < blocks; b++) for (let i = 3; i < 6; i++) widths[6 * b + i] = 0;
  code.explicitCoarse.fill(0);
  for (let c = 0; c < stride; c++) {
    coarse[c] = v[c]!;
    decoded[c] = coarse[c]!;
  }
  let worst = code.weight * distance(decoded, 0, v, 0, stride);
  for (let j = 1; j < nC; j++) {
    const f = coarseFrame(F, shift, j);
    predictCoarse(pred, coarse, stride, F, shift, j);
    let d = -1;
    if (rotation) {
      const choice = chooseDropped(v, stride * f);
      d = choice & 3;
      code.coarseDropped[j] = d;
      if (choice > 3) code.explicitCoarse[f >>> 4] = 1;
    }
    quantiseResidual(coarseQ, 3 * j, v, stride * f, rotation, s, d);
    reconstructCoarse(coarse, stride, j, pred, coarseQ[3 * j]!, coarseQ[3 * j + 1]!, coarseQ[3 * j + 2]!, s, d);
    for (let c = 0; c < stride; c++) decoded[stride * f + c] = coarse[stride * j + c]!;
    const e = code.weight * distance(decoded, stride * f, v, stride * f, stride);
    if (e > worst) worst = e;
    const b = f >>> 4;
    for (let i = 0; i < 3; i++) {
      const w = bitsOf(coarseQ[3 * j + i]!);
      if (w > widths[6 * b + 3 + i]!) widths[6 * b + 3 + i] = w;
    }
  }
  return worst;
}

/**
 * (Re)encodes the fine keys of block b of `code` with fine step code `stepCode` (against the current coarse
 * keys): fills their residuals, the block's fine widths and decoded values, and its `blockError`, which it
 * returns.
 */
export function encodeFineBlock(code: TrackCode, b: number, stepCode: number): number {
  code.fineCodes[b] = stepCode;
  const { target, rotation, stride, coarse, fineQ, widths, decoded } = code;
  const F = target.frameCount;
  const shift = code.coarseShift;
  const v = target.values;
  const s = stepFor(code.s0, stepCode);
  let w0 = 0, w1 = 0, w2 = 0;
  let worst = 0;
  const end = Math.min(F, (b + 1) * KEYS_PER_BLOCK);
  code.explicitFine[b] = 0;
  for (let f = b * KEYS_PER_BLOCK; f < end; f++) {
    if (isCoarse(F, shift, f)) continue;
    predictFine(pred, coarse, stride, F, shift, f);
    let d = -1;
    if (rotation) {
      const choice = chooseDropped(v, stride * f);
      d = choice & 3;
      code.fineDropped[f] = d;
      if (choice > 3) code.explicitFine[b] = 1;
    }
    quantiseResidual(fineQ, 3 * f, v, stride * f, rotation, s, d);
    const q0 = fineQ[3 * f]!, q1 = fineQ[3 * f + 1]!, q2 = fineQ[3 * f + 2]!;
    reconstructFrom(keyScratch, 0, rotation, pred, q0, q1, q2, s, d);
    for (let c = 0; c < stride; c++) decoded[stride * f + c] = keyScratch[c]!;
    const e = code.weight * distance(decoded, stride * f, v, stride * f, stride);
    if (e > worst) worst = e;
    w0 = Math.max(w0, bitsOf(q0));
    w1 = Math.max(w1, bitsOf(q1));
    w2 = Math.max(w2, bitsOf(q2));
  }
  widths[6 * b] = w0;
  widths[6 * b + 1] = w1;
  widths[6 * b + 2] = w2;
  code.blockError[b] = worst;
  return worst;
}

/** Bits of block b's fine residuals under `code`. */
export function fineBlockBits(code: TrackCode, b: number): number {
  const F = code.target.frameCount;
  const shift = code.coarseShift;
  let n = 0;
  const end = Math.min(F, (b + 1) * KEYS_PER_BLOCK);
  for (let f = b * KEYS_PER_BLOCK; f < end; f++) if (!isCoarse(F, shift, f)) n++;
  return n * (code.widths[6 * b]! + code.widths[6 * b + 1]! + code.widths[6 * b + 2]! + explicitBits(code, b));
}

/** Bits of the block headers under `code` (each field coded as the difference from the previous block's). */
export function headerBits(code: TrackCode): number {
  const blocks = blockCount(code.target.frameCount);
  const w = code.widths;
  let bits = 0;
  let prev = code.coarseCode;
  for (let b = 0; b < blocks; b++) {
    bits += expGolombLength(zigzag(code.fineCodes[b]! - prev), HEADER_CODE_ORDER);
    prev = code.fineCodes[b]!;
    for (let i = 0; i < 6; i++) bits += expGolombLength(zigzag(w[6 * b + i]! - (b > 0 ? w[6 * b - 6 + i]! : 0)), HEADER_WIDTH_ORDER);
    if (code.rotation) bits++;
  }
  return bits;
}

/** Total bits of the track's packed data under `code`. */
export function codeBits(code: TrackCode): number {
  const F = code.target.frameCount;
  const shift = code.coarseShift;
  const blocks = blockCount(F);
  let bits = headerBits(code);
  const nC = coarseCount(F, shift);
  for (let j = 1; j < nC; j++) {
    const b = coarseFrame(F, shift, j) >>> 4;
    bits += code.widths[6 * b + 3]! + code.widths[6 * b + 4]! + code.widths[6 * b + 5]! + explicitBits(code, b);
  }
  for (let b = 0; b < blocks; b++) bits += fineBlockBits(code, b);
  return bits;
}

/** Bytes the track takes in the container under `code` (as `trackByteLength` of the assembled track). */
export function codeBytes(code: TrackCode): number {
  return 12 + 4 * (code.stride + 1) + 4 * wordsFor(codeBits(code));
}

/**
 * Packs `code` into a CompressedTrack: params (first key, s0), the block headers and residuals, and the
 * derived tables rebuilt from those bits by `deriveTrack`, exactly as a reader rebuilds them.
 */
export function assembleTrack(code: TrackCode): CompressedTrack {
  const { target, stride, widths } = code;
  const F = target.frameCount;
  const shift = code.coarseShift;
  const blocks = blockCount(F);
  const data = new Uint32Array(wordsFor(codeBits(code)));
  let bit = 0;
  let prev = code.coarseCode;
  for (let b = 0; b < blocks; b++) {
    bit = writeExpGolomb(data, bit, zigzag(code.fineCodes[b]! - prev), HEADER_CODE_ORDER);
    prev = code.fineCodes[b]!;
    for (let i = 0; i < 6; i++) bit = writeExpGolomb(data, bit, zigzag(widths[6 * b + i]! - (b > 0 ? widths[6 * b - 6 + i]! : 0)), HEADER_WIDTH_ORDER);
    if (code.rotation) {
      if (isExplicit(code, b)) writeBits(data, bit, 1, 1);
      bit++;
    }
  }
  const nC = coarseCount(F, shift);
  for (let j = 1; j < nC; j++) {
    const b = coarseFrame(F, shift, j) >>> 4;
    if (isExplicit(code, b)) {
      writeBits(data, bit, EXPLICIT_BITS, code.coarseDropped[j]!);
      bit += EXPLICIT_BITS;
    }
    for (let i = 0; i < 3; i++) {
      const w = widths[6 * b + 3 + i]!;
      if (w > 0) writeBits(data, bit, w, code.coarseQ[3 * j + i]!);
      bit += w;
    }
  }
  for (let b = 0; b < blocks; b++) {
    const end = Math.min(F, (b + 1) * KEYS_PER_BLOCK);
    for (let f = b * KEYS_PER_BLOCK; f < end; f++) {
      if (isCoarse(F, shift, f)) continue;
      if (isExplicit(code, b)) {
        writeBits(data, bit, EXPLICIT_BITS, code.fineDropped[f]!);
        bit += EXPLICIT_BITS;
      }
      for (let i = 0; i < 3; i++) {
        const w = widths[6 * b + i]!;
        if (w > 0) writeBits(data, bit, w, code.fineQ[3 * f + i]!);
        bit += w;
      }
    }
  }
  const params = new Float32Array(stride + 1);
  for (let c = 0; c < stride; c++) params[c] = code.coarse[c]!;
  params[stride] = code.s0;
  const encoding = code.rotation ? TrackEncoding.ROTATION : TrackEncoding.RANGE;
  const derived = deriveTrack(encoding, F, shift, code.coarseCode, params, data);
  if (!derived) throw new Error("assembleTrack: the packed track does not decode (a bug)");
  return {
    joint: target.joint, path: target.path, encoding, frameCount: F, coarseShift: shift, coarseCode: code.coarseCode, params, data,
    coarse: derived.coarse, blockOffset: derived.blockOffset, blockWidth: derived.blockWidth, blockStep: derived.blockStep,
  };
}
