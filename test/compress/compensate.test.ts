// Hierarchical error compensation (src/compress/compensate.ts): a compensated child, composed with its
// parent as decoded, lands where the reference has it in model space; the lever arms follow the
// compensating joints; on a real take it makes the clip smaller within the same bound.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { compensatedLevers, compensateRotation, compensateTranslation, hasUnitScale } from "../../src/compress/compensate.ts";
import { createClip } from "../../src/clip/clip.ts";
import { compressClip } from "../../src/compress/compress-clip.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";
import { createFrameSequence } from "../../src/compress/virtual-vertex-error.ts";
import { loadBvh } from "../../src/io/bvh/load-bvh.ts";
import { quatMultiply } from "../../src/math/quat.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";
import { independentError } from "./independent-error.ts";

const unitQuat = fc
  .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 0.01)
  .map(([x, y, z, w]) => {
    const n = Math.hypot(x, y, z, w);
    return [x / n, y / n, z / n, w / n] as const;
  });
const vec = fc.tuple(fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: -5, max: 5, noNaN: true }));

/** A rigid 3 × 4 transform (column-major rotation, then translation) into m[o …], as virtual-vertex-error.ts lays them out. */
function setTransform(m: Float64Array, o: number, q: readonly number[], p: readonly number[]): void {
  const [x, y, z, w] = q as [number, number, number, number];
  m[o] = 1 - 2 * (y * y + z * z); m[o + 1] = 2 * (x * y + w * z); m[o + 2] = 2 * (x * z - w * y);
  m[o + 3] = 2 * (x * y - w * z); m[o + 4] = 1 - 2 * (x * x + z * z); m[o + 5] = 2 * (y * z + w * x);
  m[o + 6] = 2 * (x * z + w * y); m[o + 7] = 2 * (y * z - w * x); m[o + 8] = 1 - 2 * (x * x + y * y);
  m[o + 9] = p[0]!; m[o + 10] = p[1]!; m[o + 11] = p[2]!;
}

test("compensateRotation: the decoded parent times the target is the reference model rotation, in the reference's hemisphere (property)", () => {
  fc.assert(
    fc.property(unitQuat, unitQuat, unitQuat, (parent, child, refLocal) => {
      // Two joints (0 the parent, 1 the child), one frame.
      const cand = new Float64Array(24);
      const ref = new Float64Array(24);
      setTransform(cand, 0, parent, [0, 0, 0]);
      setTransform(ref, 12, child, [0, 0, 0]);
      const out = new Float64Array(4);
      compensateRotation(out, Float64Array.from(refLocal), ref, cand, 2, 1, 0, 0, 1);
      assert.ok(Math.abs(Math.hypot(out[0]!, out[1]!, out[2]!, out[3]!) - 1) < 1e-12);
      // At the hemisphere's edge (out ⟂ refLocal) both signs are right and this sum's rounding picks one:
      // fast-check found out · refLocal = −5.6e-17 (FC_SEED=990333413).
      assert.ok(out[0]! * refLocal[0] + out[1]! * refLocal[1] + out[2]! * refLocal[2] + out[3]! * refLocal[3] >= -1e-12);
      const composed = quatMultiply(new Float64Array(4), 0, Float64Array.from(parent), 0, out, 0);
      const dot = composed[0]! * child[0] + composed[1]! * child[1] + composed[2]! * child[2] + composed[3]! * child[3];
      assert.ok(Math.abs(Math.abs(dot) - 1) < 1e-12, `|dot| ${Math.abs(dot)}`);
    }),
  );
});

test("compensateTranslation: the decoded parent's position plus its rotation of the target is the reference position (property)", () => {
  fc.assert(
    fc.property(unitQuat, vec, vec, (parent, parentPos, childPos) => {
      const cand = new Float64Array(24);
      const ref = new Float64Array(24);
      setTransform(cand, 0, parent, parentPos);
      setTransform(ref, 12, [0, 0, 0, 1], childPos);
      const t = new Float64Array(3);
      compensateTranslation(t, ref, cand, 2, 1, 0, 0, 1);
      for (let r = 0; r < 3; r++) {
        const world = cand[9 + r]! + cand[r]! * t[0]! + cand[3 + r]! * t[1]! + cand[6 + r]! * t[2]!;
        assert.ok(Math.abs(world - childPos[r]!) < 1e-9, `row ${r}: ${world} vs ${childPos[r]!}`);
      }
    }),
  );
});

test("compensatedLevers: below a compensating joint only its position counts; without one, distance plus the vertex distance", () => {
  // A straight chain 0 → 1 → 2 along x, 1 apart, one frame; vertex distance 0.5.
  const model = new Float64Array(36);
  for (let j = 0; j < 3; j++) setTransform(model, 12 * j, [0, 0, 0, 1], [j, 0, 0]);
  const parents = Int16Array.from([-1, 0, 1]);
  const none = compensatedLevers(model, parents, 3, 1, 0.5, new Uint8Array(3));
  assert.deepEqual(Array.from(none), [2.5, 1.5, 0.5]);
  // Joint 1 compensates: joint 0's error moves joint 1 (and 2 with it) by 1 × θ, orientations restored.
  const middle = compensatedLevers(model, parents, 3, 1, 0.5, Uint8Array.from([0, 1, 0]));
  assert.deepEqual(Array.from(middle), [1, 1.5, 0.5]);
  // Joint 2 compensates: joint 0 sees joint 1 at 1 + 0.5 and joint 2's position at 2.
  const leaf = compensatedLevers(model, parents, 3, 1, 0.5, Uint8Array.from([0, 0, 1]));
  assert.deepEqual(Array.from(leaf), [2, 1, 0.5]);
});

test("hasUnitScale: float noise around 1 passes, a real scale does not", () => {
  const seq = createFrameSequence(2, 3);
  seq.s.fill(1);
  seq.s[4] = 1.000016;
  assert.equal(hasUnitScale(seq), true);
  seq.s[4] = 1.01;
  assert.equal(hasUnitScale(seq), false);
});

test("CMU 131_01 at 30 fps, 1 m virtual vertices: compensation makes the clip smaller, both within 0.1 mm at every frame (independent check)", { skip: !HAVE_SHARED_ASSETS }, (t) => {
  const { clip } = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh"));
  assert.ok(clip);
  const upm = 1 / (2.54 / 0.45 / 100);
  const options = { tolerance: 1e-4, virtualVertexDistance: 1, unitsPerMetre: upm, sampleRate: 30 };
  const on = compressClip(clip, options);
  const off = compressClip(clip, { ...options, compensate: false });
  assert.ok(on.compressed && on.stats && off.compressed && off.stats);
  t.diagnostic(`compensated ${on.stats.compressedBytes} bytes (${on.stats.ratio.toFixed(2)}:1), not ${off.stats.compressedBytes} (${off.stats.ratio.toFixed(2)}:1)`);
  assert.ok(on.stats.compressedBytes < 0.96 * off.stats.compressedBytes, `${on.stats.compressedBytes} vs ${off.stats.compressedBytes}`);
  // The grid's frames: between them a 30 fps clip cannot follow the 120 fps source, compressed or not.
  const times = Array.from({ length: Math.floor(clip.duration * 30 + 1e-6) + 1 }, (_, k) => Math.min(clip.duration, k / 30));
  for (const result of [on, off]) {
    assert.ok(result.stats!.maxError <= 1e-4);
    const check = independentError(clip, result.compressed!, times, upm);
    assert.ok(check.max / upm <= 1e-4, `independent ${((check.max / upm) * 1000).toFixed(4)} mm at joint ${check.worstJoint}, t = ${check.worstTime}`);
  }
});

test("compensate must be a boolean: anything else is E_COMPRESS_OPTION, and false or true both compress", () => {
  const model = createSkeleton({ names: ["root", "child"], parents: [-1, 0] });
  const clip = createClip({
    name: "swing", skeleton: model,
    tracks: [1, 0].map((joint) => ({
      joint, path: "rotation" as const, interpolation: "LINEAR" as const, stride: 4,
      times: Float32Array.from({ length: 31 }, (_, k) => k / 30),
      values: Float32Array.from({ length: 31 * 4 }, (_, i) => {
        const angle = 0.5 * Math.sin((joint + 1) * Math.floor(i / 4) / 5);
        return [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)][i % 4]!;
      }),
    })),
  });
  const bad = compressClip(clip, { compensate: "yes" as unknown as boolean });
  assert.equal(bad.compressed, undefined);
  assert.equal(bad.diagnostics[0]?.code, "E_COMPRESS_OPTION");
  assert.match(bad.diagnostics[0]!.message, /compensate must be true or false/);
  for (const compensate of [true, false]) {
    const result = compressClip(clip, { compensate, tolerance: 1e-4 });
    assert.ok(result.stats && result.stats.maxError <= 1e-4, `compensate ${compensate}: ${result.stats?.maxError}`);
  }
});
