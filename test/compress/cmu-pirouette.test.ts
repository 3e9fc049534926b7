import { test } from "node:test";
import assert from "node:assert/strict";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { compressClip } from "../../src/compress/compress-clip.ts";
import { createCompressedClipCursor, sampleCompressedClip } from "../../src/compress/sample-compressed-clip.ts";
import { loadBvh } from "../../src/io/bvh/load-bvh.ts";
import { createPose } from "../../src/pose/pose.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";
import { independentError, random } from "./independent-error.ts";

// pirouette.bvh is a Poser-style CMU conversion in centimetres (hips 85 cm above the floor).
const UNITS_PER_METRE = 100;
const TOLERANCE = 1e-4; // 0.1 mm

test("pirouette.bvh: every joint within 0.1 mm at 1000 random times, ratio ≥ 20:1", { skip: !HAVE_SHARED_ASSETS }, () => {
  const { clip } = loadBvh(sharedAsset("bvh-cmu-pirouette/pirouette.bvh"));
  assert.ok(clip);
  const result = compressClip(clip, { tolerance: TOLERANCE, unitsPerMetre: UNITS_PER_METRE });
  assert.ok(result.compressed && result.stats);
  assert.equal(result.diagnostics.filter((d) => d.severity !== "info").length, 0);
  const stats = result.stats;
  assert.ok(stats.maxError <= TOLERANCE, `max error ${stats.maxError} m`);
  assert.equal(stats.rawBytes, 40 * 43 * 592);
  assert.ok(stats.ratio >= 20, `ratio ${stats.ratio.toFixed(2)}:1`);
  const rnd = random(7);
  const times = Array.from({ length: 1000 }, () => rnd() * clip.duration);
  const check = independentError(clip, result.compressed, times, 0.03 * UNITS_PER_METRE);
  assert.ok(check.max / UNITS_PER_METRE <= TOLERANCE, `independent error ${check.max / UNITS_PER_METRE} m at joint ${check.worstJoint}, t = ${check.worstTime}`);
});

test("pirouette.bvh resampled to 24 fps stays within 0.1 mm of the 24 fps reference", { skip: !HAVE_SHARED_ASSETS }, () => {
  const { clip } = loadBvh(sharedAsset("bvh-cmu-pirouette/pirouette.bvh"));
  assert.ok(clip);
  const result = compressClip(clip, { tolerance: TOLERANCE, unitsPerMetre: UNITS_PER_METRE, sampleRate: 24 });
  assert.ok(result.compressed && result.stats);
  assert.equal(result.stats.frameCount, 120);
  assert.equal(result.stats.rawBytes, 40 * 43 * 120);
  assert.ok(result.stats.maxError <= TOLERANCE);
  assert.ok(result.diagnostics.some((d) => d.code === "W_COMPRESS_OFF_GRID"), "120 fps keys are off a 24 fps grid");
});

test("sampling the compressed pirouette is not much slower than sampling the source (generous bound; bench/compress.ts measures)", { skip: !HAVE_SHARED_ASSETS }, () => {
  const { clip } = loadBvh(sharedAsset("bvh-cmu-pirouette/pirouette.bvh"));
  assert.ok(clip);
  const { compressed } = compressClip(clip, { tolerance: TOLERANCE, unitsPerMetre: UNITS_PER_METRE });
  assert.ok(compressed);
  const pose = createPose(clip.skeleton.jointCount);
  const c1 = createClipCursor(clip);
  const c2 = createCompressedClipCursor(compressed);
  const best = [Infinity, Infinity];
  const samplers = [(t: number) => sampleClip(pose, clip, t, c1), (t: number) => sampleCompressedClip(pose, compressed, t, c2)];
  for (let run = 0; run < 8; run++) {
    samplers.forEach((sample, s) => {
      const t0 = performance.now();
      for (let i = 0; i < 3000; i++) sample((i / 60) % clip.duration);
      best[s] = Math.min(best[s]!, performance.now() - t0);
    });
  }
  assert.ok(best[1]! <= 3 * best[0]!, `compressed ${best[1]!.toFixed(2)} ms vs source ${best[0]!.toFixed(2)} ms`);
});
