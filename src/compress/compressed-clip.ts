import type { LoopMode, TrackPath } from "../clip/clip.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { MAX_FIELD_BITS, readBits, readExpGolomb, unzigzag, type ExpGolombRead } from "./bit-pack.ts";

/**
 * How a compressed track stores its keys (docs/compression.md, "The `.agc` container"). Every grid frame of an
 * animated track is a key; the keys are predicted and only the quantised prediction errors are stored:
 *
 * - `CONSTANT` (0): one key, `params` holds it as float32 (3 or 4 floats), no packed data;
 * - `RANGE` (1): translation or scale, 3 components per key;
 * - `ROTATION` (2): unit quaternions; 3 components per key are stored, the fourth — the largest of the
 *   key's prediction — is restored as ±√(1 − a² − b² − c²) with the prediction's sign.
 *
 * Two tiers of keys. **Coarse keys**, every `2^coarseShift` frames and the last frame, are predicted by
 * linear extrapolation from the two coarse keys before them (a second difference); the first is stored
 * whole in `params`. They are decoded once, when the track is built or read (`deriveTrack`), into the
 * float32 table `coarse`. **Fine keys**, the frames between, are predicted by linear interpolation of the
 * two coarse keys around them, so any fine key decodes in O(1) from the table and its own residual.
 * A residual component is a signed integer q (two's complement, 0…24 bits) times the step s:
 * value = prediction + q·s.
 *
 * Frames are grouped in blocks of `KEYS_PER_BLOCK` (16). Each block has a header: its fine step code
 * (0…255), the widths of its fine residuals' three components and of its coarse residuals' three
 * components (0…24 bits each), each stored as the difference from the previous block's (the first
 * block's from the track's coarse step code and from 0), zigzag-mapped and Exp-Golomb coded (order 2 for
 * the step code, 0 for the widths): neighbouring blocks are alike, so a header takes about 20 bits.
 * Steps are `s0 · 2^((code − 64) / 8)`, s0 = the last param; the coarse step code is one per track
 * (`coarseCode`).
 */
export const TrackEncoding = { CONSTANT: 0, RANGE: 1, ROTATION: 2 } as const;
export type TrackEncoding = (typeof TrackEncoding)[keyof typeof TrackEncoding];

/** Frames per block (a block shares its fine step and its residual widths). */
export const KEYS_PER_BLOCK = 16;
const BLOCK_SHIFT = 4;
/** Exp-Golomb orders of a block header's fields: the step code's difference, then the six widths'. */
export const HEADER_CODE_ORDER = 2;
export const HEADER_WIDTH_ORDER = 0;
/** Largest `coarseShift` (coarse keys every 16 frames, one per block). */
export const MAX_COARSE_SHIFT = 4;
/** A step code's value for s = s0. Codes are 0…255: s0 · 2^−8 … s0 · 2^23.875 in steps of 2^(1/8). */
export const STEP_CODE_ONE = 64;
/**
 * Bits of an explicit dropped-component index. A rotation block whose header flag is set stores one
 * before each of its keys' residuals (coarse and fine): the component of the key itself to restore,
 * instead of the prediction's largest. After a jump in the source the prediction can be far from the
 * key, and its largest component may be near 0 in the key, where √(1 − a² − b² − c²) amplifies the
 * residuals' rounding without bound.
 */
export const EXPLICIT_BITS = 2;

// 2^(k/8), k = 0…7, as exact literals: `stepFor` must give the same double in every engine (Math.pow
// may differ in its last bit), so decoding a file is reproducible everywhere.
const EIGHTH_OCTAVE = [
  1, 1.0905077326652577, 1.189207115002721, 1.2968395546510096, 1.4142135623730951, 1.5422108254079407, 1.681792830507429, 1.8340080864093424,
];

/** The step of code `code` (0…255) for base step `s0`: s0 · 2^((code − 64) / 8), computed exactly as decoders do. */
export function stepFor(s0: number, code: number): number {
  return s0 * EIGHTH_OCTAVE[code & 7]! * 2 ** ((code >>> 3) - 8);
}

/** One compressed joint track. Immutable. */
export interface CompressedTrack {
  readonly joint: number;
  readonly path: TrackPath;
  readonly encoding: TrackEncoding;
  /** Grid frames of the clip: a predicted track has a key at every one (a CONSTANT track has one key). */
  readonly frameCount: number;
  /** Coarse keys every 2^coarseShift frames (0…4). 0 for CONSTANT. */
  readonly coarseShift: number;
  /** Step code of the coarse residuals (0…255). 0 for CONSTANT. */
  readonly coarseCode: number;
  /** CONSTANT: the value (3 or 4 floats). Otherwise the first key (3 or 4 floats), then the base step s0. */
  readonly params: Float32Array;
  /** Packed bits: block headers, then the coarse residuals, then the fine residuals block by block. */
  readonly data: Uint32Array;
  /** Derived (not stored): the decoded coarse keys, 3 or 4 float32 each. */
  readonly coarse: Float32Array;
  /** Derived: bit offset in `data` of each block's first fine residual. */
  readonly blockOffset: Uint32Array;
  /** Derived: per block 4 bytes, the fine residual widths of the three stored components and the bits of one key (their sum, + 2 in an explicit rotation block). */
  readonly blockWidth: Uint8Array;
  /** Derived: per block the fine step. */
  readonly blockStep: Float64Array;
}

/**
 * A compressed clip. Keys sit on a uniform grid (`sampleRate` Hz from `startTime`), one per frame, the
 * last at `duration` (`frameTime`); joints without a track take the skeleton's rest pose. Immutable.
 */
export interface CompressedClip {
  readonly name: string;
  readonly skeleton: Skeleton;
  /** Frames per second of the key grid (the source clip's rate, or the `resample` rate). */
  readonly sampleRate: number;
  /** Grid frames from `startTime`: frame f is at startTime + f / sampleRate, the last at `duration`. 1 … 65536. */
  readonly frameCount: number;
  /** Seconds; the time of frame 0. */
  readonly startTime: number;
  /** Seconds; as the source clip's, and the time of the last frame. */
  readonly duration: number;
  readonly loopMode: LoopMode;
  /** In joint order, then translation, rotation, scale. */
  readonly tracks: readonly CompressedTrack[];
  /** `trackIndex[3 × joint + k]` (k = 0 translation, 1 rotation, 2 scale) → index in `tracks`, −1 none. */
  readonly trackIndex: Int32Array;
}

/**
 * The time of grid frame f of a clip of `frameCount` frames: startTime + f / sampleRate, except the last
 * frame, which is at `duration` (the end of the source) — when the source's span is not a whole number
 * of frames at the grid's rate, the last interval is shorter than the others.
 */
export function frameTime(startTime: number, sampleRate: number, frameCount: number, duration: number, f: number): number {
  return f === frameCount - 1 && f > 0 ? duration : startTime + f / sampleRate;
}

/** Number of coarse keys of a track of F frames with coarse keys every 2^shift frames (and the last frame). */
export function coarseCount(F: number, shift: number): number {
  const last = F - 1;
  return (last >>> shift) + 1 + ((last & ((1 << shift) - 1)) !== 0 ? 1 : 0);
}

/** Grid frame of coarse key j. */
export function coarseFrame(F: number, shift: number, j: number): number {
  return Math.min(j << shift, F - 1);
}

/** Whether frame f is a coarse key. */
export function isCoarse(F: number, shift: number, f: number): boolean {
  return (f & ((1 << shift) - 1)) === 0 || f === F - 1;
}

/** Number of blocks of a clip of F frames. */
export function blockCount(F: number): number {
  return (F + KEYS_PER_BLOCK - 1) >>> BLOCK_SHIFT;
}

/** Index of fine frame f among its block's fine frames. */
export function fineIndex(f: number, shift: number): number {
  const i = f & (KEYS_PER_BLOCK - 1);
  return i - ((i - 1) >> shift) - 1;
}

/** Fine frames of block b. */
export function fineCount(F: number, shift: number, b: number): number {
  let n = 0;
  const end = Math.min(F, (b + 1) * KEYS_PER_BLOCK);
  for (let f = b * KEYS_PER_BLOCK; f < end; f++) if (!isCoarse(F, shift, f)) n++;
  return n;
}

/** Sign-extends the low `w` bits of `v` (1 ≤ w ≤ 24). */
function signed(v: number, w: number): number {
  return (v << (32 - w)) >> (32 - w);
}

/** Reads the signed `w`-bit field at `bit` (0 when w = 0). */
export function readSigned(data: Uint32Array, bit: number, w: number): number {
  return w === 0 ? 0 : signed(readBits(data, bit, w), w);
}

/**
 * The component a rotation key drops: the largest in magnitude of its prediction (ties: the lowest index).
 * The stored components are the other three in x, y, z, w order.
 */
export function droppedComponent(px: number, py: number, pz: number, pw: number): number {
  const ax = Math.abs(px), ay = Math.abs(py), az = Math.abs(pz), aw = Math.abs(pw);
  let d = 0;
  let m = ax;
  if (ay > m) { m = ay; d = 1; }
  if (az > m) { m = az; d = 2; }
  if (aw > m) d = 3;
  return d;
}

/**
 * Writes a decoded key into out[o …] from its prediction p[po …] (4 floats for rotations, 3 otherwise) and
 * its three residuals q0…q2 with step s. Rotations: the stored components are the prediction's plus q·s,
 * the dropped one (`droppedComponent` of the prediction) is ±√(1 − a² − b² − c²) with the prediction's
 * sign; when quantisation pushed a² + b² + c² past 1 it is 0 and the other three are normalised. The one
 * reconstruction rule the encoder and every decoder share. Allocates nothing.
 */
export function reconstruct(
  out: Float32Array, o: number, rotation: boolean, px: number, py: number, pz: number, pw: number,
  q0: number, q1: number, q2: number, s: number, dropped = -1,
): void {
  const p = reconstructScratch;
  p[0] = px; p[1] = py; p[2] = pz; p[3] = pw;
  reconstructFrom(out, o, rotation, p, q0, q1, q2, s, dropped);
}

const reconstructScratch = new Float64Array(4);

/**
 * `reconstruct` with the prediction in p[0 … 3]: what the encoder's loops call (four doubles passed
 * one by one to a call V8 does not inline are boxed, about 80 bytes of garbage per key).
 */
export function reconstructFrom(
  out: Float32Array, o: number, rotation: boolean, p: Float64Array, q0: number, q1: number, q2: number, s: number, dropped: number,
): void {
  const px = p[0]!, py = p[1]!, pz = p[2]!, pw = p[3]!;
  if (!rotation) {
    out[o] = px + q0 * s;
    out[o + 1] = py + q1 * s;
    out[o + 2] = pz + q2 * s;
    return;
  }
  const d = dropped >= 0 ? dropped : droppedComponent(px, py, pz, pw);
  let a: number, b: number, c: number, sign: number;
  if (d === 3) { a = px; b = py; c = pz; sign = pw; }
  else if (d === 2) { a = px; b = py; c = pw; sign = pz; }
  else if (d === 1) { a = px; b = pz; c = pw; sign = py; }
  else { a = py; b = pz; c = pw; sign = px; }
  a += q0 * s;
  b += q1 * s;
  c += q2 * s;
  const rest = 1 - a * a - b * b - c * c;
  let e = 0;
  if (rest > 0) {
    e = sign < 0 ? -Math.sqrt(rest) : Math.sqrt(rest);
  } else {
    const len = Math.sqrt(a * a + b * b + c * c);
    a /= len;
    b /= len;
    c /= len;
  }
  if (d === 3) { out[o] = a; out[o + 1] = b; out[o + 2] = c; out[o + 3] = e; }
  else if (d === 2) { out[o] = a; out[o + 1] = b; out[o + 2] = e; out[o + 3] = c; }
  else if (d === 1) { out[o] = a; out[o + 1] = e; out[o + 2] = b; out[o + 3] = c; }
  else { out[o] = e; out[o + 1] = a; out[o + 2] = b; out[o + 3] = c; }
}

/**
 * Reconstructs coarse key j into coarse[stride·j …] from its prediction and residuals (`reconstruct`),
 * then, for rotations, negates it when it lies in the other hemisphere from coarse key j − 1 (q and −q are
 * one rotation): the table stays continuous, so neither the next prediction nor the interpolation of the
 * fine keys between two coarse keys ever straddles a sign flip.
 */
export function reconstructCoarse(
  coarse: Float32Array, stride: number, j: number, p: Float64Array, q0: number, q1: number, q2: number, s: number, dropped = -1,
): void {
  const o = stride * j;
  reconstructFrom(coarse, o, stride === 4, p, q0, q1, q2, s, dropped);
  if (stride === 4) {
    const b = o - 4;
    if (coarse[o]! * coarse[b]! + coarse[o + 1]! * coarse[b + 1]! + coarse[o + 2]! * coarse[b + 2]! + coarse[o + 3]! * coarse[b + 3]! < 0) {
      for (let c = 0; c < 4; c++) coarse[o + c] = -coarse[o + c]!;
    }
  }
}

/**
 * The prediction of coarse key j (j ≥ 1) from the decoded coarse keys before it, into p[0 … stride):
 * key j − 1 for j = 1, else linear extrapolation from keys j − 2 and j − 1 (their frame spacing taken into
 * account: the last coarse key may be closer than 2^shift frames).
 */
export function predictCoarse(p: Float64Array, coarse: Float32Array, stride: number, F: number, shift: number, j: number): void {
  const o1 = (j - 1) * stride;
  if (j === 1) {
    for (let c = 0; c < stride; c++) p[c] = coarse[o1 + c]!;
    return;
  }
  const o2 = o1 - stride;
  const f2 = coarseFrame(F, shift, j - 2), f1 = coarseFrame(F, shift, j - 1), f0 = coarseFrame(F, shift, j);
  const k = (f0 - f1) / (f1 - f2);
  for (let c = 0; c < stride; c++) {
    const a = coarse[o1 + c]!;
    p[c] = a + (a - coarse[o2 + c]!) * k;
  }
  if (stride === 3) p[3] = 0;
}

/**
 * The prediction of fine frame f (not a coarse key) into p[0 … stride): the linear interpolation of the
 * decoded coarse keys before and after it — exactly the arithmetic of `decodeKey`.
 */
export function predictFine(p: Float64Array, coarse: Float32Array, stride: number, F: number, shift: number, f: number): void {
  const mask = (1 << shift) - 1;
  const last = F - 1;
  const j = f >>> shift;
  const left = j << shift;
  const right = left + mask + 1;
  // t = (f − l) · (1/(r − l)): a multiplication by a reciprocal (exact for the power-of-two spacing).
  const t = (f - left) * (1 / (right > last ? last - left : mask + 1));
  const c = stride * j;
  // (decodeRotationKey / decodeVectorKey / decodeRotationPair compute the same t from r = f − left.)
  for (let i = 0; i < stride; i++) {
    const a = coarse[c + i]!;
    p[i] = a + (coarse[c + stride + i]! - a) * t;
  }
  if (stride === 3) p[3] = 0;
}

/** What `deriveTrack` computes from a track's stored fields. */
export interface DerivedTables {
  readonly coarse: Float32Array;
  readonly blockOffset: Uint32Array;
  readonly blockWidth: Uint8Array;
  readonly blockStep: Float64Array;
  /** Bits of `data` the headers and residuals take. */
  readonly bitLength: number;
}

const predictScratch = new Float64Array(4);

/**
 * Decodes the derived tables of a predicted track from its stored fields: the block headers, the coarse
 * keys (sequentially, each from the two before it) and each block's fine offset, widths and step. Returns
 * undefined when a header is invalid (a step code outside 0…255, a width outside 0…24, a damaged
 * Exp-Golomb code, or data too short for what the headers describe) —
 * the container reader reports that. Used by the encoder and the reader alike, so both hold the same
 * float32 coarse keys.
 */
export function deriveTrack(
  encoding: TrackEncoding, F: number, coarseShift: number, coarseCode: number, params: Float32Array, data: Uint32Array,
): DerivedTables | undefined {
  const rotation = encoding === TrackEncoding.ROTATION;
  const stride = rotation ? 4 : 3;
  const blocks = blockCount(F);
  const totalBits = 32 * data.length;
  const s0 = params[stride]!;
  const blockOffset = new Uint32Array(blocks);
  const blockWidth = new Uint8Array(4 * blocks);
  const blockStep = new Float64Array(blocks);
  const coarseWidth = new Uint8Array(3 * blocks);
  const explicit = new Uint8Array(blocks);
  const read: ExpGolombRead = { value: 0, bit: 0 };
  let bit = 0;
  let code = coarseCode;
  const widths = [0, 0, 0, 0, 0, 0];
  for (let b = 0; b < blocks; b++) {
    readExpGolomb(data, bit, HEADER_CODE_ORDER, totalBits, read);
    if (read.value < 0) return undefined;
    code += unzigzag(read.value);
    if (code < 0 || code > 255) return undefined;
    bit = read.bit;
    blockStep[b] = stepFor(s0, code);
    for (let i = 0; i < 6; i++) {
      readExpGolomb(data, bit, HEADER_WIDTH_ORDER, totalBits, read);
      if (read.value < 0) return undefined;
      const w = widths[i]! + unzigzag(read.value);
      if (w < 0 || w > MAX_FIELD_BITS) return undefined;
      widths[i] = w;
      bit = read.bit;
    }
    if (rotation) {
      if (bit + 1 > totalBits) return undefined;
      explicit[b] = readBits(data, bit, 1);
      bit++;
    }
    let sum = EXPLICIT_BITS * explicit[b]!;
    for (let i = 0; i < 3; i++) {
      blockWidth[4 * b + i] = widths[i]!;
      coarseWidth[3 * b + i] = widths[3 + i]!;
      sum += widths[i]!;
    }
    blockWidth[4 * b + 3] = sum;
  }
  const nC = coarseCount(F, coarseShift);
  const coarse = new Float32Array(stride * nC);
  for (let c = 0; c < stride; c++) coarse[c] = params[c]!;
  const sc = stepFor(s0, coarseCode);
  const p = predictScratch;
  for (let j = 1; j < nC; j++) {
    const b = coarseFrame(F, coarseShift, j) >>> BLOCK_SHIFT;
    const w0 = coarseWidth[3 * b]!, w1 = coarseWidth[3 * b + 1]!, w2 = coarseWidth[3 * b + 2]!;
    const x = EXPLICIT_BITS * explicit[b]!;
    if (bit + x + w0 + w1 + w2 > totalBits) return undefined;
    const dropped = x > 0 ? readBits(data, bit, x) : -1;
    bit += x;
    const q0 = readSigned(data, bit, w0);
    const q1 = readSigned(data, bit + w0, w1);
    const q2 = readSigned(data, bit + w0 + w1, w2);
    bit += w0 + w1 + w2;
    predictCoarse(p, coarse, stride, F, coarseShift, j);
    reconstructCoarse(coarse, stride, j, p, q0, q1, q2, sc, dropped);
  }
  for (let b = 0; b < blocks; b++) {
    blockOffset[b] = bit;
    bit += blockWidth[4 * b + 3]! * fineCount(F, coarseShift, b);
  }
  if (bit > totalBits) return undefined;
  return { coarse, blockOffset, blockWidth, blockStep, bitLength: bit };
}

/**
 * Decodes the key at grid frame `f` (0 ≤ f < frameCount) of `track` into out[o …] (3 or 4 floats). A
 * coarse key is a copy from the table; a fine key is the linear interpolation of the coarse keys around it
 * plus its residual (`reconstruct`'s rule). Float64 arithmetic; the only rounding is the store into `out`.
 * Allocates nothing.
 */
export function decodeKey(out: Float32Array, o: number, track: CompressedTrack, f: number): void {
  const enc = track.encoding;
  if (enc === TrackEncoding.ROTATION) {
    decodeRotationKey(out, o, track, f);
  } else if (enc === TrackEncoding.RANGE) {
    decodeVectorKey(out, o, track, f);
  } else {
    const p = track.params;
    const n = p.length;
    for (let c = 0; c < n; c++) out[o + c] = p[c]!;
  }
}

/** `decodeKey` for a ROTATION track (written out like `decodeRotationPair`). */
export function decodeRotationKey(out: Float32Array, o: number, track: CompressedTrack, f: number): void {
  const shift = track.coarseShift;
  const mask = (1 << shift) - 1;
  const coarse = track.coarse;
  const last = track.frameCount - 1;
  const j = f >>> shift;
  const r = f & mask;
  if (r === 0 || f === last) {
    const c = r === 0 ? 4 * j : 4 * j + 4;
    out[o] = coarse[c]!; out[o + 1] = coarse[c + 1]!; out[o + 2] = coarse[c + 2]!; out[o + 3] = coarse[c + 3]!;
    return;
  }
  const left = j << shift;
  const t = r * (1 / (left + mask + 1 > last ? last - left : mask + 1));
  const b = f >>> BLOCK_SHIFT;
  const width = track.blockWidth;
  const w4 = 4 * b;
  const w0 = width[w4]!, w1 = width[w4 + 1]!, w2 = width[w4 + 2]!, kb = width[w4 + 3]!;
  const data = track.data;
  const bit = track.blockOffset[b]! + fineIndex(f, shift) * kb;
  // A block with explicit dropped components stores 2 bits before each key's residuals.
  const x = kb - w0 - w1 - w2;
  let q0 = 0, q1 = 0, q2 = 0, dx = -1;
  if (kb > 0 && kb <= 32) {
    const wi = bit >>> 5;
    const sh = bit & 31;
    let v = data[wi]! >>> sh;
    if (sh + kb > 32) v |= data[wi + 1]! << (32 - sh);
    if (x > 0) { dx = v & 3; v >>>= 2; }
    if (w0 > 0) q0 = (v << (32 - w0)) >> (32 - w0);
    v >>>= w0;
    if (w1 > 0) q1 = (v << (32 - w1)) >> (32 - w1);
    v >>>= w1;
    if (w2 > 0) q2 = (v << (32 - w2)) >> (32 - w2);
  } else if (kb > 32) {
    if (x > 0) dx = readBits(data, bit, 2);
    q0 = w0 > 0 ? signed(readBits(data, bit + x, w0), w0) : 0;
    q1 = w1 > 0 ? signed(readBits(data, bit + x + w0, w1), w1) : 0;
    q2 = w2 > 0 ? signed(readBits(data, bit + x + w0 + w1, w2), w2) : 0;
  }
  const s = track.blockStep[b]!;
  const c = 4 * j;
  const x0 = coarse[c]!, y0 = coarse[c + 1]!, z0 = coarse[c + 2]!, v0 = coarse[c + 3]!;
  const px = x0 + (coarse[c + 4]! - x0) * t, py = y0 + (coarse[c + 5]! - y0) * t;
  const pz = z0 + (coarse[c + 6]! - z0) * t, pw = v0 + (coarse[c + 7]! - v0) * t;
  // reconstruct(…, rotation = true, …), written out.
  let d = dx;
  if (d < 0) {
    const ax = Math.abs(px), ay = Math.abs(py), az = Math.abs(pz), aw = Math.abs(pw);
    d = 0;
    let m = ax;
    if (ay > m) { m = ay; d = 1; }
    if (az > m) { m = az; d = 2; }
    if (aw > m) d = 3;
  }
  let a: number, bb: number, cc: number, sign: number;
  if (d === 3) { a = px; bb = py; cc = pz; sign = pw; }
  else if (d === 2) { a = px; bb = py; cc = pw; sign = pz; }
  else if (d === 1) { a = px; bb = pz; cc = pw; sign = py; }
  else { a = py; bb = pz; cc = pw; sign = px; }
  a += q0 * s;
  bb += q1 * s;
  cc += q2 * s;
  const rest = 1 - a * a - bb * bb - cc * cc;
  let e = 0;
  if (rest > 0) {
    e = sign < 0 ? -Math.sqrt(rest) : Math.sqrt(rest);
  } else {
    const len = Math.sqrt(a * a + bb * bb + cc * cc);
    a /= len;
    bb /= len;
    cc /= len;
  }
  if (d === 3) { out[o] = a; out[o + 1] = bb; out[o + 2] = cc; out[o + 3] = e; }
  else if (d === 2) { out[o] = a; out[o + 1] = bb; out[o + 2] = e; out[o + 3] = cc; }
  else if (d === 1) { out[o] = a; out[o + 1] = e; out[o + 2] = bb; out[o + 3] = cc; }
  else { out[o] = e; out[o + 1] = a; out[o + 2] = bb; out[o + 3] = cc; }
}

/**
 * Decodes keys f and f + 1 (f + 1 < frameCount) of a ROTATION track into out[o … o + 7] — the sampler's hot
 * path, written out in full (a call per key or per field measurably slows sampling). Both keys lie in
 * coarse interval j (f + 1 may be its right end), so the two coarse keys are read once; two fine keys of a
 * pair are in the same block (blocks start on a coarse key) and adjacent in the packed data. The same
 * arithmetic as `decodeRotationKey`.
 */
export function decodeRotationPair(out: Float32Array, o: number, track: CompressedTrack, f: number): void {
  const shift = track.coarseShift;
  const mask = (1 << shift) - 1;
  const coarse = track.coarse;
  const last = track.frameCount - 1;
  const j = f >>> shift;
  const r = f & mask;
  const c = 4 * j;
  const x0 = coarse[c]!, y0 = coarse[c + 1]!, z0 = coarse[c + 2]!, v0 = coarse[c + 3]!;
  const x1 = coarse[c + 4]!, y1 = coarse[c + 5]!, z1 = coarse[c + 6]!, v1 = coarse[c + 7]!;
  const fineNext = r < mask && f + 1 !== last;
  if (r === 0) {
    out[o] = x0; out[o + 1] = y0; out[o + 2] = z0; out[o + 3] = v0;
  }
  if (!fineNext) {
    out[o + 4] = x1; out[o + 5] = y1; out[o + 6] = z1; out[o + 7] = v1;
    if (r === 0) return;
  }
  const left = j << shift;
  const inv = 1 / (left + mask + 1 > last ? last - left : mask + 1);
  const b = f >>> BLOCK_SHIFT;
  const s = track.blockStep[b]!;
  const width = track.blockWidth;
  const w4 = 4 * b;
  const w0 = width[w4]!, w1 = width[w4 + 1]!, w2 = width[w4 + 2]!, kb = width[w4 + 3]!;
  const data = track.data;
  // The first fine key of the pair, then (if f + 1 is fine too) the next one kb bits on.
  let k = r === 0 ? f + 1 : f;
  let bit = track.blockOffset[b]! + fineIndex(k, shift) * kb;
  let oo = r === 0 ? o + 4 : o;
  const x = kb - w0 - w1 - w2;
  for (;;) {
    let q0 = 0, q1 = 0, q2 = 0, d = -1;
    if (kb > 0 && kb <= 32) {
      const wi = bit >>> 5;
      const sh = bit & 31;
      let v = data[wi]! >>> sh;
      if (sh + kb > 32) v |= data[wi + 1]! << (32 - sh);
      if (x > 0) { d = v & 3; v >>>= 2; }
      if (w0 > 0) q0 = (v << (32 - w0)) >> (32 - w0);
      v >>>= w0;
      if (w1 > 0) q1 = (v << (32 - w1)) >> (32 - w1);
      v >>>= w1;
      if (w2 > 0) q2 = (v << (32 - w2)) >> (32 - w2);
    } else if (kb > 32) {
      if (x > 0) d = readBits(data, bit, 2);
      q0 = w0 > 0 ? signed(readBits(data, bit + x, w0), w0) : 0;
      q1 = w1 > 0 ? signed(readBits(data, bit + x + w0, w1), w1) : 0;
      q2 = w2 > 0 ? signed(readBits(data, bit + x + w0 + w1, w2), w2) : 0;
    }
    const t = (k - left) * inv;
    const px = x0 + (x1 - x0) * t, py = y0 + (y1 - y0) * t, pz = z0 + (z1 - z0) * t, pw = v0 + (v1 - v0) * t;
    // reconstruct(…, rotation = true, …), written out.
    if (d < 0) {
      const ax = Math.abs(px), ay = Math.abs(py), az = Math.abs(pz), aw = Math.abs(pw);
      d = 0;
      let m = ax;
      if (ay > m) { m = ay; d = 1; }
      if (az > m) { m = az; d = 2; }
      if (aw > m) d = 3;
    }
    let a: number, bb: number, cc: number, sign: number;
    if (d === 3) { a = px; bb = py; cc = pz; sign = pw; }
    else if (d === 2) { a = px; bb = py; cc = pw; sign = pz; }
    else if (d === 1) { a = px; bb = pz; cc = pw; sign = py; }
    else { a = py; bb = pz; cc = pw; sign = px; }
    a += q0 * s;
    bb += q1 * s;
    cc += q2 * s;
    const rest = 1 - a * a - bb * bb - cc * cc;
    let e = 0;
    if (rest > 0) {
      e = sign < 0 ? -Math.sqrt(rest) : Math.sqrt(rest);
    } else {
      const len = Math.sqrt(a * a + bb * bb + cc * cc);
      a /= len;
      bb /= len;
      cc /= len;
    }
    if (d === 3) { out[oo] = a; out[oo + 1] = bb; out[oo + 2] = cc; out[oo + 3] = e; }
    else if (d === 2) { out[oo] = a; out[oo + 1] = bb; out[oo + 2] = e; out[oo + 3] = cc; }
    else if (d === 1) { out[oo] = a; out[oo + 1] = e; out[oo + 2] = bb; out[oo + 3] = cc; }
    else { out[oo] = e; out[oo + 1] = a; out[oo + 2] = bb; out[oo + 3] = cc; }
    if (oo !== o || !fineNext) return;
    k++;
    bit += kb;
    oo = o + 4;
  }
}

/** `decodeKey` for a RANGE (translation or scale) track (written out like `decodeRotationRun`). */
export function decodeVectorKey(out: Float32Array, o: number, track: CompressedTrack, f: number): void {
  const shift = track.coarseShift;
  const mask = (1 << shift) - 1;
  const coarse = track.coarse;
  const last = track.frameCount - 1;
  const j = f >>> shift;
  const r = f & mask;
  if (r === 0 || f === last) {
    const c = r === 0 ? 3 * j : 3 * j + 3;
    out[o] = coarse[c]!; out[o + 1] = coarse[c + 1]!; out[o + 2] = coarse[c + 2]!;
    return;
  }
  const left = j << shift;
  const t = r * (1 / (left + mask + 1 > last ? last - left : mask + 1));
  const b = f >>> BLOCK_SHIFT;
  const width = track.blockWidth;
  const w4 = 4 * b;
  const w0 = width[w4]!, w1 = width[w4 + 1]!, w2 = width[w4 + 2]!, kb = width[w4 + 3]!;
  const data = track.data;
  const bit = track.blockOffset[b]! + fineIndex(f, shift) * kb;
  let q0 = 0, q1 = 0, q2 = 0;
  if (kb > 0 && kb <= 32) {
    const wi = bit >>> 5;
    const sh = bit & 31;
    let v = data[wi]! >>> sh;
    if (sh + kb > 32) v |= data[wi + 1]! << (32 - sh);
    if (w0 > 0) q0 = (v << (32 - w0)) >> (32 - w0);
    v >>>= w0;
    if (w1 > 0) q1 = (v << (32 - w1)) >> (32 - w1);
    v >>>= w1;
    if (w2 > 0) q2 = (v << (32 - w2)) >> (32 - w2);
  } else if (kb > 32) {
    q0 = w0 > 0 ? signed(readBits(data, bit, w0), w0) : 0;
    q1 = w1 > 0 ? signed(readBits(data, bit + w0, w1), w1) : 0;
    q2 = w2 > 0 ? signed(readBits(data, bit + w0 + w1, w2), w2) : 0;
  }
  const s = track.blockStep[b]!;
  const c = 3 * j;
  const x0 = coarse[c]!, y0 = coarse[c + 1]!, z0 = coarse[c + 2]!;
  out[o] = x0 + (coarse[c + 3]! - x0) * t + q0 * s;
  out[o + 1] = y0 + (coarse[c + 4]! - y0) * t + q1 * s;
  out[o + 2] = z0 + (coarse[c + 5]! - z0) * t + q2 * s;
}

/**
 * Bytes the clip's data takes in the `.agc` container (docs/compression.md): a 32-byte clip header and per
 * track a 12-byte header, its float32 params and its packed words. Names and the skeleton are not counted
 * (ACL's figures do not count them either); the derived tables (coarse keys, block offsets, widths and
 * steps) are rebuilt on load and not stored.
 */
export function compressedByteLength(clip: CompressedClip): number {
  let n = 32;
  for (const t of clip.tracks) n += trackByteLength(t);
  return n;
}

/** One track's bytes in the container (see `compressedByteLength`). */
export function trackByteLength(t: CompressedTrack): number {
  return 12 + 4 * t.params.length + 4 * t.data.length;
}

/**
 * Bytes the clip occupies in memory once built or read: the stored params and words plus the derived
 * tables (float32 coarse keys, per-block offsets, widths and steps) and the track index. What a runtime
 * holds to sample it; object headers are not counted.
 */
export function runtimeByteLength(clip: CompressedClip): number {
  let n = clip.trackIndex.byteLength;
  for (const t of clip.tracks) {
    n += t.params.byteLength + t.data.byteLength + t.coarse.byteLength + t.blockOffset.byteLength + t.blockWidth.byteLength + t.blockStep.byteLength;
  }
  return n;
}
