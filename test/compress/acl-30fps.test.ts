// Compression at 30 fps with ACL's defaults (0.1 mm on virtual vertices 1 m from each joint, object
// space), the setting of `npm run bench`'s compression figures: the bound holds on the real clips,
// checked by test/compress/independent-error.ts (no code shared with src/compress) at every 30 fps
// frame, and on random smooth clips (property).
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { createClip, type Clip } from "../../src/clip/clip.ts";
import { compressClip } from "../../src/compress/compress-clip.ts";
import { loadBvh } from "../../src/io/bvh/load-bvh.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";
import { independentError } from "./independent-error.ts";
import { syntheticClip } from "./synthetic-clip.ts";

const TOLERANCE = 1e-4;
const SHELL = 1;
const RATE = 30;
const CMU_UNITS_PER_METRE = 1 / (2.54 / 0.45 / 100);

/** The grid's frame times (the resampled reference is the source sampled exactly there). */
function gridTimes(duration: number, rate: number): number[] {
  const n = Math.floor(duration * rate + 1e-6) + 1;
  return Array.from({ length: n }, (_, k) => Math.min(duration, k / rate));
}

const CMU_TAKES: readonly [string, number][] = [
  ["bvh-cmu-131/131_01.bvh", CMU_UNITS_PER_METRE],
  ["bvh-cmu-131/131_03.bvh", CMU_UNITS_PER_METRE],
  // Poser-style conversion, in centimetres.
  ["bvh-cmu-pirouette/pirouette.bvh", 100],
];

for (const [file, unitsPerMetre] of CMU_TAKES) {
  test(`CMU ${file} at 30 fps, 1 m virtual vertices: every frame within 0.1 mm (independent check)`, { skip: !HAVE_SHARED_ASSETS }, (t) => {
    const { clip } = loadBvh(sharedAsset(file));
    assert.ok(clip);
    const result = compressClip(clip, { tolerance: TOLERANCE, virtualVertexDistance: SHELL, unitsPerMetre, sampleRate: RATE });
    assert.ok(result.compressed && result.stats);
    assert.ok(result.stats.maxError <= TOLERANCE, `compressor's own measure ${result.stats.maxError}`);
    const check = independentError(clip, result.compressed, gridTimes(clip.duration, RATE), SHELL * unitsPerMetre);
    const mm = (check.max / unitsPerMetre) * 1000;
    t.diagnostic(`ratio ${result.stats.ratio.toFixed(2)}:1, independent max ${mm.toFixed(4)} mm at joint ${check.worstJoint}`);
    assert.ok(check.max / unitsPerMetre <= TOLERANCE * 1.001, `independent error ${mm} mm at joint ${check.worstJoint}, t = ${check.worstTime}`);
    assert.ok(result.stats.ratio > 10, `ratio ${result.stats.ratio}`);
  });
}

test("CMU 131_01 played twice with a jump at the seam, 30 fps, 1 m virtual vertices: within 0.1 mm (no budget collapse)", { skip: !HAVE_SHARED_ASSETS }, (t) => {
  // At the seam every joint jumps from the last pose to the first within one 30 fps frame. The
  // second-difference prediction of the next coarse key overshoots, and for the toes its largest
  // component is near 0 in the key: restored by √(1 − a² − b² − c²) it stayed wrong at any step, so
  // the budgets of every chain shrank until the steps underflowed (error 4.5 m before format 4).
  const { clip } = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh"));
  assert.ok(clip);
  const twice = repeated(clip, 2);
  const result = compressClip(twice, { tolerance: TOLERANCE, virtualVertexDistance: SHELL, unitsPerMetre: CMU_UNITS_PER_METRE, sampleRate: RATE });
  assert.ok(result.compressed && result.stats);
  const check = independentError(twice, result.compressed, gridTimes(twice.duration, RATE), SHELL * CMU_UNITS_PER_METRE);
  t.diagnostic(`ratio ${result.stats.ratio.toFixed(2)}:1, max ${((check.max / CMU_UNITS_PER_METRE) * 1000).toFixed(4)} mm`);
  assert.ok(result.stats.maxError <= TOLERANCE, `compressor's own measure ${result.stats.maxError}`);
  assert.ok(check.max / CMU_UNITS_PER_METRE <= TOLERANCE * 1.001, `independent ${check.max} at joint ${check.worstJoint}, t = ${check.worstTime}`);
  assert.ok(result.stats.ratio > 10, `ratio ${result.stats.ratio}`);
});

/** `clip` played `repeats` times back to back (each copy's keys shifted by its duration and one source frame). */
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

test("RobotExpressive's clips at 30 fps, 1 m virtual vertices: every frame within 0.1 mm (independent check)", { skip: !HAVE_SHARED_ASSETS }, async (t) => {
  const robot = await loadGltfFile(sharedAsset("robot-expressive/RobotExpressive.glb"));
  assert.ok(robot.ok);
  const lines: string[] = [];
  for (const clip of robot.clips.filter((c) => c.skeleton === robot.skeletons[0])) {
    const result = compressClip(clip, { tolerance: TOLERANCE, virtualVertexDistance: SHELL, sampleRate: RATE });
    assert.ok(result.compressed && result.stats, clip.name);
    const check = independentError(clip, result.compressed, gridTimes(clip.duration, RATE), SHELL);
    lines.push(`${clip.name} ${result.stats.ratio.toFixed(1)}:1 ${(check.max * 1000).toFixed(4)} mm`);
    // Keyed at 24–30 fps: the reference at each 30 fps frame is the source sampled there.
    assert.ok(check.max <= TOLERANCE * 1.001, `${clip.name}: ${check.max} m at joint ${check.worstJoint}, t = ${check.worstTime}`);
    assert.ok(result.stats.maxError <= TOLERANCE, `${clip.name}: compressor's own measure ${result.stats.maxError}`);
  }
  t.diagnostic(lines.join("; "));
});

test("random smooth clips at 24 or 30 fps, 3 cm or 1 m virtual vertices: the compressor's bound holds at every grid frame (property)", () => {
  fc.assert(
    fc.property(fc.constantFrom(24, 30), fc.constantFrom(0.03, 1), fc.constantFrom(30, 60, 120), fc.boolean(), (rate, shell, fps, spin) => {
      const clip = syntheticClip({ fps, seconds: 1, spin });
      const result = compressClip(clip, { tolerance: TOLERANCE, virtualVertexDistance: shell, sampleRate: rate });
      assert.ok(result.compressed && result.stats);
      assert.ok(result.stats.maxError <= TOLERANCE, `own measure ${result.stats.maxError}`);
      if (fps % rate === 0) {
        // On the source's own keys the grid frames are the source's frames: checked independently.
        const check = independentError(clip, result.compressed, gridTimes(clip.duration, rate), shell);
        assert.ok(check.max <= TOLERANCE * 1.001, `independent ${check.max} at joint ${check.worstJoint}, t = ${check.worstTime}`);
      }
    }),
    { numRuns: 12 },
  );
});
