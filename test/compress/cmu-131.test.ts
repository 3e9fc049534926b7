import { test } from "node:test";
import assert from "node:assert/strict";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { compressClip } from "../../src/compress/compress-clip.ts";
import { createCompressedClipCursor, sampleCompressedClip } from "../../src/compress/sample-compressed-clip.ts";
import { createPose } from "../../src/pose/pose.ts";
import { decompressClip } from "../../src/compress/decompress-clip.ts";
import { loadBvh } from "../../src/io/bvh/load-bvh.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";
import { independentError, random } from "./independent-error.ts";

// CMU's ASF length unit is 1/0.45 inch = 5.644 cm, which the cgspeed BVH conversion keeps: 17.72 units/m.
const UNITS_PER_METRE = 1 / (2.54 / 0.45 / 100);
const TOLERANCE = 1e-4;

for (const name of ["131_01", "131_03"]) {
  test(`${name}.bvh: every joint within 0.1 mm at grid frames and at 1000 random times`, { skip: !HAVE_SHARED_ASSETS }, () => {
    const { clip } = loadBvh(sharedAsset(`bvh-cmu-131/${name}.bvh`));
    assert.ok(clip);
    const before = clip.tracks.map((t) => Float32Array.from(t.values));
    const result = compressClip(clip, { tolerance: TOLERANCE, unitsPerMetre: UNITS_PER_METRE });
    assert.ok(result.compressed && result.stats);
    const stats = result.stats;
    assert.ok(stats.maxError <= TOLERANCE, `max error ${stats.maxError} m`);
    assert.ok(stats.meanError < stats.maxError);
    // The target (issue 6): at least 20:1 at the take's own 120 Hz with every joint within 0.1 mm.
    assert.ok(stats.ratio >= 20, `ratio ${stats.ratio.toFixed(2)}:1`);
    const rnd = random(131);
    const times = Array.from({ length: 1000 }, () => rnd() * clip.duration);
    const check = independentError(clip, result.compressed, times, 0.03 * UNITS_PER_METRE);
    assert.ok(check.max / UNITS_PER_METRE <= TOLERANCE, `independent error ${check.max / UNITS_PER_METRE} m at joint ${check.worstJoint}`);
    // The input clip is untouched.
    clip.tracks.forEach((t, i) => assert.deepEqual(t.values, before[i]));
    // The decompressed clip, sampled by sampleClip, is the compressed clip (up to float32 key times).
    const back = decompressClip(result.compressed);
    const same = independentError(back, result.compressed, times.slice(0, 200), 0.03 * UNITS_PER_METRE);
    // Key times become float32 seconds (≈ 0.5 µs ulp at 9 s), so allow a few micrometres.
    assert.ok(same.max / UNITS_PER_METRE < 1e-5, `decompressed differs by ${same.max / UNITS_PER_METRE} m`);
  });
}

for (const name of ["131_01", "131_03"]) {
  test(`${name}.bvh resampled to 24 fps: every joint within 0.1 mm of the 24 fps reference (checked independently)`, { skip: !HAVE_SHARED_ASSETS }, () => {
    const { clip } = loadBvh(sharedAsset(`bvh-cmu-131/${name}.bvh`));
    assert.ok(clip);
    const result = compressClip(clip, { tolerance: TOLERANCE, unitsPerMetre: UNITS_PER_METRE, sampleRate: 24 });
    assert.ok(result.compressed && result.stats);
    const stats = result.stats;
    assert.equal(stats.sampleRate, 24);
    assert.equal(stats.rawBytes, 40 * 31 * stats.frameCount);
    assert.ok(stats.maxError <= TOLERANCE, `max error ${stats.maxError} m`);
    // The like-for-like figure with ACL's 19.8:1 on CMU at 24 fps (docs/compression.md: about 14:1 on
    // these energetic takes), asserted near the level reached so a regression shows.
    assert.ok(stats.ratio >= 13.5, `ratio ${stats.ratio.toFixed(2)}:1`);
    // The 24 fps reference is the source at the grid's times: compare there, without src/compress.
    const grid = Array.from({ length: stats.frameCount }, (_, f) => Math.min(f / 24, clip.duration));
    const check = independentError(clip, result.compressed, grid, 0.03 * UNITS_PER_METRE);
    assert.ok(check.max / UNITS_PER_METRE <= TOLERANCE, `independent error ${check.max / UNITS_PER_METRE} m at joint ${check.worstJoint}`);
  });
}

// A guard against gross regressions (a per-call search, an allocation), not the figure: bench/compress.ts
// measures a median ~1.25× at 60 Hz and ~1.0× on random access; with other jobs on the machine (the test
// runner runs two files at once) the bit arithmetic of decoding suffers more than the plain sampler's
// loads, and single runs have reached 2.1×.
test("sampling compressed 131_01 stays near the uncompressed clip's cost (generous bound)", { skip: !HAVE_SHARED_ASSETS }, () => {
  const { clip } = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh"));
  assert.ok(clip);
  const { compressed } = compressClip(clip, { tolerance: TOLERANCE, unitsPerMetre: UNITS_PER_METRE });
  assert.ok(compressed);
  const pose = createPose(clip.skeleton.jointCount);
  const c1 = createClipCursor(clip);
  const c2 = createCompressedClipCursor(compressed);
  const samplers = [(t: number) => sampleClip(pose, clip, t, c1), (t: number) => sampleCompressedClip(pose, compressed, t, c2)];
  for (const [what, dt] of [["60 Hz playback", 1 / 60], ["random access", 0.37 * clip.duration]] as const) {
    const best = [Infinity, Infinity];
    for (let run = 0; run < 8; run++) {
      samplers.forEach((sample, s) => {
        let t = 0;
        const t0 = performance.now();
        for (let i = 0; i < 3000; i++) {
          sample(t);
          t = (t + dt) % clip.duration;
        }
        best[s] = Math.min(best[s]!, performance.now() - t0);
      });
    }
    assert.ok(best[1]! <= 3 * best[0]!, `${what}: compressed ${best[1]!.toFixed(2)} ms vs source ${best[0]!.toFixed(2)} ms`);
  }
});
