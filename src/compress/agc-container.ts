import type { LoopMode, TrackPath } from "../clip/clip.ts";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { createPose } from "../pose/pose.ts";
import { createSkeleton, type Skeleton } from "../skeleton/skeleton.ts";
import { decodeKey, deriveTrack, MAX_COARSE_SHIFT, TrackEncoding, type CompressedClip, type CompressedTrack } from "./compressed-clip.ts";
import { AnimgraphError } from "../errors/animgraph-error.ts";
import { argumentError, expectArray, expectSkeleton, expectString, rangeError } from "../errors/check-argument.ts";
import { expectCompressedClip } from "./check-compressed.ts";

/**
 * The `.agc` container (animgraph compressed clips), little-endian, every section 4-byte aligned.
 * Layout (docs/compression.md has the table):
 *
 *   "AGC1" | u32 version (4) | u32 clipCount | u32 jointCount
 *   joints: per joint i16 parent, u16 nameBytes, UTF-8 name, pad to 4, rest t (3 f32) r (4 f32) s (3 f32)
 *   clips: per clip a 32-byte header
 *     u32 blockBytes (header + tracks) | u32 frameCount | f64 sampleRate | f32 startTime | f32 duration
 *     | u16 trackCount | u8 loopMode (0 loop, 1 clamp, 2 pingpong) | u8 0 | u32 nameBytes
 *   then per track a 12-byte header
 *     u16 joint | u8 path (0 t, 1 r, 2 s) | u8 encoding | u8 coarseShift | u8 coarseCode | u16 paramCount
 *     | u32 dataWords
 *   then f32 params and u32 packed data (block headers, coarse residuals, fine residuals; see
 *   compressed-clip.ts); after the tracks the clip's UTF-8 name, padded to 4.
 * Inverse bind matrices are not stored (a reader gets identity ones): bind the clips to your own
 * skeleton by joint name if you need skinning.
 */
export const AGC_MAGIC = "AGC1";
/** Format version written after the magic; `readAgc` refuses any other (`E_AGC_VERSION`). */
export const AGC_VERSION = 4;

const LOOP_MODES: readonly LoopMode[] = ["loop", "clamp", "pingpong"];
const PATHS: readonly TrackPath[] = ["translation", "rotation", "scale"];

/** Serialises clips that share one skeleton. Throws (programmer error) when the skeletons differ. */
export function writeAgc(clips: readonly CompressedClip[], skeleton?: Skeleton): Uint8Array {
  expectArray("writeAgc", "clips", clips);
  clips.forEach((clip, i) => expectCompressedClip("writeAgc", `clips[${i}]`, clip));
  if (skeleton === undefined && clips.length === 0) throw rangeError("writeAgc", "clips", "at least one clip when no skeleton is given", clips);
  if (skeleton !== undefined) expectSkeleton("writeAgc", "skeleton", skeleton);
  return writeAgcUnchecked(clips, skeleton ?? clips[0]!.skeleton);
}

function writeAgcUnchecked(clips: readonly CompressedClip[], skeleton: Skeleton): Uint8Array {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  const head = new DataView(new ArrayBuffer(16));
  for (let i = 0; i < 4; i++) head.setUint8(i, AGC_MAGIC.charCodeAt(i));
  head.setUint32(4, AGC_VERSION, true);
  head.setUint32(8, clips.length, true);
  head.setUint32(12, skeleton.jointCount, true);
  parts.push(new Uint8Array(head.buffer));
  for (let j = 0; j < skeleton.jointCount; j++) {
    const name = enc.encode(skeleton.names[j]!);
    const len = 4 + align4(name.length) + 40;
    const view = new DataView(new ArrayBuffer(len));
    view.setInt16(0, skeleton.parents[j]!, true);
    view.setUint16(2, name.length, true);
    new Uint8Array(view.buffer).set(name, 4);
    let o = 4 + align4(name.length);
    const rest = skeleton.rest;
    for (let c = 0; c < 3; c++, o += 4) view.setFloat32(o, rest.t[3 * j + c]!, true);
    for (let c = 0; c < 4; c++, o += 4) view.setFloat32(o, rest.r[4 * j + c]!, true);
    for (let c = 0; c < 3; c++, o += 4) view.setFloat32(o, rest.s[3 * j + c]!, true);
    parts.push(new Uint8Array(view.buffer));
  }
  for (const clip of clips) {
    if (clip.skeleton !== skeleton) throw new AnimgraphError("ERR_SKELETON_MISMATCH", `writeAgc: clip "${clip.name}" is bound to another skeleton`, { argument: "clips" });
    const trackParts: Uint8Array[] = clip.tracks.map((t) => writeTrack(t));
    const blockBytes = 32 + trackParts.reduce((n, p) => n + p.length, 0);
    const name = enc.encode(clip.name);
    const view = new DataView(new ArrayBuffer(32));
    view.setUint32(0, blockBytes, true);
    view.setUint32(4, clip.frameCount, true);
    view.setFloat64(8, clip.sampleRate, true);
    view.setFloat32(16, clip.startTime, true);
    view.setFloat32(20, clip.duration, true);
    view.setUint16(24, clip.tracks.length, true);
    view.setUint8(26, LOOP_MODES.indexOf(clip.loopMode));
    view.setUint32(28, name.length, true);
    parts.push(new Uint8Array(view.buffer), ...trackParts);
    const padded = new Uint8Array(align4(name.length));
    padded.set(name);
    parts.push(padded);
  }
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function writeTrack(t: CompressedTrack): Uint8Array {
  const len = 12 + 4 * t.params.length + 4 * t.data.length;
  const bytes = new Uint8Array(len);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, t.joint, true);
  view.setUint8(2, PATHS.indexOf(t.path));
  view.setUint8(3, t.encoding);
  view.setUint8(4, t.coarseShift);
  view.setUint8(5, t.coarseCode);
  view.setUint16(6, t.params.length, true);
  view.setUint32(8, t.data.length, true);
  let o = 12;
  for (const p of t.params) { view.setFloat32(o, p, true); o += 4; }
  for (const w of t.data) { view.setUint32(o, w, true); o += 4; }
  return bytes;
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

/** What `readAgc` returns: everything it could read, and what was wrong. */
export interface AgcReadResult {
  readonly skeleton?: Skeleton;
  readonly clips: CompressedClip[];
  readonly diagnostics: Diagnostic[];
}

class AgcStop extends Error {}

const keyScratch = new Float32Array(4);

/**
 * Largest magnitude of any stored value. Interpolating between keys near float32's limit overflows to
 * Infinity − Infinity = NaN, so a container holding them could sample non-finite poses.
 */
export const MAX_AGC_MAGNITUDE = 1e9;

/**
 * Why `n` values at `at` are not a usable key of a `path` track, or undefined: each must be finite and
 * within ±MAX_AGC_MAGNITUDE, and a rotation must be near unit length (a zero quaternion normalises to NaN).
 */
function keyProblem(v: ArrayLike<number>, at: number, n: number, path: string): string | undefined {
  let norm2 = 0;
  for (let c = 0; c < n; c++) {
    const x = v[at + c]!;
    if (!(Math.abs(x) <= MAX_AGC_MAGNITUDE)) return `${path} value ${x} (not finite, or beyond ±${MAX_AGC_MAGNITUDE})`;
    norm2 += x * x;
  }
  if (path === "rotation" && !(norm2 > 0.25 && norm2 < 4)) return `rotation of length ${Math.sqrt(norm2).toPrecision(4)} (not a unit quaternion)`;
  return undefined;
}

/**
 * Reads a `.agc` container. Never throws on bad bytes: truncation, a bad magic or version, joints or
 * tracks out of range, packed data that disagrees with its block headers, bit widths over 24, keys that
 * do not decode to finite values … each give an `E_AGC_*` diagnostic with the byte offset as the pointer
 * (`byte 1234`), and reading stops there. Rebuilds each track's derived tables (`deriveTrack`) and decodes
 * every key once to check it.
 */
export function readAgc(bytes: Uint8Array, file: string): AgcReadResult {
  if (!(bytes instanceof Uint8Array)) throw argumentError("readAgc", "bytes", "a Uint8Array (the file's bytes)", bytes);
  expectString("readAgc", "file", file);
  const diagnostics: Diagnostic[] = [];
  const clips: CompressedClip[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dec = new TextDecoder("utf-8", { fatal: true });
  const fail = (code: string, at: number, message: string): never => {
    diagnostics.push({ code, severity: "error", file, pointer: `byte ${at}`, message });
    throw new AgcStop();
  };
  const need = (at: number, n: number, what: string): void => {
    if (at + n > bytes.length) fail("E_AGC_TRUNCATED", at, `the file ends inside ${what} (needs ${n} bytes, ${Math.max(0, bytes.length - at)} left)`);
  };
  let skeleton: Skeleton | undefined;
  try {
    need(0, 16, "the file header");
    const magic = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
    if (magic !== AGC_MAGIC) fail("E_AGC_MAGIC", 0, `not an animgraph compressed-clip file (magic "${magic}", expected "${AGC_MAGIC}")`);
    const version = view.getUint32(4, true);
    if (version !== AGC_VERSION) {
      const why = version < AGC_VERSION ? "an older format; recompress its source with animgraph compress" : "written by a newer animgraph";
      fail("E_AGC_VERSION", 4, `version ${version} is not supported (this reader reads version ${AGC_VERSION}; version ${version} is ${why})`);
    }
    const clipCount = view.getUint32(8, true);
    const J = view.getUint32(12, true);
    if (J > 0x7fff) fail("E_AGC_RANGE", 12, `${J} joints; the limit is 32767`);
    let o = 16;
    const names: string[] = [];
    const nameSet = new Set<string>();
    const parents: number[] = [];
    const rest = createPose(J);
    for (let j = 0; j < J; j++) {
      need(o, 4, `joint ${j}`);
      const parent = view.getInt16(o, true);
      const nameBytes = view.getUint16(o + 2, true);
      need(o + 4, align4(nameBytes) + 40, `joint ${j}`);
      if (!(parent === -1 || (parent >= 0 && parent < j))) fail("E_AGC_RANGE", o, `joint ${j} has parent ${parent}; parents must come before children`);
      let name: string;
      try {
        name = dec.decode(bytes.subarray(o + 4, o + 4 + nameBytes));
      } catch {
        return fail("E_AGC_RANGE", o + 4, `joint ${j}'s name is not UTF-8`);
      }
      if (nameSet.has(name)) fail("E_AGC_RANGE", o + 4, `joint name "${name}" is used twice`);
      nameSet.add(name);
      names.push(name);
      parents.push(parent);
      let p = o + 4 + align4(nameBytes);
      for (let c = 0; c < 3; c++, p += 4) rest.t[3 * j + c] = view.getFloat32(p, true);
      for (let c = 0; c < 4; c++, p += 4) rest.r[4 * j + c] = view.getFloat32(p, true);
      for (let c = 0; c < 3; c++, p += 4) rest.s[3 * j + c] = view.getFloat32(p, true);
      const restProblem = keyProblem(rest.t, 3 * j, 3, "translation") ?? keyProblem(rest.r, 4 * j, 4, "rotation") ?? keyProblem(rest.s, 3 * j, 3, "scale");
      if (restProblem) fail("E_AGC_RANGE", o + 4 + align4(nameBytes), `joint ${j}'s rest ${restProblem}`);
      o = p;
    }
    const skel = createSkeleton({ names, parents, rest });
    skeleton = skel;
    for (let ci = 0; ci < clipCount; ci++) {
      const start = o;
      need(o, 32, `clip ${ci}'s header`);
      const blockBytes = view.getUint32(o, true);
      const F = view.getUint32(o + 4, true);
      const sampleRate = view.getFloat64(o + 8, true);
      const startTime = view.getFloat32(o + 16, true);
      const duration = view.getFloat32(o + 20, true);
      const trackCount = view.getUint16(o + 24, true);
      const loop = view.getUint8(o + 26);
      const nameBytes = view.getUint32(o + 28, true);
      if (!(F >= 1 && F <= 65536)) fail("E_AGC_RANGE", o + 4, `clip ${ci}: frame count ${F} is not in 1…65536`);
      if (!(sampleRate > 0 && Number.isFinite(sampleRate))) fail("E_AGC_RANGE", o + 8, `clip ${ci}: sample rate ${sampleRate} is not positive`);
      if (!(startTime >= 0 && duration >= startTime && Number.isFinite(duration))) fail("E_AGC_RANGE", o + 16, `clip ${ci}: bad start time or duration`);
      if (loop > 2) fail("E_AGC_RANGE", o + 26, `clip ${ci}: loop mode ${loop} is not 0, 1 or 2`);
      need(o, blockBytes, `clip ${ci}`);
      o += 32;
      const tracks: CompressedTrack[] = [];
      const trackIndex = new Int32Array(3 * J).fill(-1);
      for (let ti = 0; ti < trackCount; ti++) {
        const what = `clip ${ci} track ${ti}`;
        need(o, 12, `${what}'s header`);
        const joint = view.getUint16(o, true);
        const pathCode = view.getUint8(o + 2);
        const encoding = view.getUint8(o + 3);
        const coarseShift = view.getUint8(o + 4);
        const coarseCode = view.getUint8(o + 5);
        const paramCount = view.getUint16(o + 6, true);
        const words = view.getUint32(o + 8, true);
        if (joint >= J) fail("E_AGC_RANGE", o, `${what}: joint ${joint} out of range (${J} joints)`);
        if (pathCode > 2) fail("E_AGC_RANGE", o + 2, `${what}: path ${pathCode} is not 0, 1 or 2`);
        if (encoding > 2) fail("E_AGC_RANGE", o + 3, `${what}: encoding ${encoding} is not 0, 1 or 2`);
        const path = PATHS[pathCode]!;
        const stride = path === "rotation" ? 4 : 3;
        const slot = 3 * joint + pathCode;
        if (trackIndex[slot] !== -1) fail("E_AGC_RANGE", o, `${what}: joint ${joint} already has a ${path} track`);
        const constant = encoding === TrackEncoding.CONSTANT;
        if ((encoding === TrackEncoding.ROTATION) !== (path === "rotation") && !constant) fail("E_AGC_RANGE", o + 3, `${what}: encoding ${encoding} does not fit a ${path} track`);
        if (!constant && F < 2) fail("E_AGC_RANGE", o + 3, `${what}: a predicted track needs 2 frames or more, the clip has ${F}`);
        if (constant ? coarseShift !== 0 || coarseCode !== 0 : coarseShift > MAX_COARSE_SHIFT) {
          fail("E_AGC_RANGE", o + 4, `${what}: coarse key spacing 2^${coarseShift} is not ${constant ? "0 for a constant track" : `in 2^0…2^${MAX_COARSE_SHIFT}`}`);
        }
        const expectParams = constant ? stride : stride + 1;
        if (paramCount !== expectParams) fail("E_AGC_RANGE", o + 6, `${what}: ${paramCount} params, expected ${expectParams}`);
        if (constant && words !== 0) fail("E_AGC_RANGE", o + 8, `${what}: a constant track has no packed data, not ${words} words`);
        o += 12;
        need(o, 4 * paramCount + 4 * words, what);
        const params = new Float32Array(paramCount);
        for (let i = 0; i < paramCount; i++, o += 4) params[i] = view.getFloat32(o, true);
        if (!params.every((v) => Math.abs(v) <= MAX_AGC_MAGNITUDE)) fail("E_AGC_RANGE", o - 4 * paramCount, `${what}: a parameter is not finite or beyond ±${MAX_AGC_MAGNITUDE}`);
        if (constant) {
          const problem = keyProblem(params, 0, stride, path);
          if (problem) fail("E_AGC_RANGE", o - 4 * paramCount, `${what}: the constant ${problem}`);
        }
        if (!constant && !(params[stride]! > 0)) fail("E_AGC_RANGE", o - 4, `${what}: the base step ${params[stride]!} is not positive`);
        const dataAt = o;
        const data = new Uint32Array(words);
        for (let i = 0; i < words; i++, o += 4) data[i] = view.getUint32(o, true);
        let track: CompressedTrack;
        if (constant) {
          track = {
            joint, path, encoding: TrackEncoding.CONSTANT, frameCount: F, coarseShift: 0, coarseCode: 0, params, data,
            coarse: new Float32Array(0), blockOffset: new Uint32Array(0), blockWidth: new Uint8Array(0), blockStep: new Float64Array(0),
          };
        } else {
          const derived = deriveTrack(encoding as TrackEncoding, F, coarseShift, coarseCode, params, data);
          if (!derived || Math.ceil(derived.bitLength / 32) !== words) {
            fail("E_AGC_RANGE", dataAt, `${what}: the packed data (${words} words) does not match its block headers`);
          }
          track = {
            joint, path, encoding: encoding as TrackEncoding, frameCount: F, coarseShift, coarseCode, params, data,
            coarse: derived!.coarse, blockOffset: derived!.blockOffset, blockWidth: derived!.blockWidth, blockStep: derived!.blockStep,
          };
          // Every key must decode to finite values (damaged steps or residuals could overflow).
          for (let f = 0; f < F; f++) {
            decodeKey(keyScratch, 0, track, f);
            const problem = keyProblem(keyScratch, 0, stride, path);
            if (problem) fail("E_AGC_RANGE", dataAt, `${what}: frame ${f} decodes to a ${problem}`);
          }
        }
        trackIndex[slot] = tracks.length;
        tracks.push(track);
      }
      if (o - start !== blockBytes) fail("E_AGC_RANGE", start, `clip ${ci}: block length ${blockBytes} disagrees with its tracks (${o - start} bytes)`);
      need(o, align4(nameBytes), `clip ${ci}'s name`);
      let name: string;
      try {
        name = dec.decode(bytes.subarray(o, o + nameBytes));
      } catch {
        return fail("E_AGC_RANGE", o, `clip ${ci}'s name is not UTF-8`);
      }
      o += align4(nameBytes);
      clips.push(Object.freeze({
        name, skeleton: skel, sampleRate, frameCount: F, startTime, duration, loopMode: LOOP_MODES[loop]!,
        tracks: Object.freeze(tracks), trackIndex,
      }));
    }
    if (o !== bytes.length) fail("E_AGC_TRAILING", o, `${bytes.length - o} bytes after the last clip`);
  } catch (err) {
    if (!(err instanceof AgcStop)) throw err;
  }
  return skeleton ? { skeleton, clips, diagnostics } : { clips, diagnostics };
}
