// Compression figures on the bundled CMU takes (ACL's metric: virtual vertices 3 cm from each joint,
// model space; raw = 40 bytes × joints × frames) and sampling speed, compressed vs uncompressed.
// Run: node --import tsx bench/compress.ts
import { createClipCursor } from "../src/clip/clip-cursor.ts";
import type { Clip } from "../src/clip/clip.ts";
import { sampleClip } from "../src/clip/sample-clip.ts";
import { compressClip } from "../src/compress/compress-clip.ts";
import type { CompressedClip } from "../src/compress/compressed-clip.ts";
import { createCompressedClipCursor, sampleCompressedClip } from "../src/compress/sample-compressed-clip.ts";
import { loadBvh } from "../src/io/bvh/index.ts";
import { createPose } from "../src/pose/pose.ts";
import { sharedAsset } from "../test/helpers/assets.ts";

const TAKES = [
  { file: "bvh-cmu-131/131_01.bvh", unitsPerMetre: 1 / (2.54 / 0.45 / 100) }, // CMU ASF unit: 1/0.45 inch
  { file: "bvh-cmu-131/131_03.bvh", unitsPerMetre: 1 / (2.54 / 0.45 / 100) },
  { file: "bvh-cmu-pirouette/pirouette.bvh", unitsPerMetre: 100 }, // centimetres
];

/** ns per sample of each sampler: `steps` samples at times advancing by `dt` (wrapping); the two
 * samplers alternate run by run (so machine load hits both alike) and the fastest of 15 runs counts. */
function timeSamplers(samplers: ((t: number) => void)[], duration: number, dt: number, steps: number): number[] {
  const best = samplers.map(() => Infinity);
  for (let r = 0; r < 15; r++) {
    samplers.forEach((sample, s) => {
      let t = 0;
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < steps; i++) {
        sample(t);
        t += dt;
        if (t > duration) t -= duration;
      }
      best[s] = Math.min(best[s]!, Number(process.hrtime.bigint() - t0) / steps);
    });
  }
  return best;
}

function speed(clip: Clip, compressed: CompressedClip): { plain: number; packed: number; plainJump: number; packedJump: number } {
  const pose = createPose(clip.skeleton.jointCount);
  const c1 = createClipCursor(clip);
  const c2 = createCompressedClipCursor(compressed);
  const plainSample = (t: number): void => void sampleClip(pose, clip, t, c1);
  const packedSample = (t: number): void => void sampleCompressedClip(pose, compressed, t, c2);
  const d = clip.duration;
  // Playback at 60 Hz, and random access (a jump of 0.37 × the duration each call).
  const [plain, packed] = timeSamplers([plainSample, packedSample], d, 1 / 60, 10000) as [number, number];
  const [plainJump, packedJump] = timeSamplers([plainSample, packedSample], d, 0.37 * d, 10000) as [number, number];
  return { plain, packed, plainJump, packedJump };
}

const mm = (m: number): string => (m * 1000).toFixed(4);
console.log("take          rate  joints frames  raw bytes  packed  ratio    max mm  mean mm  worst joint    compress s  sample ns (plain / packed / ×)  random access ns (plain / packed / ×)");
for (const take of TAKES) {
  const { clip } = loadBvh(sharedAsset(take.file));
  if (!clip) throw new Error(`${take.file} did not load`);
  for (const rate of [undefined, 24]) {
    const t0 = performance.now();
    const result = compressClip(clip, { tolerance: 1e-4, unitsPerMetre: take.unitsPerMetre, ...(rate ? { sampleRate: rate } : {}) });
    const seconds = (performance.now() - t0) / 1000;
    const s = result.stats!;
    const sp = rate ? undefined : speed(clip, result.compressed!);
    console.log(
      `${s.clip.padEnd(12)} ${s.sampleRate.toFixed(0).padStart(5)} ${String(s.jointCount).padStart(7)} ${String(s.frameCount).padStart(6)} ${String(s.rawBytes).padStart(10)} ${String(s.compressedBytes).padStart(7)} ${s.ratio.toFixed(2).padStart(6)}:1 ${mm(s.maxError).padStart(8)} ${mm(s.meanError).padStart(8)}  ${s.worstJoint.padEnd(13)} ${seconds.toFixed(2).padStart(10)}` +
        (sp ? `  ${sp.plain.toFixed(0)} / ${sp.packed.toFixed(0)} / ${(sp.packed / sp.plain).toFixed(2)}           ${sp.plainJump.toFixed(0)} / ${sp.packedJump.toFixed(0)} / ${(sp.packedJump / sp.plainJump).toFixed(2)}` : ""),
    );
  }
}
