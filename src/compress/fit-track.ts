import type { TrackPath } from "../clip/clip.ts";
import { quatInterpolate, type QuatInterpolation } from "../math/quat.ts";
import { MAX_FIELD_BITS, wordsFor, writeBits } from "./bit-pack.ts";
import { blockOffsets, blockTables, componentBits, KEYS_PER_BLOCK, keyBitsFor, packBitsByte, PER_KEY_SMALLEST_THREE, rankKeyMask, TrackEncoding, type CompressedTrack } from "./compressed-clip.ts";
import { chooseFixedDrop, largestComponent, quantizeUnit, restoreQuat, SMALLEST_THREE_RANGE } from "./quantize.ts";

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
  /** Displacement budget of this track (skeleton units), split between key removal and quantisation. */
  readonly tolerance: number;
  /** Fixed bits per component, or 0 to choose the fewest bits that meet the quantisation budget. */
  readonly fixedBits: number;
  /** Keep every grid frame (quantisation only). */
  readonly keepAllFrames: boolean;
  readonly quatMode: QuatInterpolation;
}

/** Share of a track's budget spent on key removal; the rest goes to quantisation. */
const REDUCTION_SHARE = 0.5;

/**
 * Fits one track: `undefined` when it stays within half its budget of the rest value for the whole
 * clip (the joint then takes the rest pose), a CONSTANT track when it stays within half its budget
 * of its first frame, otherwise Ramer–Douglas–Peucker key removal under the interpolation the sampler
 * uses, then quantisation with the fewest bits whose per-key error fits the rest of the budget.
 */
export function fitTrack(target: FitTarget, settings: FitSettings): CompressedTrack | undefined {
  const stride = target.path === "rotation" ? 4 : 3;
  const v = target.values;
  const F = target.frameCount;
  const w = target.path === "translation" ? 1 : target.path === "rotation" ? 2 * target.lever : target.lever;
  const tol = settings.tolerance;
  let maxFromFirst = 0;
  let maxFromRest = 0;
  for (let f = 0; f < F; f++) {
    maxFromFirst = Math.max(maxFromFirst, w * distance(v, f * stride, v, 0, stride));
    maxFromRest = Math.max(maxFromRest, w * distance(v, f * stride, target.rest, 0, stride));
  }
  if (maxFromRest <= 0.5 * tol) return undefined;
  if (maxFromFirst <= 0.5 * tol || F === 1) {
    const params = new Float32Array(stride);
    for (let c = 0; c < stride; c++) params[c] = v[c]!;
    return {
      joint: target.joint, path: target.path, encoding: TrackEncoding.CONSTANT, keyCount: 1,
      keyMask: new Uint32Array(0), keyRank: new Uint16Array(0), params, blockHeader: new Uint8Array(0), blockBits: new Uint8Array(0),
      blockRange: new Uint8Array(0), blockOffset: new Uint32Array(0), blockLo: new Float64Array(0), blockStep: new Float64Array(0), blockWidth: new Uint8Array(0),
      data: new Uint32Array(0),
    };
  }
  const frames = settings.keepAllFrames ? allFrames(F) : reduceKeys(v, F, stride, w, REDUCTION_SHARE * tol, settings.quatMode);
  return quantizeTrack(target, frames, (1 - REDUCTION_SHARE) * tol, w, settings.fixedBits);
}

function allFrames(F: number): Uint16Array {
  const frames = new Uint16Array(F);
  for (let f = 0; f < F; f++) frames[f] = f;
  return frames;
}

/** Euclidean distance between two value vectors, sign-insensitive for quaternions (q ≡ −q). */
function distance(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, stride: number): number {
  let s = 0;
  let t = 0;
  for (let c = 0; c < stride; c++) {
    const x = a[ao + c]!, y = b[bo + c]!;
    s += (x - y) * (x - y);
    t += (x + y) * (x + y);
  }
  return Math.sqrt(stride === 4 ? Math.min(s, t) : s);
}

const scratch = new Float64Array(4);

/**
 * Ramer–Douglas–Peucker on the frame grid: keep the first and last frames, then split every segment
 * at its worst frame while the interpolated value misses a frame by more than `tol` (weighted).
 */
function reduceKeys(v: Float64Array, F: number, stride: number, w: number, tol: number, quatMode: QuatInterpolation): Uint16Array {
  const keep = new Uint8Array(F);
  keep[0] = 1;
  keep[F - 1] = 1;
  const stack: number[] = [0, F - 1];
  while (stack.length > 0) {
    const j = stack.pop()!;
    const i = stack.pop()!;
    if (j - i < 2) continue;
    let worst = -1;
    let worstErr = tol;
    for (let f = i + 1; f < j; f++) {
      const a = (f - i) / (j - i);
      if (stride === 4) {
        quatInterpolate(quatMode, scratch, 0, v, 4 * i, v, 4 * j, a);
      } else {
        for (let c = 0; c < 3; c++) scratch[c] = (1 - a) * v[3 * i + c]! + a * v[3 * j + c]!;
      }
      const e = w * distance(scratch, 0, v, stride * f, stride);
      if (e > worstErr) {
        worstErr = e;
        worst = f;
      }
    }
    if (worst >= 0) {
      keep[worst] = 1;
      stack.push(i, worst, worst, j);
    }
  }
  let n = 0;
  for (let f = 0; f < F; f++) n += keep[f]!;
  const frames = new Uint16Array(n);
  for (let f = 0, k = 0; f < F; f++) if (keep[f]) frames[k++] = f;
  return frames;
}

/**
 * Quantises the values at `frames` (key frame indices) block by block: each block of
 * `KEYS_PER_BLOCK` keys gets its own range, (rotations) its own dropped component, and the fewest
 * bits (0…24) whose largest weighted key error is within `quantTol` — or `fixedBits` when > 0.
 */
export function quantizeTrack(target: FitTarget, frames: Uint16Array, quantTol: number, w: number, fixedBits: number): CompressedTrack {
  const n = frames.length;
  const F = target.frameCount;
  const v = target.values;
  const rotation = target.path === "rotation";
  const stride = rotation ? 4 : 3;
  const encoding: TrackEncoding = rotation ? TrackEncoding.ROTATION : TrackEncoding.RANGE;
  const keys = new Float64Array(stride * n);
  for (let k = 0; k < n; k++) for (let c = 0; c < stride; c++) keys[stride * k + c] = v[stride * frames[k]! + c]!;
  const blocks = Math.ceil(n / KEYS_PER_BLOCK);
  // Rotations: each block's dropped component (or per-key smallest-three), its keys flipped so the
  // dropped component is positive, before the track range is taken over the flipped keys.
  const blockDrop = new Uint8Array(blocks);
  if (rotation) {
    for (let b = 0; b < blocks; b++) {
      const first = b * KEYS_PER_BLOCK;
      const end = Math.min(n, first + KEYS_PER_BLOCK);
      const d = chooseFixedDrop(keys.subarray(4 * first, 4 * end), end - first);
      blockDrop[b] = d < 0 ? PER_KEY_SMALLEST_THREE : d;
      if (d >= 0) for (let k = first; k < end; k++) if (keys[4 * k + d]! < 0) for (let c = 0; c < 4; c++) keys[4 * k + c] = -keys[4 * k + c]!;
    }
  }
  // Track range: 3 minimums then 3 extents (translations, scales), 4 and 4 for rotations (over the
  // keys of range-reduced blocks), so block ranges are 8-bit fractions of what the track spans.
  const comps4 = rotation ? 4 : 3;
  const params = new Float32Array(2 * comps4);
  {
    for (let i = 0; i < comps4; i++) {
      let lo = Infinity, hi = -Infinity;
      for (let k = 0; k < n; k++) {
        if (rotation && blockDrop[(k / KEYS_PER_BLOCK) | 0] === PER_KEY_SMALLEST_THREE) continue;
        const x = keys[comps4 * k + i]!;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
      if (!(lo <= hi)) lo = hi = 0;
      params[i] = lo;
      while (params[i]! > lo) params[i] = Math.fround(params[i]! - Math.abs(params[i]!) * 2 ** -22 - 1e-30);
      let ext = Math.fround(hi - params[i]!);
      while (params[i]! + ext < hi) ext = Math.fround(ext * (1 + 2 ** -22) + 1e-30);
      params[comps4 + i] = ext;
    }
  }
  const blockHeader = new Uint8Array(blocks);
  const blockBits = new Uint8Array(blocks);
  const blockRange = new Uint8Array(6 * blocks);
  const lo = new Float64Array(3);
  const hi = new Float64Array(3);
  const decoded = new Float64Array(4);
  const comps = [0, 1, 2];
  const rotParams = new Float32Array(6);
  let drop = 0;
  const quantOf = (k: number, i: number, bits: number): number => {
    const levels = (1 << bits) - 1;
    if (bits === 0) return 0;
    if (drop === PER_KEY_SMALLEST_THREE) {
      const o = 4 * k;
      const big = largestComponent(keys, o);
      const sign = keys[o + big]! < 0 ? -1 : 1;
      return quantizeUnit(sign * keys[o + (i < big ? i : i + 1)]!, -SMALLEST_THREE_RANGE, 2 * SMALLEST_THREE_RANGE, bits);
    }
    const span = hi[i]! - lo[i]!;
    if (!(span > 0)) return 0;
    const q = Math.round(((keys[stride * k + comps[i]!]! - lo[i]!) / span) * levels);
    return q < 0 ? 0 : q > levels ? levels : q;
  };
  // Mirrors decodeKey; cb = bits per stored component.
  const decodeAt = (k: number, cb: Int32Array): void => {
    if (drop === PER_KEY_SMALLEST_THREE) {
      const bits = cb[0]!;
      const step = (2 * SMALLEST_THREE_RANGE) / ((1 << bits) - 1);
      const x = bits === 0 ? 0 : quantOf(k, 0, bits) * step - SMALLEST_THREE_RANGE;
      const y = bits === 0 ? 0 : quantOf(k, 1, bits) * step - SMALLEST_THREE_RANGE;
      const z = bits === 0 ? 0 : quantOf(k, 2, bits) * step - SMALLEST_THREE_RANGE;
      restoreQuat(decoded, 0, largestComponent(keys, 4 * k), x, y, z);
      return;
    }
    for (let i = 0; i < 3; i++) {
      const bits = cb[i]!;
      decoded[i] = bits === 0 ? lo[i]! : lo[i]! + quantOf(k, i, bits) * ((hi[i]! - lo[i]!) / ((1 << bits) - 1));
    }
    if (rotation) restoreQuat(decoded, 0, drop, decoded[0]!, decoded[1]!, decoded[2]!);
  };
  /**
   * Bits per stored component for `bits` on the widest one: each other component the fewest whose
   * step is at most the widest one's, within −8…+7 of the first component's (the bits byte).
   * Smallest-three blocks use one width.
   */
  const widthsFor = (cb: Int32Array, bits: number): Int32Array => {
    if (drop === PER_KEY_SMALLEST_THREE || bits === 0) return cb.fill(bits);
    let widest = 0;
    for (let i = 0; i < 3; i++) widest = Math.max(widest, hi[i]! - lo[i]!);
    const step = widest / ((1 << bits) - 1);
    for (let i = 0; i < 3; i++) {
      const span = hi[i]! - lo[i]!;
      cb[i] = span > 0 ? Math.min(bits, Math.max(0, Math.ceil(Math.log2(span / step + 1) - 1e-9))) : 0;
    }
    if (cb[1]! > cb[0]! + 7 || cb[2]! > cb[0]! + 7) cb[0] = Math.max(cb[1]!, cb[2]!) - 7;
    for (let i = 1; i < 3; i++) if (cb[i]! < cb[0]! - 8) cb[i] = cb[0]! - 8;
    return cb;
  };
  const cb = new Int32Array(3);
  const blockError = (first: number, end: number, widths: Int32Array): number => {
    let worst = 0;
    for (let k = first; k < end; k++) {
      decodeAt(k, widths);
      const e = w * distance(decoded, 0, keys, stride * k, stride);
      if (e > worst) worst = e;
    }
    return worst;
  };
  /** Sets `drop`, `comps`, the block's sign flips and its range (in `lo`, `hi`, `blockRange`). */
  const prepareBlock = (b: number, first: number, end: number): void => {
    if (rotation) {
      drop = blockDrop[b]!;
      if (drop === PER_KEY_SMALLEST_THREE) return;
      for (let i = 0, c = 0; c < 4; c++) if (c !== drop) comps[i++] = c;
      for (let i = 0; i < 3; i++) {
        rotParams[i] = params[comps[i]!]!;
        rotParams[3 + i] = params[4 + comps[i]!]!;
      }
      setBlockRange(keys, 4, comps, first, end, rotParams, null, blockRange, b, lo, hi);
    } else {
      for (let i = 0; i < 3; i++) {
        comps[i] = i;
      }
      setBlockRange(keys, 3, comps, first, end, params, null, blockRange, b, lo, hi);
    }
  };
  let totalBits = 0;
  for (let b = 0; b < blocks; b++) {
    const first = b * KEYS_PER_BLOCK;
    const end = Math.min(n, first + KEYS_PER_BLOCK);
    prepareBlock(b, first, end);
    if (fixedBits > 0) {
      cb.fill(fixedBits);
    } else {
      // The error falls (almost always monotonically) with the widest component's bits: binary search
      // the fewest.
      let a = 0;
      let z = MAX_FIELD_BITS;
      while (a < z) {
        const mid = (a + z) >>> 1;
        if (blockError(first, end, widthsFor(cb, mid)) <= quantTol) z = mid;
        else a = mid + 1;
      }
      widthsFor(cb, a);
    }
    blockHeader[b] = cb[0]! | ((rotation ? drop : 0) << 5);
    blockBits[b] = packBitsByte(cb[0]!, cb[1]!, cb[2]!);
    totalBits += keyBitsFor(blockHeader[b]!, blockBits[b]!) * (end - first);
  }
  const blockOffset = blockOffsets(blockHeader, blockBits, n);
  const data = new Uint32Array(wordsFor(totalBits));
  for (let b = 0; b < blocks; b++) {
    const first = b * KEYS_PER_BLOCK;
    const end = Math.min(n, first + KEYS_PER_BLOCK);
    prepareBlock(b, first, end);
    const header = blockHeader[b]!;
    const keyBits = keyBitsFor(header, blockBits[b]!);
    for (let k = first; k < end; k++) {
      let bit = blockOffset[b]! + (k - first) * keyBits;
      if (drop === PER_KEY_SMALLEST_THREE && rotation) {
        writeBits(data, bit, 2, largestComponent(keys, 4 * k));
        bit += 2;
      }
      for (let i = 0; i < 3; i++) {
        const bits = componentBits(header, blockBits[b]!, i);
        if (bits > 0) writeBits(data, bit, bits, quantOf(k, i, bits));
        bit += bits;
      }
    }
  }
  const keyMask = new Uint32Array(Math.ceil(F / 32));
  for (let k = 0; k < n; k++) keyMask[frames[k]! >>> 5] = (keyMask[frames[k]! >>> 5]! | (1 << (frames[k]! & 31))) >>> 0;
  return {
    joint: target.joint, path: target.path, encoding, keyCount: n, keyMask, keyRank: rankKeyMask(keyMask),
    params, blockHeader, blockBits, blockRange, blockOffset, ...blockTables(encoding, params, blockHeader, blockBits, blockRange), data,
  };
}

/**
 * Sets block b's 8-bit range ends so that [lo, hi] (as decodeKey computes them: min + lo8 × ext / 255
 * with min, ext from the float32 track params, or the fixed `rotMin`, `rotExt`) covers the block's keys,
 * and leaves lo, hi in `lo`, `hi`.
 */
function setBlockRange(
  keys: Float64Array, stride: number, comps: readonly number[], first: number, end: number,
  params: Float32Array | number, rotExt: number | null, blockRange: Uint8Array, b: number, lo: Float64Array, hi: Float64Array,
): void {
  for (let i = 0; i < 3; i++) {
    let mn = Infinity, mx = -Infinity;
    for (let k = first; k < end; k++) {
      const x = keys[stride * k + comps[i]!]!;
      if (x < mn) mn = x;
      if (x > mx) mx = x;
    }
    const min = typeof params === "number" ? params : params[i]!;
    const ext = (typeof params === "number" ? rotExt! : params[3 + i]!) / 255;
    let l = 0, h = 255;
    if (ext > 0) {
      l = Math.max(0, Math.min(255, Math.floor((mn - min) / ext)));
      while (l > 0 && min + l * ext > mn) l--;
      h = Math.max(l, Math.min(255, Math.ceil((mx - min) / ext)));
      while (h < 255 && min + h * ext < mx) h++;
    }
    blockRange[6 * b + 2 * i] = l;
    blockRange[6 * b + 2 * i + 1] = h;
    lo[i] = min + l * ext;
    hi[i] = min + h * ext;
  }
}
