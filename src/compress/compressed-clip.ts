import type { LoopMode, TrackPath } from "../clip/clip.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { readBits } from "./bit-pack.ts";
import { restoreQuat, SMALLEST_THREE_RANGE } from "./quantize.ts";

/**
 * How a compressed track stores its keys:
 * - `CONSTANT` (0): one key, `params` holds it as float32 (3 or 4 floats), no packed data;
 * - `RANGE` (1): translation or scale, 3 components per key; `params` holds the track's minimum and
 *   extent per component (6 floats);
 * - `ROTATION` (2): unit quaternions, 3 components per key (the dropped fourth is restored as
 *   √(1 − a² − b² − c²)).
 *
 * Keys are grouped in blocks of `KEYS_PER_BLOCK` (by key index). Each block has a header byte: the low
 * 5 bits are the bits per component (0…24, the fewest that meet the error budget), the high 3 bits
 * (ROTATION) the dropped component 0…3 (x…w; positive, and ≥ 0.5 on every key of the block) or 4 for
 * per-key smallest-three (2 index bits per key, components over [−1/√2, 1/√2]). Each block also has an
 * 8-bit range per component, 6 bytes (ACL's segment range reduction): for RANGE relative to the track
 * range, lo = min + lo8 × extent / 255, hi = min + hi8 × extent / 255; for ROTATION relative to
 * [−1, 1], lo = −1 + lo8 × 2 / 255 (unused in smallest-three blocks). A component decodes as
 * lo + q × (hi − lo) / (2^bits − 1) (lo when bits = 0).
 */
export const TrackEncoding = { CONSTANT: 0, RANGE: 1, ROTATION: 2 } as const;
export type TrackEncoding = (typeof TrackEncoding)[keyof typeof TrackEncoding];

/** Keys per block (a block shares one bit width and one range). */
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
  /** CONSTANT: the value (3 or 4 floats); RANGE: 3 minimums then 3 extents; ROTATION: empty. */
  readonly params: Float32Array;
  /** One header byte per block: bits per component (low 5 bits), dropped component (high 3 bits). */
  readonly blockHeader: Uint8Array;
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

/** Bits per key of a block with header byte `header`. */
export function keyBitsFor(header: number): number {
  return (header >>> 5) === PER_KEY_SMALLEST_THREE ? 2 + 3 * (header & 31) : 3 * (header & 31);
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
export function blockOffsets(blockHeader: Uint8Array, keyCount: number): Uint32Array {
  const out = new Uint32Array(blockHeader.length);
  let bit = 0;
  for (let b = 0; b < blockHeader.length; b++) {
    out[b] = bit;
    bit += keyBitsFor(blockHeader[b]!) * Math.min(KEYS_PER_BLOCK, keyCount - b * KEYS_PER_BLOCK);
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
  encoding: TrackEncoding, params: Float32Array, blockHeader: Uint8Array, blockRange: Uint8Array,
): { blockLo: Float64Array; blockStep: Float64Array } {
  const blocks = blockHeader.length;
  const blockLo = new Float64Array(3 * blocks);
  const blockStep = new Float64Array(3 * blocks);
  const rotation = encoding === TrackEncoding.ROTATION;
  for (let b = 0; b < blocks; b++) {
    const header = blockHeader[b]!;
    const bits = header & 31;
    const levels = (1 << bits) - 1;
    for (let i = 0; i < 3; i++) {
      if (rotation && header >>> 5 === PER_KEY_SMALLEST_THREE) {
        blockLo[3 * b + i] = bits === 0 ? 0 : -SMALLEST_THREE_RANGE;
        blockStep[3 * b + i] = bits === 0 ? 0 : (2 * SMALLEST_THREE_RANGE) / levels;
        continue;
      }
      const min = rotation ? -1 : params[i]!;
      const ext = rotation ? 2 / 255 : params[3 + i]! / 255;
      const lo = min + blockRange[6 * b + 2 * i]! * ext;
      const hi = min + blockRange[6 * b + 2 * i + 1]! * ext;
      blockLo[3 * b + i] = lo;
      blockStep[3 * b + i] = bits === 0 ? 0 : (hi - lo) / levels;
    }
  }
  return { blockLo, blockStep };
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
  const header = track.blockHeader[block]!;
  const bits = header & 31;
  let drop = header >>> 5;
  const data = track.data;
  const smallestThree = drop === PER_KEY_SMALLEST_THREE;
  let bit = track.blockOffset[block]! + (k - block * KEYS_PER_BLOCK) * (smallestThree ? 2 + 3 * bits : 3 * bits);
  if (smallestThree) {
    drop = readBits(data, bit, 2);
    bit += 2;
  }
  const lo = track.blockLo;
  const step = track.blockStep;
  const b3 = 3 * block;
  let a = lo[b3]!, b = lo[b3 + 1]!, c = lo[b3 + 2]!;
  if (bits > 0) {
    a += readBits(data, bit, bits) * step[b3]!;
    b += readBits(data, bit + bits, bits) * step[b3 + 1]!;
    c += readBits(data, bit + 2 * bits, bits) * step[b3 + 2]!;
  }
  if (enc === TrackEncoding.ROTATION) {
    restoreQuat(out, o, drop, a, b, c);
  } else {
    out[o] = a;
    out[o + 1] = b;
    out[o + 2] = c;
  }
}

/**
 * Bytes the clip's data takes in the `.agc` container (docs/compression.md): a 32-byte clip header
 * and per track a 12-byte header, its params (4 bytes each), its key mask (4 bytes per 32 grid frames),
 * one header byte and 6 bytes of range per block, padding to 4 bytes,
 * and its packed words. Names and the skeleton are not counted (ACL's figures do not count them
 * either); the derived `keyRank` and `blockOffset` are rebuilt on load and not stored.
 */
export function compressedByteLength(clip: CompressedClip): number {
  let n = 32;
  for (const t of clip.tracks) n += trackByteLength(t);
  return n;
}

/** One track's bytes in the container (see `compressedByteLength`). */
export function trackByteLength(t: CompressedTrack): number {
  return 12 + 4 * t.params.length + 4 * t.keyMask.length + alignTo4(t.blockHeader.length + t.blockRange.length) + 4 * t.data.length;
}

function alignTo4(n: number): number {
  return (n + 3) & ~3;
}
