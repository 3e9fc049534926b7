// The compression figures of `npm run bench`: ratio and error at 30 fps as ACL measures them, the cost
// of decompressing one pose per character, and the time to compress a one-minute clip.
import type { Clip } from "../src/clip/clip.ts";
import { createClip } from "../src/clip/clip.ts";
import { compressClip } from "../src/compress/compress-clip.ts";
import type { CompressedClip } from "../src/compress/compressed-clip.ts";
import { createCompressedClipCursor, sampleCompressedClip } from "../src/compress/sample-compressed-clip.ts";
import { loadBvh } from "../src/io/bvh/load-bvh.ts";
import { loadGltfFile } from "../src/io/gltf/load-gltf-file.ts";
import type { QuatInterpolation } from "../src/math/quat.ts";
import { createPose } from "../src/pose/pose.ts";
import { sharedAsset } from "../test/helpers/assets.ts";
import { median } from "./measure.ts";

/** CMU's ASF unit is 1/0.45 inch. */
const CMU_UNITS_PER_METRE = 1 / (2.54 / 0.45 / 100);
/** ACL's defaults: 0.1 mm on virtual vertices 1 m from each joint (its "shell distance"), object space. */
const TOLERANCE_M = 1e-4;
const SHELL_M = 1;
const RATE = 30;

export interface SetFigures {
  readonly name: string;
  readonly clips: number;
  readonly rawBytes: number;
  readonly compressedBytes: number;
  readonly ratio: number;
  readonly maxErrorMm: number;
  readonly seconds: number;
}

export interface CompressionFigures {
  /** CMU 131_01 + 131_03 (motion capture, 31 joints, 120 fps resampled to 30 fps). */
  readonly cmu: SetFigures;
  /** RobotExpressive's 14 clips (43 joints, keyed at 24–30 fps, resampled to 30 fps). */
  readonly robot: SetFigures;
  /** Both sets together: Σ raw / Σ compressed, the largest error. */
  readonly all: SetFigures;
  /**
   * Median ns per joint (and the rounds' range) to decompress one pose of each of 1,000 out-of-phase
   * characters playing CMU 131_01 at 60 Hz, rotations interpolated by nlerp between keys (as ACL
   * decompresses; the clip compressed for nlerp, so the bound holds for what is sampled).
   */
  readonly decompressNsPerJoint: number;
  readonly decompressSpread: readonly [number, number];
  /** The same with exact slerp between keys (`sampleCompressedClip`'s default: acos and sin per track). */
  readonly decompressNsPerJointSlerp: number;
  /** Seconds to compress a one-minute CMU clip (131_01 repeated to 60 s, 120 fps source) at 30 fps. */
  readonly oneMinuteSeconds: number;
}

function compressSet(name: string, clips: readonly { clip: Clip; unitsPerMetre: number }[]): { figures: SetFigures; compressed: CompressedClip[] } {
  const t0 = performance.now();
  let raw = 0, packed = 0, worst = 0;
  const compressed: CompressedClip[] = [];
  for (const { clip, unitsPerMetre } of clips) {
    const result = compressClip(clip, { tolerance: TOLERANCE_M, virtualVertexDistance: SHELL_M, unitsPerMetre, sampleRate: RATE });
    if (!result.stats || !result.compressed) throw new Error(`${clip.name}: ${JSON.stringify(result.diagnostics)}`);
    raw += result.stats.rawBytes;
    packed += result.stats.compressedBytes;
    worst = Math.max(worst, result.stats.maxError);
    compressed.push(result.compressed);
  }
  return {
    figures: { name, clips: clips.length, rawBytes: raw, compressedBytes: packed, ratio: raw / packed, maxErrorMm: worst * 1000, seconds: (performance.now() - t0) / 1000 },
    compressed,
  };
}

/** `clip` played `repeats` times back to back as one clip (keys shifted by whole durations). */
function repeated(clip: Clip, repeats: number): Clip {
  const tracks = clip.tracks.map((track) => {
    const n = track.times.length;
    const w = track.values.length / n;
    const times = new Float32Array(n * repeats);
    const values = new Float32Array(track.values.length * repeats);
    for (let r = 0; r < repeats; r++) {
      for (let k = 0; k < n; k++) times[r * n + k] = track.times[k]! + r * (clip.duration + 1 / 120);
      values.set(track.values, r * n * w);
    }
    return { joint: track.joint, path: track.path, interpolation: track.interpolation, stride: track.stride, times, values };
  });
  return createClip({ name: `${clip.name}×${repeats}`, skeleton: clip.skeleton, tracks });
}

/** ns per joint for one pose of each of `characters` characters at out-of-phase times, ROUNDS rounds. */
function decompressSpeed(clip: CompressedClip, characters: number, rounds: number, quatMode: QuatInterpolation): { median: number; low: number; high: number } {
  const J = clip.skeleton.jointCount;
  const pose = createPose(J);
  const cursors = Array.from({ length: characters }, () => createCompressedClipCursor(clip));
  const times = Float64Array.from({ length: characters }, (_, i) => ((i * 0.7919) % 1) * clip.duration);
  const frame = (dt: number): void => {
    for (let i = 0; i < characters; i++) {
      let t = times[i]! + dt;
      if (t > clip.duration) t -= clip.duration;
      times[i] = t;
      sampleCompressedClip(pose, clip, t, cursors[i]!, quatMode);
    }
  };
  for (let k = 0; k < 20; k++) frame(1 / 60);
  const runs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const frames = 10;
    const t0 = performance.now();
    for (let k = 0; k < frames; k++) frame(1 / 60);
    runs.push(((performance.now() - t0) * 1e6) / (frames * characters * J));
  }
  return { median: median(runs), low: Math.min(...runs), high: Math.max(...runs) };
}

export async function compressionFigures(rounds: number): Promise<CompressionFigures> {
  const cmuClips = ["bvh-cmu-131/131_01.bvh", "bvh-cmu-131/131_03.bvh"].map((file) => {
    const { clip } = loadBvh(sharedAsset(file));
    if (!clip) throw new Error(`${file} did not load`);
    return { clip, unitsPerMetre: CMU_UNITS_PER_METRE };
  });
  const robot = await loadGltfFile(sharedAsset("robot-expressive/RobotExpressive.glb"));
  if (!robot.ok) throw new Error(`RobotExpressive.glb: ${JSON.stringify(robot.diagnostics)}`);
  const robotClips = robot.clips.filter((c) => c.skeleton === robot.skeletons[0]).map((clip) => ({ clip, unitsPerMetre: 1 }));
  const cmu = compressSet("CMU 131_01 + 131_03", cmuClips);
  const bot = compressSet("RobotExpressive (14 clips)", robotClips);
  const all: SetFigures = {
    name: "both", clips: cmu.figures.clips + bot.figures.clips,
    rawBytes: cmu.figures.rawBytes + bot.figures.rawBytes, compressedBytes: cmu.figures.compressedBytes + bot.figures.compressedBytes,
    ratio: (cmu.figures.rawBytes + bot.figures.rawBytes) / (cmu.figures.compressedBytes + bot.figures.compressedBytes),
    maxErrorMm: Math.max(cmu.figures.maxErrorMm, bot.figures.maxErrorMm), seconds: cmu.figures.seconds + bot.figures.seconds,
  };
  const forNlerp = compressClip(cmuClips[0]!.clip, { tolerance: TOLERANCE_M, virtualVertexDistance: SHELL_M, unitsPerMetre: CMU_UNITS_PER_METRE, sampleRate: RATE, quatMode: "nlerp" });
  if (!forNlerp.compressed) throw new Error(`131_01 for nlerp: ${JSON.stringify(forNlerp.diagnostics)}`);
  const speed = decompressSpeed(forNlerp.compressed, 1000, rounds, "nlerp");
  const slerpSpeed = decompressSpeed(cmu.compressed[0]!, 1000, rounds, "slerp");
  const minute = repeated(cmuClips[0]!.clip, Math.ceil(60 / cmuClips[0]!.clip.duration));
  const t0 = performance.now();
  const r = compressClip(minute, { tolerance: TOLERANCE_M, virtualVertexDistance: SHELL_M, unitsPerMetre: CMU_UNITS_PER_METRE, sampleRate: RATE });
  const oneMinuteSeconds = (performance.now() - t0) / 1000;
  if (!r.compressed) throw new Error(`one-minute clip: ${JSON.stringify(r.diagnostics)}`);
  return { cmu: cmu.figures, robot: bot.figures, all, decompressNsPerJoint: speed.median, decompressSpread: [speed.low, speed.high], decompressNsPerJointSlerp: slerpSpeed.median, oneMinuteSeconds };
}
