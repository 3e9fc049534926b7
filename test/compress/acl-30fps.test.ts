// Compression at 30 fps with ACL's defaults (0.1 mm on virtual vertices 1 m from each joint, object
// space), the setting of `npm run bench`'s compression figures: the bound holds on the real clips,
// checked by test/compress/independent-error.ts (no code shared with src/compress) at every 30 fps
// frame, and on random smooth clips (property).
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
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

test("CMU 131_01 at 30 fps, 1 m virtual vertices: every frame within 0.1 mm (independent check), about 12:1", { skip: !HAVE_SHARED_ASSETS }, (t) => {
  const { clip } = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh"));
  assert.ok(clip);
  const result = compressClip(clip, { tolerance: TOLERANCE, virtualVertexDistance: SHELL, unitsPerMetre: CMU_UNITS_PER_METRE, sampleRate: RATE });
  assert.ok(result.compressed && result.stats);
  assert.ok(result.stats.maxError <= TOLERANCE, `compressor's own measure ${result.stats.maxError}`);
  const check = independentError(clip, result.compressed, gridTimes(clip.duration, RATE), SHELL * CMU_UNITS_PER_METRE);
  const mm = (check.max / CMU_UNITS_PER_METRE) * 1000;
  t.diagnostic(`ratio ${result.stats.ratio.toFixed(2)}:1, independent max ${mm.toFixed(4)} mm at joint ${check.worstJoint}`);
  assert.ok(check.max / CMU_UNITS_PER_METRE <= TOLERANCE * 1.001, `independent error ${mm} mm at joint ${check.worstJoint}, t = ${check.worstTime}`);
  assert.ok(result.stats.ratio > 10, `ratio ${result.stats.ratio}`);
});

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
