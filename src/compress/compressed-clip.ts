import type { LoopMode, TrackPath } from "../clip/clip.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { readBits } from "./bit-pack.ts";
import { SMALLEST_THREE_RANGE } from "./quantize.ts";

/**
 * How a compressed track stores its keys:
 * - `CONSTANT` (0): one key, `params` holds it as float32 (3 or 4 floats), no packed data;
 * - `RANGE` (1): translation or scale, 3 components per key; `params` holds the track's minimum and
 *   extent per component (6 floats);
 * - `ROTATION` (2): unit quaternions, 3 components per key (the dropped fourth is restored as
 *   √(1 − a² − b² − c²)).
 *
 * Keys are grouped in blocks of `KEYS_PER_BLOCK` (by key index). Each block has a header byte: the low
 * 5 bits are the bits of the first stored component (0…24), the high 3 bits (ROTATION) the dropped
 * component 0…3 (x…w; positive, and ≥ 0.5 on every key of the block) or 4 for per-key smallest-three
 * (2 index bits per key, components over [−1/√2, 1/√2]); a bits byte gives the other two components'
 * widths relative to the first (`blockBits`): each component gets the fewest bits whose step matches
 * the widest component's. Each block also has an 8-bit range per stored component, 6 bytes (ACL's
 * segment range reduction) relative to the track range (`params`: minimum and extent per component, 3
 * and 3 for RANGE, 4 and 4 — x, y, z, w of the block-wise sign-flipped keys — for ROTATION):
 * lo = min + lo8 × extent / 255, hi = min + hi8 × extent / 255 (unused in smallest-three blocks). A
 * component decodes as lo + q × (hi − lo) / (2^bits − 1) (lo when bits = 0).
 */
export const TrackEncoding = { CONSTANT: 0, RANGE: 1, ROTATION: 2 } as const;
export type TrackEncoding = (typeof TrackEncoding)[keyof typeof TrackEncoding];

/** Keys per block (a block shares its bit widths and ranges). */
export const KEYS_PER_BLOCK = 16;
/** A ROTATION block header's drop field for per-key smallest-three. */
export const PER_KEY_SMALLEST_THREE = 4;

/** One compressed joint track. Immutable. */
export interface CompressedTrack {
  readonly joint: number;
  readonly path: TrackPath;
  readonly encoding: TrackEncoding;
  /** Number of keys (1 for CONSTANT). */
  readonly keyCount: number;
  /**
   * Which grid frames are keys: bit f (word f >> 5, bit f & 31) set when frame f is. Frames 0 and
   * frameCount − 1 always are. Empty for CONSTANT.
   */
  readonly keyMask: Uint32Array;
  /** Keys before each mask word (derived from `keyMask`; not stored in the container). */
  readonly keyRank: Uint16Array;
  /** CONSTANT: the value (3 or 4 floats); RANGE: 3 minimums then 3 extents; ROTATION: 4 minimums then 4 extents. */
  readonly params: Float32Array;
  /**
   * One header byte per block: bits of the first stored component (low 5 bits), dropped component
   * (high 3 bits).
   */
  readonly blockHeader: Uint8Array;
  /**
   * One byte per block: the bits of the second and third stored components as offsets from the
   * first's, low nibble and high nibble, each `bits − bits₀ + 8` (so −8…+7). Components get their own
   * widths because a block's ranges differ (a hinge joint turns about one axis).
   */
  readonly blockBits: Uint8Array;
  /** Per block 6 bytes: lo8, hi8 for each of the 3 stored components. */
  readonly blockRange: Uint8Array;
  /** Bit offset of each block's first key in `data` (derived from the headers; not stored). */
  readonly blockOffset: Uint32Array;
  /**
   * Per block and component the decoded value of q = 0 and of one step, so a component decodes as
   * lo + q × step (derived from the headers, ranges and params by `blockTables`; not stored).
   */
  readonly blockLo: Float64Array;
  readonly blockStep: Float64Array;
  /**
   * Per block 4 bytes: the bits of the 3 stored components and the bits per key (with smallest-three's
   * 2 index bits), from the headers and bits bytes (derived by `blockTables`; not stored).
   */
  readonly blockWidth: Uint8Array;
  /** Packed keys (see bit-pack.ts). */
  readonly data: Uint32Array;
}

/**
 * A clip after keyframe reduction and quantisation. Key times are frame indices on a uniform grid
 * (`sampleRate` Hz from `startTime`); joints without a track take the skeleton's rest pose. Immutable.
 */
export interface CompressedClip {
  readonly name: string;
  readonly skeleton: Skeleton;
  /** Frames per second of the key grid (the source clip's rate, or the `resample` rate). */
  readonly sampleRate: number;
  /** Grid frames from `startTime`: frame f is at startTime + f / sampleRate. 1 … 65536. */
  readonly frameCount: number;
  /** Seconds; the time of frame 0. */
  readonly startTime: number;
  /** Seconds; as the source clip's. */
  readonly duration: number;
  readonly loopMode: LoopMode;
  /** In joint order, then translation, rotation, scale. */
  readonly tracks: readonly CompressedTrack[];
  /** `trackIndex[3 × joint + k]` (k = 0 translation, 1 rotation, 2 scale) → index in `tracks`, −1 none. */
  readonly trackIndex: Int32Array;
}

/** Bits of stored component i (0…2) of a block with header byte `header` and bits byte `bitsByte`. */
export function componentBits(header: number, bitsByte: number, i: number): number {
  const b0 = header & 31;
  return i === 0 ? b0 : i === 1 ? b0 + (bitsByte & 15) - 8 : b0 + (bitsByte >>> 4) - 8;
}

/** The bits byte for component widths b0, b1, b2 (b1 − b0 and b2 − b0 in −8…7). */
export function packBitsByte(b0: number, b1: number, b2: number): number {
  return (b1 - b0 + 8) | ((b2 - b0 + 8) << 4);
}

/** Bits per key of a block with header byte `header` and bits byte `bitsByte`. */
export function keyBitsFor(header: number, bitsByte: number): number {
  const b0 = header & 31;
  const sum = 3 * b0 + (bitsByte & 15) + (bitsByte >>> 4) - 16;
  return (header >>> 5) === PER_KEY_SMALLEST_THREE ? 2 + sum : sum;
}

/** The derived `keyRank` of a key mask. */
export function rankKeyMask(mask: Uint32Array): Uint16Array {
  const rank = new Uint16Array(mask.length);
  let n = 0;
  for (let w = 0; w < mask.length; w++) {
    rank[w] = n;
    n += popcount(mask[w]!);
  }
  return rank;
}

/** The derived `blockOffset` of a track's block headers. */
export function blockOffsets(blockHeader: Uint8Array, blockBits: Uint8Array, keyCount: number): Uint32Array {
  const out = new Uint32Array(blockHeader.length);
  let bit = 0;
  for (let b = 0; b < blockHeader.length; b++) {
    out[b] = bit;
    bit += keyBitsFor(blockHeader[b]!, blockBits[b]!) * Math.min(KEYS_PER_BLOCK, keyCount - b * KEYS_PER_BLOCK);
  }
  return out;
}

/**
 * The derived per-block decode tables of a track (see `CompressedTrack.blockLo`): for RANGE and
 * range-reduced ROTATION blocks lo = min + lo8 × ext / 255 and step = (hi − lo) / (2^bits − 1) with
 * hi = min + hi8 × ext / 255 (min = −1, ext = 2 for rotations); for smallest-three blocks lo = −1/√2,
 * step = √2 / (2^bits − 1); with 0 bits lo as given and step 0 (smallest-three: lo 0).
 */
export function blockTables(
  encoding: TrackEncoding, params: Float32Array, blockHeader: Uint8Array, blockBits: Uint8Array, blockRange: Uint8Array,
): { blockLo: Float64Array; blockStep: Float64Array; blockWidth: Uint8Array } {
  const blocks = blockHeader.length;
  const blockLo = new Float64Array(3 * blocks);
  const blockStep = new Float64Array(3 * blocks);
  const blockWidth = new Uint8Array(4 * blocks);
  const rotation = encoding === TrackEncoding.ROTATION;
  for (let b = 0; b < blocks; b++) {
    const header = blockHeader[b]!;
    blockWidth[4 * b + 3] = keyBitsFor(header, blockBits[b]!);
    for (let i = 0; i < 3; i++) {
      const bits = componentBits(header, blockBits[b]!, i);
      blockWidth[4 * b + i] = bits;
      const levels = (1 << bits) - 1;
      if (rotation && header >>> 5 === PER_KEY_SMALLEST_THREE) {
        blockLo[3 * b + i] = bits === 0 ? 0 : -SMALLEST_THREE_RANGE;
        blockStep[3 * b + i] = bits === 0 ? 0 : (2 * SMALLEST_THREE_RANGE) / levels;
        continue;
      }
      // ROTATION: params are the track's minimum and extent of x, y, z, w (the stored components skip
      // the dropped one).
      const c = rotation ? i + (i >= header >>> 5 ? 1 : 0) : i;
      const min = params[c]!;
      const ext = params[(rotation ? 4 : 3) + c]! / 255;
      const lo = min + blockRange[6 * b + 2 * i]! * ext;
      const hi = min + blockRange[6 * b + 2 * i + 1]! * ext;
      blockLo[3 * b + i] = lo;
      blockStep[3 * b + i] = bits === 0 ? 0 : (hi - lo) / levels;
    }
  }
  return { blockLo, blockStep, blockWidth };
}

/** Number of set bits of a 32-bit word. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Number of keys at frames before `f`. */
export function keyRankAt(track: CompressedTrack, f: number): number {
  const w = f >>> 5;
  const m = track.keyMask[w]! & ((1 << (f & 31)) - 1);
  return track.keyRank[w]! + popcount(m);
}

/** The last key frame ≤ f (frame 0 always is one). */
export function keyAtOrBefore(mask: Uint32Array, f: number): number {
  let w = f >>> 5;
  let m = mask[w]! & (0xffffffff >>> (31 - (f & 31)));
  while (m === 0) m = mask[--w]!;
  return 32 * w + 31 - Math.clz32(m);
}

/** The first key frame ≥ f (f ≤ the last frame, which always is one). */
export function keyAtOrAfter(mask: Uint32Array, f: number): number {
  let w = f >>> 5;
  let m = mask[w]! & (0xffffffff << (f & 31));
  while (m === 0) m = mask[++w]!;
  return 32 * w + 31 - Math.clz32(m & -m);
}

/**
 * Decodes key `k` of `track` into out[o …] (3 or 4 floats). Float64 arithmetic; the only rounding is
 * the store into `out`. Allocates nothing.
 */
export function decodeKey(out: Float32Array | Float64Array, o: number, track: CompressedTrack, k: number): void {
  const p = track.params;
  const enc = track.encoding;
  if (enc === TrackEncoding.CONSTANT) {
    const n = p.length;
    for (let c = 0; c < n; c++) out[o + c] = p[c]!;
    return;
  }
  const block = (k / KEYS_PER_BLOCK) | 0;
  const width = track.blockWidth;
  const w4 = 4 * block;
  const b0 = width[w4]!, b1 = width[w4 + 1]!, b2 = width[w4 + 2]!;
  let drop = track.blockHeader[block]! >>> 5;
  const data = track.data;
  let bit = track.blockOffset[block]! + (k - block * KEYS_PER_BLOCK) * width[w4 + 3]!;
  if (drop === PER_KEY_SMALLEST_THREE) {
    drop = readBits(data, bit, 2);
    bit += 2;
  }
  const lo = track.blockLo;
  const step = track.blockStep;
  const b3 = 3 * block;
  // A 0-bit component is its block's lo (the guard also keeps reads inside `data`: a 0-bit field at
  // the end of the data would read past it, which deoptimises typed-array access).
  const a = b0 > 0 ? lo[b3]! + readBits(data, bit, b0) * step[b3]! : lo[b3]!;
  const b = b1 > 0 ? lo[b3 + 1]! + readBits(data, bit + b0, b1) * step[b3 + 1]! : lo[b3 + 1]!;
  const c = b2 > 0 ? lo[b3 + 2]! + readBits(data, bit + b0 + b1, b2) * step[b3 + 2]! : lo[b3 + 2]!;
  if (enc === TrackEncoding.ROTATION) {
    // restoreQuat inlined (same arithmetic): the encoder calls restoreQuat with float64 arrays too, and
    // a store site shared by both array types is slower in the sampler's hot path.
    let x = a, y = b, z = c, d = 0;
    const rest = 1 - a * a - b * b - c * c;
    if (rest > 0) {
      d = Math.sqrt(rest);
    } else {
      const len = Math.sqrt(a * a + b * b + c * c);
      x /= len;
      y /= len;
      z /= len;
    }
    if (drop === 3) { out[o] = x; out[o + 1] = y; out[o + 2] = z; out[o + 3] = d; }
    else if (drop === 2) { out[o] = x; out[o + 1] = y; out[o + 2] = d; out[o + 3] = z; }
    else if (drop === 1) { out[o] = x; out[o + 1] = d; out[o + 2] = y; out[o + 3] = z; }
    else { out[o] = d; out[o + 1] = x; out[o + 2] = y; out[o + 3] = z; }
  } else {
    out[o] = a;
    out[o + 1] = b;
    out[o + 2] = c;
  }
}

/**
 * Bytes the clip's data takes in the `.agc` container (docs/compression.md): a 32-byte clip header
 * and per track a 12-byte header, its params (4 bytes each), its key mask (4 bytes per 32 grid frames;
 * none when every frame is a key),
 * one header byte, one bits byte and 6 bytes of range per block, padding to 4 bytes,
 * and its packed words. Names and the skeleton are not counted (ACL's figures do not count them
 * either); the derived `keyRank` and `blockOffset` are rebuilt on load and not stored.
 */
export function compressedByteLength(clip: CompressedClip): number {
  let n = 32;
  for (const t of clip.tracks) n += trackByteLength(t);
  return n;
}

/**
 * Whether every grid frame of the track is a key (the container then stores no key mask). The last
 * grid frame is always a key, so the mask's highest set bit gives the frame count.
 */
export function hasEveryFrame(t: CompressedTrack): boolean {
  const n = t.keyMask.length;
  return n > 0 && t.keyCount === 32 * n - Math.clz32(t.keyMask[n - 1]!);
}

/** One track's bytes in the container (see `compressedByteLength`). */
export function trackByteLength(t: CompressedTrack): number {
  return 12 + 4 * t.params.length + (hasEveryFrame(t) ? 0 : 4 * t.keyMask.length) + alignTo4(t.blockHeader.length + t.blockBits.length + t.blockRange.length) + 4 * t.data.length;
}

function alignTo4(n: number): number {
  return (n + 3) & ~3;
}
