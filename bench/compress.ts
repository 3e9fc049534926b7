// Compression figures on the bundled CMU takes (ACL's metric: virtual vertices 3 cm from each joint,
// model space; raw = 40 bytes × joints × frames) and sampling speed, compressed vs uncompressed.
// Run: node --import tsx bench/compress.ts [--quick]
// Speeds are medians over alternating rounds (the machine is shared and noisy): each round times the
// uncompressed and the compressed sampler back to back and the ratio of that round counts.
import { createClipCursor } from "../src/clip/clip-cursor.ts";
import type { Clip } from "../src/clip/clip.ts";
import { sampleClip } from "../src/clip/sample-clip.ts";
import { compressClip } from "../src/compress/compress-clip.ts";
import type { CompressedClip } from "../src/compress/compressed-clip.ts";
import { createCompressedClipCursor, sampleCompressedClip } from "../src/compress/sample-compressed-clip.ts";
import { loadBvh } from "../src/io/bvh/load-bvh.ts";
import { createPose } from "../src/pose/pose.ts";
import { sharedAsset } from "../test/helpers/assets.ts";
import { independentError, random } from "../test/compress/independent-error.ts";

const QUICK = process.argv.includes("--quick");
const ROUNDS = QUICK ? 5 : 15;
const CMU_UNITS = 1 / (2.54 / 0.45 / 100); // CMU ASF unit: 1/0.45 inch
const TAKES = [
  { file: "bvh-cmu-131/131_01.bvh", unitsPerMetre: CMU_UNITS },
  { file: "bvh-cmu-131/131_03.bvh", unitsPerMetre: CMU_UNITS },
  { file: "bvh-cmu-pirouette/pirouette.bvh", unitsPerMetre: 100 }, // centimetres
];

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

interface Speed {
  /** Median ns per pose, uncompressed and compressed, and the median and range of the per-round ratio. */
  plain: number;
  packed: number;
  ratio: number;
  low: number;
  high: number;
}

/** Times both samplers over `steps` calls at times advancing by `dt` (wrapping), alternating, ROUNDS rounds. */
function timeSamplers(plain: (t: number) => void, packed: (t: number) => void, duration: number, dt: number, steps: number): Speed {
  const run = (sample: (t: number) => void): number => {
    let t = 0;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < steps; i++) {
      sample(t);
      t += dt;
      if (t > duration) t -= duration;
    }
    return Number(process.hrtime.bigint() - t0) / steps;
  };
  run(plain);
  run(packed);
  const a: number[] = [], b: number[] = [], r: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const x = run(plain);
    const y = run(packed);
    a.push(x);
    b.push(y);
    r.push(y / x);
  }
  return { plain: median(a), packed: median(b), ratio: median(r), low: Math.min(...r), high: Math.max(...r) };
}

function speeds(clip: Clip, compressed: CompressedClip): Record<string, Speed> {
  const pose = createPose(clip.skeleton.jointCount);
  const c1 = createClipCursor(clip);
  const c2 = createCompressedClipCursor(compressed);
  const plain = (t: number): void => void sampleClip(pose, clip, t, c1);
  const packed = (t: number): void => void sampleCompressedClip(pose, compressed, t, c2);
  const d = clip.duration;
  const steps = QUICK ? 3000 : 10000;
  return {
    "30 Hz": timeSamplers(plain, packed, d, 1 / 30, steps),
    "60 Hz": timeSamplers(plain, packed, d, 1 / 60, steps),
    "144 Hz": timeSamplers(plain, packed, d, 1 / 144, steps),
    // Random access: a jump of 0.37 × the duration each call.
    random: timeSamplers(plain, packed, d, 0.37 * d, steps),
  };
}

const mm = (m: number): string => (m * 1000).toFixed(4);
const fmt = (s: Speed): string => `${s.plain.toFixed(0)}/${s.packed.toFixed(0)} ${s.ratio.toFixed(2)}× (${s.low.toFixed(2)}–${s.high.toFixed(2)})`;

/** Bytes of a clip's key times and values in memory (typed arrays shared between tracks counted once). */
function clipBytes(clip: Clip): number {
  const seen = new Set<ArrayBufferLike>();
  let n = 0;
  for (const t of clip.tracks) {
    for (const a of [t.times, t.values]) {
      if (seen.has(a.buffer)) continue;
      seen.add(a.buffer);
      n += a.buffer.byteLength;
    }
  }
  return n;
}

console.log("take          rate  joints frames  raw bytes  packed   ratio   max mm  mean mm  random-time mm  worst joint    memory  compress s");
const speedRows: string[] = [];
const sourceRows: string[] = [];
for (const take of TAKES) {
  const { clip } = loadBvh(sharedAsset(take.file));
  if (!clip) throw new Error(`${take.file} did not load`);
  sourceRows.push(`${clip.name.padEnd(12)} ${String(clipBytes(clip)).padStart(9)}`);
  for (const rate of [undefined, 24]) {
    const t0 = performance.now();
    const result = compressClip(clip, { tolerance: 1e-4, unitsPerMetre: take.unitsPerMetre, ...(rate ? { sampleRate: rate } : {}) });
    const seconds = (performance.now() - t0) / 1000;
    const s = result.stats!;
    // The independent check of the tests: 1,000 random times at the take's own rate (between grid frames).
    let independent = "";
    if (!rate) {
      const rnd = random(1);
      const times = Array.from({ length: 1000 }, () => rnd() * clip.duration);
      independent = mm(independentError(clip, result.compressed!, times, 0.03 * take.unitsPerMetre).max / take.unitsPerMetre);
    }
    console.log(
      `${s.clip.padEnd(12)} ${s.sampleRate.toFixed(0).padStart(5)} ${String(s.jointCount).padStart(7)} ${String(s.frameCount).padStart(6)} ${String(s.rawBytes).padStart(10)} ${String(s.compressedBytes).padStart(7)} ${s.ratio.toFixed(2).padStart(6)}:1 ${mm(s.maxError).padStart(8)} ${mm(s.meanError).padStart(8)}  ${independent.padStart(14)}  ${s.worstJoint.padEnd(13)} ${String(s.runtimeBytes).padStart(7)} ${seconds.toFixed(2).padStart(10)}`,
    );
    if (!rate) {
      const sp = speeds(clip, result.compressed!);
      speedRows.push(`${s.clip.padEnd(12)} ${Object.values(sp).map(fmt).join("  ")}`);
    }
  }
}
console.log("\nthe uncompressed clips' key times and values in memory (bytes):");
for (const row of sourceRows) console.log(row);
console.log("\nsampling ns per pose, uncompressed / compressed, median ratio (range over rounds):");
console.log(`take         ${["30 Hz playback", "60 Hz playback", "144 Hz playback", "random access"].map((h) => h.padEnd(27)).join(" ")}`);
for (const row of speedRows) console.log(row);

// The coarse-key spacing trades size against the decoded table held in memory (131_01, own rate).
if (!QUICK) {
  const { clip } = loadBvh(sharedAsset(TAKES[0]!.file));
  console.log("\n131_01 by coarse key spacing: shift  packed  ratio  memory  60 Hz ratio  random ratio");
  for (const coarseShift of [1, 2, 3, 4]) {
    const result = compressClip(clip!, { tolerance: 1e-4, unitsPerMetre: CMU_UNITS, coarseShift });
    const s = result.stats!;
    const sp = speeds(clip!, result.compressed!);
    console.log(`${String(coarseShift).padStart(39)} ${String(s.compressedBytes).padStart(7)} ${s.ratio.toFixed(2).padStart(6)} ${String(s.runtimeBytes).padStart(7)} ${sp["60 Hz"]!.ratio.toFixed(2).padStart(12)} ${sp.random!.ratio.toFixed(2).padStart(13)}`);
  }
}
