// fitTrack's step search (src/compress/fit-track.ts) starts each block where the block before ended and
// walks up or down from there instead of from the top: whatever the track, the code it keeps must meet
// the track's budget, and the next coarser code (within the search's headroom) must not.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { blockCount, fineCount, STEP_CODE_ONE } from "../../src/compress/compressed-clip.ts";
import { encodeCoarse, encodeFineBlock, fitTrack, type FitTarget } from "../../src/compress/fit-track.ts";

/** Step codes the search may go above its estimate (fit-track.ts's CODE_HEADROOM). */
const HEADROOM = 6;

const wave = fc.record({ amplitude: fc.double({ min: 0.01, max: 1.5, noNaN: true }), frequency: fc.double({ min: 0.1, max: 6, noNaN: true }), phase: fc.double({ min: 0, max: 6.3, noNaN: true }) });

const track = fc.record({
  rotation: fc.boolean(),
  frames: fc.integer({ min: 6, max: 120 }),
  coarseShift: fc.integer({ min: 1, max: 4 }),
  tolerance: fc.double({ min: 1e-6, max: 1e-2, noNaN: true }),
  lever: fc.double({ min: 0.05, max: 3, noNaN: true }),
  waves: fc.array(wave, { minLength: 3, maxLength: 3 }),
  jump: fc.option(fc.integer({ min: 1, max: 119 }), { nil: undefined }),
});

/** Smooth values at 30 fps (a rotation about a wandering axis, or a translation), with an optional one-frame jump. */
function values(t: { rotation: boolean; frames: number; waves: { amplitude: number; frequency: number; phase: number }[]; jump: number | undefined }): Float64Array {
  const stride = t.rotation ? 4 : 3;
  const v = new Float64Array(stride * t.frames);
  for (let f = 0; f < t.frames; f++) {
    const time = f / 30;
    const jump = t.jump === f ? 1 : 0;
    const [a, b, c] = t.waves.map((w) => w.amplitude * Math.sin(w.frequency * time + w.phase) + jump) as [number, number, number];
    if (t.rotation) {
      // exp of the half-angle vector (a, b, c) / 2: a unit quaternion, continuous in f.
      const angle = Math.hypot(a, b, c);
      const s = angle > 1e-12 ? Math.sin(angle / 2) / angle : 0.5;
      v.set([a * s, b * s, c * s, Math.cos(angle / 2)], 4 * f);
    } else {
      v.set([a, b, c], 3 * f);
    }
  }
  return v;
}

test("fitTrack keeps, per block and for the coarse keys, a step code that meets the budget and whose next coarser code does not (property)", () => {
  fc.assert(
    fc.property(track, (t) => {
      const stride = t.rotation ? 4 : 3;
      const target: FitTarget = {
        joint: 0, path: t.rotation ? "rotation" : "translation", values: values(t), frameCount: t.frames, lever: t.lever,
        rest: t.rotation ? [1, 0, 0, 0] : [9, 9, 9],
      };
      const { code } = fitTrack(target, { tolerance: t.tolerance, fixedStep: 0, coarseShift: t.coarseShift });
      if (!code) return; // constant or at rest: no steps to check
      assert.equal(code.stride, stride);
      const tol = t.tolerance;
      const coarseCode = code.coarseCode;
      const decoded = code.decoded.slice();
      // Coarse keys: the kept code meets the budget; one coarser does not (unless it is the search's top).
      assert.ok(encodeCoarse(code, coarseCode) <= tol, `coarse code ${coarseCode} misses the budget`);
      if (coarseCode < STEP_CODE_ONE + HEADROOM) assert.ok(encodeCoarse(code, coarseCode + 1) > tol, `coarse code ${coarseCode + 1} also meets the budget`);
      encodeCoarse(code, coarseCode);
      const top = coarseCode + HEADROOM;
      for (let b = 0; b < blockCount(t.frames); b++) {
        if (fineCount(t.frames, t.coarseShift, b) === 0) continue;
        const c = code.fineCodes[b]!;
        assert.ok(c <= top);
        assert.ok(code.blockError[b]! <= tol, `block ${b}: code ${c} leaves ${code.blockError[b]} > ${tol}`);
        if (c < top) assert.ok(encodeFineBlock(code, b, c + 1) > tol, `block ${b}: code ${c + 1} also meets the budget`);
        encodeFineBlock(code, b, c);
      }
      // Probing and re-encoding left the decoded keys as the fit had them.
      assert.deepEqual(code.decoded, decoded);
    }),
  );
});
