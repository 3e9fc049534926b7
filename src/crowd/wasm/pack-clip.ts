// Packing keyframed clips for the kernel: every joint's keys on one shared timeline, in the slot layout.
import type { Clip } from "../../clip/clip.ts";
import { createClipCursor } from "../../clip/clip-cursor.ts";
import { sampleClipUnchecked } from "../../clip/sample-clip.ts";
import { createPose, type Pose } from "../../pose/pose.ts";
import { slotBytes, writeSlot } from "./slot-layout.ts";

/** A union timeline may hold at most this many times the keys of the clip's longest track. */
const MAX_UNION_GROWTH = 4;

/**
 * The clip's shared timeline (every joint track's key times, merged and deduplicated), or null when
 * the kernel cannot play the clip exactly and the JS sampler must:
 * - a track with more than one key that is not LINEAR (STEP jumps and CUBICSPLINE tangents do not
 *   survive resampling);
 * - tracks so misaligned that the merged timeline would grow past MAX_UNION_GROWTH × the longest track.
 * Why merging is exact: between two keys of a LINEAR track, its value at any extra merged time lies
 * on the same segment (a line for vectors, the same great arc at a proportional angle for slerped
 * rotations), so interpolating between the merged keys retraces the original curve (up to float32
 * rounding). Root motion is stripped after sampling (the kernel's STRIP command), as in JS.
 */
export function packedTimeline(clip: Clip): Float32Array | null {
  let longest = 1;
  const all: number[] = [];
  for (const track of clip.tracks) {
    const n = track.times.length;
    if (n > 1 && track.interpolation !== "LINEAR") return null;
    longest = Math.max(longest, n);
    for (let k = 0; k < n; k++) all.push(track.times[k]!);
  }
  if (all.length === 0) all.push(0);
  all.sort((a, b) => a - b);
  const unique: number[] = [];
  for (const t of all) if (unique.length === 0 || unique[unique.length - 1] !== t) unique.push(t);
  if (unique.length > MAX_UNION_GROWTH * longest) return null;
  return Float32Array.from(unique);
}

/** Bytes `packClip` writes for a timeline of `keyCount` times: 32-byte header, vector flags, times, keys. */
export function packedClipBytes(keyCount: number, jointCount: number): number {
  return HEADER_BYTES + flagBytes(jointCount) + 4 * Math.ceil(keyCount / 4) * 4 + keyCount * slotBytes(jointCount);
}

const HEADER_BYTES = 32;
/** One i32 per group of four joints, padded to 16 bytes. */
const flagBytes = (jointCount: number): number => 16 * Math.ceil(Math.ceil(jointCount / 4) / 4);
/** Vector flags: the group's translations (bit 0) or scales (bit 1) differ between some keys. */
export const TRANSLATIONS_MOVE = 1;
export const SCALES_MOVE = 2;
/** Vector flag: the group's scales are exactly 1 in every key (the kernel then skips multiplying by them). */
export const SCALES_UNIT = 4;
/** Header word (int32 index from the header) that is 1 when every group's scales are exactly 1 in every key. */
export const HEADER_SCALES_UNIT = 5;
/** float32 1 as int32 bits. */
const ONE_BITS = 0x3f800000;

/**
 * Writes the clip at byte `at` of the kernel memory (`f32`/`i32` views of it): the header (key count,
 * times pointer, keys pointer, worst-case series degree, vector-flags pointer), per group of four
 * joints whether its translations or scales move (the kernel copies still ones instead of
 * interpolating: most joints of a character clip only rotate), the times, then one pose per time —
 * `sampleClip` at that time (exact slerp; a key's own value where the track has a key). Returns the
 * header's byte address.
 */
export function packClip(f32: Float32Array, i32: Int32Array, at: number, clip: Clip, times: Float32Array): number {
  const J = clip.skeleton.jointCount;
  const n = times.length;
  const flagsAt = at + HEADER_BYTES;
  const timesAt = flagsAt + flagBytes(J);
  const keysAt = timesAt + 4 * Math.ceil(n / 4) * 4;
  i32[at >> 2] = n;
  i32[(at >> 2) + 1] = timesAt;
  i32[(at >> 2) + 2] = keysAt;
  i32[(at >> 2) + 4] = flagsAt;
  f32.set(times, timesAt >> 2);
  let pose = createPose(J), previous = createPose(J);
  const cursor = createClipCursor(clip);
  const stride = slotBytes(J);
  let yMax = 0;
  for (let k = 0; k < n; k++) {
    sampleClipUnchecked(pose, clip, times[k]!, cursor, "slerp");
    writeSlot(f32, (keysAt + k * stride) >> 2, pose);
    if (k > 0) yMax = Math.max(yMax, largestKeyStep(previous, pose));
    [pose, previous] = [previous, pose];
  }
  i32[(at >> 2) + 3] = seriesDegree(yMax);
  // Compare every key's translation and scale planes with key 0's, bit for bit.
  const G = Math.ceil(J / 4);
  let unit = 1;
  for (let g = 0; g < G; g++) {
    let flags = 0;
    const t0 = (keysAt >> 2) + 16 * G + 12 * g, s0 = t0 + 12 * G;
    for (let k = 1; k < n && flags !== (TRANSLATIONS_MOVE | SCALES_MOVE); k++) {
      const o = (k * stride) >> 2;
      for (let x = 0; x < 12; x++) {
        if (i32[t0 + o + x] !== i32[t0 + x]) flags |= TRANSLATIONS_MOVE;
        if (i32[s0 + o + x] !== i32[s0 + x]) flags |= SCALES_MOVE;
      }
    }
    if ((flags & SCALES_MOVE) === 0) {
      let ones = true;
      for (let x = 0; x < 12; x++) if (i32[s0 + x] !== ONE_BITS) ones = false;
      if (ones) flags |= SCALES_UNIT;
    }
    if ((flags & SCALES_UNIT) === 0) unit = 0;
    i32[(flagsAt >> 2) + g] = flags;
  }
  i32[(at >> 2) + HEADER_SCALES_UNIT] = unit;
  return at;
}

/** max over joints of y = 1 − |q_a · q_b| (one minus the cosine of half the rotation between keys). */
function largestKeyStep(a: Pose, b: Pose): number {
  let y = 0;
  for (let j = 0; j < a.jointCount; j++) {
    const d = a.r[4 * j]! * b.r[4 * j]! + a.r[4 * j + 1]! * b.r[4 * j + 1]! + a.r[4 * j + 2]! * b.r[4 * j + 2]! + a.r[4 * j + 3]! * b.r[4 * j + 3]!;
    y = Math.max(y, 1 - Math.min(1, Math.abs(d)));
  }
  return y;
}

/** Largest series degree the kernel's plain slerp series takes; beyond, it uses the half-angle fit. */
const MAX_SERIES_DEGREE = 6;
/** Series truncation error allowed: a quarter of float32's unit roundoff. */
const SERIES_TOLERANCE = 2 ** -26;

/**
 * Fewest terms n of the slerp series sin(tA)/sin A = Σ c_i(t)·y^i whose truncation error bound
 * (y/2)^(n+1)/(1 − y/2) is below SERIES_TOLERANCE for every key segment of the clip (y = yMax), or 0
 * when more than MAX_SERIES_DEGREE would be needed (the kernel then slerps by the half-angle fit).
 */
export function seriesDegree(yMax: number): number {
  const r = yMax / 2;
  for (let n = 1; n <= MAX_SERIES_DEGREE; n++) if (r ** (n + 1) / (1 - r) <= SERIES_TOLERANCE) return n;
  return 0;
}
