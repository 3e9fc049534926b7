// The compression exports that take a user's arguments, with their argument checks: each checks, then
// calls the function of the same name in compress-clip.ts, compressed-clip.ts or decompress-clip.ts,
// which the library's own loops keep calling unchecked (decodeKey once per key in decompressClip, the
// .agc reader and the compressor). Kept apart from those files so the encoder can change freely.
import { expectWholeClip } from "../clip/check-clip.ts";
import type { Clip } from "../clip/clip.ts";
import { argumentError, expectInteger, expectOneOf, rangeError } from "../errors/check-argument.ts";
import { expectArrayOfShape, expectShape, type FieldKind } from "../errors/check-shape.ts";
import type { QuatInterpolation } from "../math/quat.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { expectSkeleton } from "../errors/check-argument.ts";
import { expectCompressedClip } from "./check-compressed.ts";
import {
  compressClip as compressClipUnchecked, detectSampleRate as detectSampleRateUnchecked, type CompressOptions, type CompressResult,
} from "./compress-clip.ts";
import {
  compressedByteLength as compressedByteLengthUnchecked, decodeKey as decodeKeyUnchecked, TrackEncoding, type CompressedClip, type CompressedTrack,
} from "./compressed-clip.ts";
import { decompressClip as decompressClipUnchecked } from "./decompress-clip.ts";
import { ASSUMED_JOINT_EXTENT_METRES, estimateUnitsPerMetre as estimateUnitsPerMetreUnchecked } from "./units.ts";

/** What sampling and compressing read of each track of a Clip. */
const JOINT_TRACK_SHAPE: Readonly<Record<string, FieldKind>> = {
  joint: "number", path: "string", interpolation: "string", stride: "number", times: "typed", values: "typed",
};

/** A Clip down to its tracks' key arrays (a hand-built clip object is checked as far as the call reads it). */
function expectClipWithTracks(fn: string, argument: string, value: unknown): asserts value is Clip {
  expectWholeClip(fn, argument, value);
  expectArrayOfShape(fn, `${argument}.tracks`, (value as Clip).tracks, "JointTrack", JOINT_TRACK_SHAPE);
}

const COMPRESS_OPTIONS_SHAPE: Readonly<Record<string, FieldKind>> = {
  tolerance: "number?", virtualVertexDistance: "number?", unitsPerMetre: "number?", sampleRate: "number?", rotationBits: "number?",
  translationBits: "number?", scaleBits: "number?", coarseShift: "number?", quatMode: "string?", compensate: "boolean?", file: "string?", onProgress: "function?",
};
const QUAT_MODES: readonly QuatInterpolation[] = ["slerp", "fastSlerp", "nlerp"];

/**
 * Compresses `clip` onto a uniform key grid: every key is predicted (coarse keys from the two before
 * them, fine keys from the coarse keys around them) and its quantised prediction error stored, with
 * steps tightened track by track, then loosened block by block, so that every joint's virtual-vertex
 * error stays within `tolerance` (docs/compression.md).
 * Never modifies `clip`. Option values the compressor cannot use (a negative tolerance, 30 bits) come
 * back as `E_COMPRESS_OPTION` diagnostics; a wrong-typed argument or option (a string for a number) is
 * AnimgraphError ERR_ARGUMENT.
 */
export function compressClip(clip: Clip, options: CompressOptions = {}): CompressResult {
  const fn = "compressClip";
  expectClipWithTracks(fn, "clip", clip);
  expectShape(fn, "options", options, "a CompressOptions object", COMPRESS_OPTIONS_SHAPE);
  if (options.quatMode !== undefined) expectOneOf(fn, "options.quatMode", options.quatMode, QUAT_MODES);
  return compressClipUnchecked(clip, options);
}

/**
 * The key rate of a clip, from its track with the most keys: when its key intervals are uniform
 * (all within 1 % of their median) (n − 1) / (t_last − t_first), which gives a BVH take its exact
 * frame rate; otherwise 1 / the median interval (Fox's Run: 24 Hz keys with one 0.2 s gap → 24 Hz).
 * 30 when no track has two keys.
 */
export function detectSampleRate(clip: Clip): number {
  expectClipWithTracks("detectSampleRate", "clip", clip);
  return detectSampleRateUnchecked(clip);
}

/**
 * Estimates skeleton units per metre from the rest pose: the largest side of the joints' model-space
 * bounding box is taken to be `extentMetres` (default 1.5 m, `ASSUMED_JOINT_EXTENT_METRES`). Only
 * good to about ±20 % for human skeletons (CMU 131_01.bvh gives 15.1 units/m where CMU's ASF definition,
 * 1 unit = 1/0.45 inch = 5.644 cm, gives 17.72; pirouette.bvh, in centimetres, gives 99.3): pass the factor
 * explicitly when it is known. Returns 1 for a skeleton with no extent.
 */
export function estimateUnitsPerMetre(skeleton: Skeleton, extentMetres = ASSUMED_JOINT_EXTENT_METRES): number {
  const fn = "estimateUnitsPerMetre";
  expectSkeleton(fn, "skeleton", skeleton);
  if (typeof extentMetres !== "number") throw argumentError(fn, "extentMetres", "a finite length in metres > 0", extentMetres);
  if (!(extentMetres > 0 && extentMetres < Infinity)) throw rangeError(fn, "extentMetres", "a finite length in metres > 0", extentMetres);
  return estimateUnitsPerMetreUnchecked(skeleton, extentMetres);
}

const PATHS = ["translation", "rotation", "scale"] as const;

/**
 * A CompressedTrack of a compressed clip: what decoding reads (its encoding, grid, params, bits and
 * derived tables). decodeKey runs it per key, so it is type tests only (no allocation unless it throws):
 * measured cheaper than a WeakSet lookup when calls go from track to track.
 */
function expectCompressedTrack(fn: string, argument: string, value: unknown): asserts value is CompressedTrack {
  const t = value as Partial<CompressedTrack> | null;
  if (typeof t !== "object" || t === null || !Number.isInteger(t.joint) || !Number.isInteger(t.frameCount) || !Number.isInteger(t.coarseShift)
    || !(t.encoding === TrackEncoding.CONSTANT || t.encoding === TrackEncoding.RANGE || t.encoding === TrackEncoding.ROTATION)
    || !(t.params instanceof Float32Array) || !(t.data instanceof Uint32Array) || !(t.coarse instanceof Float32Array)
    || !(t.blockOffset instanceof Uint32Array) || !(t.blockWidth instanceof Uint8Array) || !(t.blockStep instanceof Float64Array)) {
    throw argumentError(fn, argument, "a CompressedTrack (an entry of a CompressedClip's tracks)", value);
  }
  const path = t.path;
  if (path !== "rotation" && path !== "translation" && path !== "scale") expectOneOf(fn, `${argument}.path`, path, PATHS);
  if (t.params.length < (path === "rotation" ? 4 : 3)) {
    throw rangeError(fn, `${argument}.params`, `a Float32Array of at least ${path === "rotation" ? 4 : 3} numbers`, t.params);
  }
}

/** A CompressedClip with every track checked (what decompressing or sizing it reads). */
function expectCompressedClipWithTracks(fn: string, argument: string, value: unknown): asserts value is CompressedClip {
  expectCompressedClip(fn, argument, value);
  const tracks = value.tracks;
  for (let i = 0; i < tracks.length; i++) expectCompressedTrack(fn, `${argument}.tracks[${i}]`, tracks[i]);
}

/**
 * Decodes the key at grid frame `f` (0 ≤ f < frameCount) of `track` into out[o …] (3 or 4 floats). A
 * coarse key is a copy from the table; a fine key is the linear interpolation of the coarse keys around it
 * plus its residual (`reconstruct`'s rule). Float64 arithmetic; the only rounding is the store into `out`.
 * Allocates nothing: the checks are type and range tests.
 */
export function decodeKey(out: Float32Array, o: number, track: CompressedTrack, f: number): void {
  const fn = "decodeKey";
  expectCompressedTrack(fn, "track", track);
  if (!(out instanceof Float32Array)) throw argumentError(fn, "out", "a Float32Array", out);
  expectInteger(fn, "o", o);
  expectInteger(fn, "f", f, 0, track.frameCount - 1);
  const size = track.path === "rotation" ? 4 : 3;
  if (out.length < o + size) throw rangeError(fn, "out", `a Float32Array of at least ${o + size} numbers (${size} from offset ${o})`, out);
  decodeKeyUnchecked(out, o, track, f);
}

/**
 * Bytes the clip's data takes in the `.agc` container (docs/compression.md): a 32-byte clip header and per
 * track a 12-byte header, its float32 params and its packed words. Names and the skeleton are not counted
 * (ACL's figures do not count them either); the derived tables (coarse keys, block offsets, widths and
 * steps) are rebuilt on load and not stored.
 */
export function compressedByteLength(clip: CompressedClip): number {
  expectCompressedClipWithTracks("compressedByteLength", "clip", clip);
  return compressedByteLengthUnchecked(clip);
}

/**
 * Expands a compressed clip back into an ordinary `Clip` on the same skeleton: one LINEAR track per
 * compressed track, a key at every grid frame (`frameTime`, as float32 seconds), with the decoded values
 * (a CONSTANT track becomes one key). Sampling the result with `sampleClip` gives what
 * `sampleCompressedClip` gives, up to the float32 rounding of the key times.
 */
export function decompressClip(compressed: CompressedClip): Clip {
  expectCompressedClipWithTracks("decompressClip", "compressed", compressed);
  return decompressClipUnchecked(compressed);
}
