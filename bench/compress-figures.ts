// The compression figures of `npm run bench`: ratio and error at 30 fps as ACL measures them, the cost
// of decompressing one pose per character, and the time to compress a one-minute clip.
import type { Clip } from "../src/clip/clip.ts";
import { createClip } from "../src/clip/clip.ts";
import { compressClip } from "../src/compress/compress-clip.ts";
import type { CompressedClip } from "../src/compress/compressed-clip.ts";
import { createCompressedClipCursor, sampleCompressedClip } from "../src/compress/sample-compressed-clip.ts";
import { createClipCursor } from "../src/clip/clip-cursor.ts";
import { sampleClip } from "../src/clip/sample-clip.ts";
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
  /** The CMU takes in ../shared/assets: 131_01, 131_03 (31 joints) and the pirouette (43), 120 fps resampled to 30 fps. */
  readonly cmu: SetFigures;
  /** RobotExpressive's 14 clips (43 joints, keyed at 24–30 fps, resampled to 30 fps). */
  readonly robot: SetFigures;
  /** Both sets together: Σ raw / Σ compressed, the largest error. */
  readonly all: SetFigures;
  /**
   * Median ns per joint of CPU time (and the rounds' range) to decompress one pose of each of 1,000
   * out-of-phase characters playing CMU 131_01 at 60 Hz, rotations interpolated by nlerp between keys (as
   * ACL decompresses; the clip compressed for nlerp, so the bound holds for what is sampled).
   */
  readonly decompressNsPerJoint: number;
  readonly decompressSpread: readonly [number, number];
  /** The same by the wall clock (counts other jobs' slices on a shared machine). */
  readonly decompressNsPerJointWall: number;
  /** The uncompressed source sampled the same way in the same rounds (`sampleClip`), CPU ns per joint. */
  readonly sourceNsPerJoint: number;
  /** Median per-round ratio compressed ÷ source (CPU time), and its range. */
  readonly decompressVsSource: number;
  readonly decompressVsSourceSpread: readonly [number, number];
  /** The same with exact slerp between keys (`sampleCompressedClip`'s default: acos and sin per track). */
  readonly decompressNsPerJointSlerp: number;
  /** Seconds to compress a one-minute CMU clip (131_01 played forward and back to 66 s, 120 fps source) at 30 fps. */
  readonly oneMinuteSeconds: number;
  /** The CPU time of that compression (user + system): on a shared machine wall time also counts waiting for a core. */
  readonly oneMinuteCpuSeconds: number;
  /** Its ratio and largest error (mm). */
  readonly oneMinuteRatio: number;
  readonly oneMinuteMaxErrorMm: number;
}

/** The CMU takes of the figures, with their units (131: CMU's ASF unit; the pirouette: centimetres). */
export const CMU_TAKES: readonly { file: string; unitsPerMetre: number }[] = [
  { file: "bvh-cmu-131/131_01.bvh", unitsPerMetre: CMU_UNITS_PER_METRE },
  { file: "bvh-cmu-131/131_03.bvh", unitsPerMetre: CMU_UNITS_PER_METRE },
  { file: "bvh-cmu-pirouette/pirouette.bvh", unitsPerMetre: 100 },
];

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

/**
 * `clip` played forward, backward, forward … `passes` times as one clip (a long take without a jump;
 * keys on the source's uniform key spacing).
 */
function forwardAndBack(clip: Clip, passes: number): Clip {
  const tracks = clip.tracks.map((track) => {
    const n = track.times.length;
    const w = track.values.length / n;
    const dt = n > 1 ? (track.times[n - 1]! - track.times[0]!) / (n - 1) : 1 / 120;
    const times = new Float32Array(n * passes);
    const values = new Float32Array(track.values.length * passes);
    for (let r = 0; r < passes; r++) {
      for (let k = 0; k < n; k++) {
        const from = r % 2 === 0 ? k : n - 1 - k;
        times[r * n + k] = (r * n + k) * dt;
        for (let c = 0; c < w; c++) values[(r * n + k) * w + c] = track.values[from * w + c]!;
      }
    }
    return { joint: track.joint, path: track.path, interpolation: track.interpolation, stride: track.stride, times, values };
  });
  return createClip({ name: `${clip.name} forward and back ×${passes}`, skeleton: clip.skeleton, tracks });
}

/** Median and range of per-round figures. */
interface Spread {
  readonly median: number;
  readonly low: number;
  readonly high: number;
}

function spread(runs: number[]): Spread {
  return { median: median(runs), low: Math.min(...runs), high: Math.max(...runs) };
}

/** One frame of `characters` characters at out-of-phase times, each sampled by `sample` (one pose each). */
function crowdFrame(duration: number, characters: number, sample: (i: number, t: number) => void): (dt: number) => void {
  const times = Float64Array.from({ length: characters }, (_, i) => ((i * 0.7919) % 1) * duration);
  return (dt) => {
    for (let i = 0; i < characters; i++) {
      let t = times[i]! + dt;
      if (t > duration) t -= duration;
      times[i] = t;
      sample(i, t);
    }
  };
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * ns per joint for one pose of each of `characters` characters playing at 60 Hz, `rounds` rounds: the
 * compressed clip (`sampleCompressedClip`, one cursor per character) and, in the same rounds, its source
 * (`sampleClip`, one cursor each) as the peer. Each round is timed by the CPU clock of the process and the
 * wall clock; on a shared machine the wall clock also counts other jobs' slices, the CPU clock does not.
 * Rounds alternate which of the two goes first.
 */
function decompressSpeed(
  clip: CompressedClip, source: Clip, characters: number, rounds: number, quatMode: QuatInterpolation,
): { cpu: Spread; wall: Spread; sourceCpu: Spread; ratioCpu: Spread } {
  const J = clip.skeleton.jointCount;
  const pose = createPose(J);
  const cursors = Array.from({ length: characters }, () => createCompressedClipCursor(clip));
  const sourceCursors = Array.from({ length: characters }, () => createClipCursor(source));
  const compressedFrame = crowdFrame(clip.duration, characters, (i, t) => sampleCompressedClip(pose, clip, t, cursors[i]!, quatMode));
  const sourceFrame = crowdFrame(source.duration, characters, (i, t) => sampleClip(pose, source, t, sourceCursors[i]!, quatMode));
  for (let k = 0; k < 20; k++) {
    compressedFrame(1 / 60);
    sourceFrame(1 / 60);
  }
  const frames = 10;
  const perJoint = (ms: number): number => (ms * 1e6) / (frames * characters * J);
  const time = (frame: (dt: number) => void): { cpu: number; wall: number } => {
    const c0 = cpuMs();
    const t0 = performance.now();
    for (let k = 0; k < frames; k++) frame(1 / 60);
    return { wall: perJoint(performance.now() - t0), cpu: perJoint(cpuMs() - c0) };
  };
  const cpu: number[] = [], wall: number[] = [], sourceCpu: number[] = [], ratio: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const first = r % 2 === 0 ? time(compressedFrame) : time(sourceFrame);
    const second = r % 2 === 0 ? time(sourceFrame) : time(compressedFrame);
    const [c, src] = r % 2 === 0 ? [first, second] : [second, first];
    cpu.push(c.cpu);
    wall.push(c.wall);
    sourceCpu.push(src.cpu);
    ratio.push(c.cpu / src.cpu);
  }
  return { cpu: spread(cpu), wall: spread(wall), sourceCpu: spread(sourceCpu), ratioCpu: spread(ratio) };
}

export async function compressionFigures(rounds: number): Promise<CompressionFigures> {
  const cmuClips = CMU_TAKES.map(({ file, unitsPerMetre }) => {
    const { clip } = loadBvh(sharedAsset(file));
    if (!clip) throw new Error(`${file} did not load`);
    return { clip, unitsPerMetre };
  });
  const robot = await loadGltfFile(sharedAsset("robot-expressive/RobotExpressive.glb"));
  if (!robot.ok) throw new Error(`RobotExpressive.glb: ${JSON.stringify(robot.diagnostics)}`);
  const robotClips = robot.clips.filter((c) => c.skeleton === robot.skeletons[0]).map((clip) => ({ clip, unitsPerMetre: 1 }));
  const cmu = compressSet("CMU 131_01 + 131_03 + pirouette", cmuClips);
  const bot = compressSet("RobotExpressive (14 clips)", robotClips);
  const all: SetFigures = {
    name: "both", clips: cmu.figures.clips + bot.figures.clips,
    rawBytes: cmu.figures.rawBytes + bot.figures.rawBytes, compressedBytes: cmu.figures.compressedBytes + bot.figures.compressedBytes,
    ratio: (cmu.figures.rawBytes + bot.figures.rawBytes) / (cmu.figures.compressedBytes + bot.figures.compressedBytes),
    maxErrorMm: Math.max(cmu.figures.maxErrorMm, bot.figures.maxErrorMm), seconds: cmu.figures.seconds + bot.figures.seconds,
  };
  const forNlerp = compressClip(cmuClips[0]!.clip, { tolerance: TOLERANCE_M, virtualVertexDistance: SHELL_M, unitsPerMetre: CMU_UNITS_PER_METRE, sampleRate: RATE, quatMode: "nlerp" });
  if (!forNlerp.compressed) throw new Error(`131_01 for nlerp: ${JSON.stringify(forNlerp.diagnostics)}`);
  const speed = decompressSpeed(forNlerp.compressed, cmuClips[0]!.clip, 1000, rounds, "nlerp");
  const slerpSpeed = decompressSpeed(cmu.compressed[0]!, cmuClips[0]!.clip, 1000, rounds, "slerp");
  const minute = forwardAndBack(cmuClips[0]!.clip, Math.ceil(60 / cmuClips[0]!.clip.duration));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = compressClip(minute, { tolerance: TOLERANCE_M, virtualVertexDistance: SHELL_M, unitsPerMetre: CMU_UNITS_PER_METRE, sampleRate: RATE });
  const oneMinuteSeconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const oneMinuteCpuSeconds = (cpu.user + cpu.system) / 1e6;
  if (!r.compressed || !r.stats) throw new Error(`one-minute clip: ${JSON.stringify(r.diagnostics)}`);
  return {
    cmu: cmu.figures, robot: bot.figures, all, decompressNsPerJoint: speed.cpu.median, decompressSpread: [speed.cpu.low, speed.cpu.high],
    decompressNsPerJointWall: speed.wall.median, decompressVsSource: speed.ratioCpu.median, decompressVsSourceSpread: [speed.ratioCpu.low, speed.ratioCpu.high],
    sourceNsPerJoint: speed.sourceCpu.median, decompressNsPerJointSlerp: slerpSpeed.cpu.median,
    oneMinuteSeconds, oneMinuteCpuSeconds, oneMinuteRatio: r.stats.ratio, oneMinuteMaxErrorMm: r.stats.maxError * 1000,
  };
}

const f1 = (x: number): string => x.toFixed(1);
const f2 = (x: number): string => x.toFixed(2);
const mm = (x: number): string => x.toFixed(4);

/** The bench's table of the sets: one row each, then both together. */
export function compressionTable(c: CompressionFigures, note: string): string[] {
  const out = ["", `compression at 30 fps (${note})`, "", "| set | clips | raw bytes | compressed | ratio | max error mm | compress s |", "|---|---|---|---|---|---|---|"];
  for (const s of [c.cmu, c.robot, c.all]) out.push(`| ${s.name} | ${s.clips} | ${s.rawBytes} | ${s.compressedBytes} | ${f2(s.ratio)}:1 | ${mm(s.maxErrorMm)} | ${f2(s.seconds)} |`);
  return out;
}

/** The compression rows of the bench's targets table (`met` marks a row met or not). */
export function compressionTargetRows(c: CompressionFigures, met: (ok: boolean | null) => string): string[] {
  return [
    `| compression ratio at 30 fps, CMU + robot | ≥ 21.8:1 | ${f2(c.all.ratio)}:1 (CMU alone ${f2(c.cmu.ratio)}:1, max ${mm(c.cmu.maxErrorMm)} mm; robot ${f2(c.robot.ratio)}:1, max ${mm(c.robot.maxErrorMm)} mm) | ${met(c.all.ratio >= 21.8)}${c.cmu.ratio < 21.8 ? " (CMU alone not)" : ""} |`,
    `| max error at 30 fps, 1 m virtual vertices | ≤ 0.1 mm | ${mm(c.all.maxErrorMm)} mm | ${met(c.all.maxErrorMm <= 0.1)} |`,
    `| decompress one pose per character (1,000 characters, CMU 131_01, 60 Hz; nlerp between keys as ACL; CPU time) | ≤ 50 ns/joint | ${f1(c.decompressNsPerJoint)} (${f1(c.decompressSpread[0])}–${f1(c.decompressSpread[1])}) ns (wall ${f1(c.decompressNsPerJointWall)} ns); ${f2(c.decompressVsSource)}× (${f2(c.decompressVsSourceSpread[0])}–${f2(c.decompressVsSourceSpread[1])}) the uncompressed clip's ${f1(c.sourceNsPerJoint)} ns; exact slerp ${f1(c.decompressNsPerJointSlerp)} ns | ${met(c.decompressNsPerJoint <= 50)} |`,
    `| compress a 1-minute clip (131_01 played forward and back to 66 s) at 30 fps | < 2 s | ${f2(c.oneMinuteSeconds)} s (CPU ${f2(c.oneMinuteCpuSeconds)} s; ${f2(c.oneMinuteRatio)}:1, max ${mm(c.oneMinuteMaxErrorMm)} mm) | ${met(c.oneMinuteSeconds < 2 && c.oneMinuteMaxErrorMm <= 0.1)} |`,
  ];
}

/** The compression keys of the bench's JSON line (null when compression was skipped or failed). */
export function compressionJson(c: CompressionFigures | null): Record<string, number | null> {
  const r2 = (x: number): number => Math.round(x * 100) / 100;
  const r4 = (x: number): number => Number(x.toFixed(4));
  return {
    compressionRatio30fps: c ? r2(c.all.ratio) : null,
    compressionRatio30fpsCmu: c ? r2(c.cmu.ratio) : null,
    compressionRatio30fpsRobot: c ? r2(c.robot.ratio) : null,
    maxErrorMm30fps: c ? r4(c.all.maxErrorMm) : null,
    maxErrorMm30fpsCmu: c ? r4(c.cmu.maxErrorMm) : null,
    maxErrorMm30fpsRobot: c ? r4(c.robot.maxErrorMm) : null,
    decompressNsPerJoint: c ? r2(c.decompressNsPerJoint) : null,
    decompressNsPerJointSlerp: c ? r2(c.decompressNsPerJointSlerp) : null,
    decompressNsPerJointWall: c ? r2(c.decompressNsPerJointWall) : null,
    decompressVsUncompressed: c ? r2(c.decompressVsSource) : null,
    compressOneMinuteSeconds: c ? r2(c.oneMinuteSeconds) : null,
    compressOneMinuteCpuSeconds: c ? r2(c.oneMinuteCpuSeconds) : null,
    compressOneMinuteRatio: c ? r2(c.oneMinuteRatio) : null,
    compressOneMinuteMaxErrorMm: c ? r4(c.oneMinuteMaxErrorMm) : null,
  };
}
