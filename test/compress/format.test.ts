import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { expGolombLength, readBits, readExpGolomb, unzigzag, writeBits, writeExpGolomb, zigzag } from "../../src/compress/bit-pack.ts";
import {
  coarseCount, coarseFrame, decodeKey, decodeRotationPair, deriveTrack, droppedComponent, fineCount, fineIndex, isCoarse, KEYS_PER_BLOCK, readSigned, reconstruct, stepFor,
  STEP_CODE_ONE, TrackEncoding,
} from "../../src/compress/compressed-clip.ts";
import { fitTrack, type FitTarget } from "../../src/compress/fit-track.ts";

const unitQuat = fc
  .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter(([x, y, z, w]) => Math.hypot(x, y, z, w) > 0.1)
  .map(([x, y, z, w]) => {
    const l = Math.hypot(x, y, z, w);
    return [x / l, y / l, z / l, w / l] as const;
  });

test("bit packing: fields of 1…24 bits round-trip at any offset, straddling words; signed fields sign-extend", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 24 }), fc.nat()), { minLength: 1, maxLength: 40 }), (fields) => {
      const total = fields.reduce((n, [bits]) => n + bits, 0);
      const data = new Uint32Array(Math.ceil(total / 32));
      let bit = 0;
      for (const [bits, v] of fields) {
        writeBits(data, bit, bits, v);
        bit += bits;
      }
      bit = 0;
      for (const [bits, v] of fields) {
        const low = v & ((1 << bits) - 1);
        assert.equal(readBits(data, bit, bits), low);
        assert.equal(readSigned(data, bit, bits), low >= 1 << (bits - 1) ? low - (1 << bits) : low);
        bit += bits;
      }
    }),
  );
  assert.equal(readSigned(new Uint32Array(1), 0, 0), 0);
});

test("step codes: s0 · 2^((code − 64)/8), exact powers of two every 8 codes, from literal constants", () => {
  for (let code = 0; code < 256; code++) {
    const s = stepFor(0.001, code);
    const expected = 0.001 * 2 ** ((code - STEP_CODE_ONE) / 8);
    assert.ok(Math.abs(s - expected) <= 4e-16 * expected, `code ${code}: ${s} vs ${expected}`);
    if (code % 8 === 0) assert.equal(s, 0.001 * 2 ** ((code - STEP_CODE_ONE) / 8));
    if (code > 0) assert.ok(s > stepFor(0.001, code - 1));
  }
  assert.equal(stepFor(0.25, STEP_CODE_ONE), 0.25);
});

test("grid bookkeeping: coarse keys every 2^shift frames and the last; fine keys numbered within their block", () => {
  for (const F of [2, 3, 5, 16, 17, 33, 100, 994]) {
    for (let shift = 0; shift <= 4; shift++) {
      const nC = coarseCount(F, shift);
      const coarse = new Set<number>();
      for (let j = 0; j < nC; j++) coarse.add(coarseFrame(F, shift, j));
      assert.equal(coarse.size, nC, `F=${F} shift=${shift}`);
      assert.ok(coarse.has(0) && coarse.has(F - 1));
      for (let f = 0; f < F; f++) assert.equal(isCoarse(F, shift, f), coarse.has(f));
      for (let b = 0; b * KEYS_PER_BLOCK < F; b++) {
        let n = 0;
        for (let f = b * KEYS_PER_BLOCK; f < Math.min(F, (b + 1) * KEYS_PER_BLOCK); f++) {
          if (coarse.has(f)) continue;
          assert.equal(fineIndex(f, shift), n, `F=${F} shift=${shift} f=${f}`);
          n++;
        }
        assert.equal(fineCount(F, shift, b), n);
      }
    }
  }
});

test("reconstruct: a rotation comes back unit length, the dropped component with the prediction's sign, within the step", () => {
  fc.assert(
    fc.property(unitQuat, fc.integer({ min: 4, max: 20 }), fc.array(fc.double({ min: -0.02, max: 0.02, noNaN: true }), { minLength: 4, maxLength: 4 }), (q, bits, noise) => {
      const s = 2 ** -bits;
      // A prediction near q (the decoder never sees q itself).
      const p = q.map((v, c) => v + noise[c]!);
      const d = droppedComponent(p[0]!, p[1]!, p[2]!, p[3]!);
      const sign = q[d]! * p[d]! < 0 ? -1 : 1;
      const truth = q.map((v) => sign * v);
      const kept = [0, 1, 2, 3].filter((c) => c !== d);
      const residuals = kept.map((c) => Math.round((truth[c]! - p[c]!) / s));
      const out = new Float32Array(4);
      reconstruct(out, 0, true, p[0]!, p[1]!, p[2]!, p[3]!, residuals[0]!, residuals[1]!, residuals[2]!, s);
      assert.ok(Math.abs(Math.hypot(...out) - 1) < 1e-6, "unit length");
      assert.ok(out[d]! * p[d]! >= 0, "the prediction's sign");
      // Each kept component is within s/2 (plus float32 rounding); the restored one follows from unit
      // length: |Δ| ≤ √3·(s/2)·(1 + 1/|q_d|) with |q_d| ≥ 1/2 − |noise|.
      const err = Math.hypot(...[0, 1, 2, 3].map((c) => out[c]! - truth[c]!));
      assert.ok(err <= Math.sqrt(3) * (s / 2) * (1 + 1 / 0.45) + 1e-6, `error ${err} at step ${s}`);
    }),
  );
  const out = new Float32Array(3);
  reconstruct(out, 0, false, 1, 2, 3, 0, 2, -1, 0, 0.5);
  assert.deepEqual(Array.from(out), [2, 1.5, 3]);
});

/** A track of F frames: a rotation wandering about a changing axis, or a translation along a curve. */
function target(path: "rotation" | "translation", F: number, seed: number): FitTarget {
  const stride = path === "rotation" ? 4 : 3;
  const values = new Float64Array(stride * F);
  for (let f = 0; f < F; f++) {
    const t = f / 60 + seed;
    if (path === "rotation") {
      const angle = 1.5 * Math.sin(1.3 * t) + 0.2 * Math.sin(7 * t);
      const ax = Math.sin(0.7 * t), ay = Math.cos(0.5 * t), az = 0.3;
      const l = Math.hypot(ax, ay, az);
      const h = angle / 2;
      values.set([(Math.sin(h) * ax) / l, (Math.sin(h) * ay) / l, (Math.sin(h) * az) / l, Math.cos(h)], 4 * f);
    } else {
      values.set([Math.sin(t), 0.5 * t, Math.cos(2 * t)], 3 * f);
    }
  }
  // Hemisphere-continuous, as the compressor hands rotations over.
  for (let f = 1; f < F && stride === 4; f++) {
    let dot = 0;
    for (let c = 0; c < 4; c++) dot += values[4 * f + c]! * values[4 * f - 4 + c]!;
    if (dot < 0) for (let c = 0; c < 4; c++) values[4 * f + c] = -values[4 * f + c]!;
  }
  return { joint: 0, path, values, frameCount: F, lever: 0.5, rest: path === "rotation" ? [0, 0, 0, 1] : [0, 0, 0] };
}

test("encoder and decoder agree bit for bit: decodeKey of the packed track gives the encoder's decoded values", () => {
  for (const path of ["rotation", "translation"] as const) {
    for (const F of [2, 3, 17, 61, 200]) {
      for (const coarseShift of [1, 2, 4]) {
        const tgt = target(path, F, F + coarseShift);
        const { track, code } = fitTrack(tgt, { tolerance: 1e-4, fixedStep: 0, coarseShift });
        assert.ok(track && code, `${path} F=${F}`);
        assert.equal(track.encoding, path === "rotation" ? TrackEncoding.ROTATION : TrackEncoding.RANGE);
        const stride = path === "rotation" ? 4 : 3;
        const key = new Float32Array(4);
        for (let f = 0; f < F; f++) {
          decodeKey(key, 0, track, f);
          for (let c = 0; c < stride; c++) assert.equal(key[c], code.decoded[stride * f + c], `${path} F=${F} shift=${coarseShift} frame ${f}`);
          // And every key meets the track's budget (weight 2L = 1 for these rotations, 1 for translations).
          const w = 1;
          let d = 0, e = 0;
          for (let c = 0; c < stride; c++) {
            d += (key[c]! - tgt.values[stride * f + c]!) ** 2;
            e += (key[c]! + tgt.values[stride * f + c]!) ** 2;
          }
          assert.ok(w * Math.sqrt(path === "rotation" ? Math.min(d, e) : d) <= 1e-4, `frame ${f}`);
        }
        // What a reader derives from the stored fields is what the encoder built.
        const again = deriveTrack(track.encoding, F, coarseShift, track.coarseCode, track.params, track.data);
        assert.ok(again);
        assert.deepEqual(again.coarse, track.coarse);
        assert.deepEqual(again.blockStep, track.blockStep);
        assert.equal(Math.ceil(again.bitLength / 32), track.data.length);
      }
    }
  }
});

test("decodeRotationPair (the sampler's path) gives exactly decodeKey's keys f and f + 1 at every frame", () => {
  for (const F of [2, 3, 5, 17, 33, 64, 65, 200]) {
    for (const coarseShift of [0, 1, 2, 3, 4]) {
      const { track } = fitTrack(target("rotation", F, F * 7 + coarseShift), { tolerance: 1e-4, fixedStep: 0, coarseShift });
      assert.ok(track);
      const pair = new Float32Array(8);
      const one = new Float32Array(8);
      for (let f = 0; f + 1 < F; f++) {
        decodeRotationPair(pair, 0, track, f);
        decodeKey(one, 0, track, f);
        decodeKey(one, 4, track, f + 1);
        assert.deepEqual(pair, one, `F=${F} shift=${coarseShift} f=${f}`);
      }
    }
  }
});

test("deriveTrack refuses data shorter than its headers describe, damaged header codes and widths over 24 bits", () => {
  const { track } = fitTrack(target("rotation", 100, 1), { tolerance: 1e-4, fixedStep: 0, coarseShift: 2 });
  assert.ok(track);
  const derive = (data: Uint32Array) => deriveTrack(track.encoding, 100, 2, track.coarseCode, track.params, data);
  assert.ok(derive(track.data));
  assert.equal(derive(track.data.subarray(0, track.data.length - 2)), undefined);
  // All zeros: the first Exp-Golomb prefix never ends.
  assert.equal(derive(new Uint32Array(track.data.length)), undefined);
  // A first block whose fine width is 0 + 25: code difference 0 (order 2: "1" + 2 bits), then zigzag(25) = 50
  // in order 0: 5 zeros, a one, the low 5 bits of 51.
  const bad = new Uint32Array(track.data.length);
  writeExpGolomb(bad, writeExpGolomb(bad, 0, 0, 2), zigzag(25), 0);
  assert.equal(derive(bad), undefined);
});

test("Exp-Golomb codes round-trip and have the stated lengths; zigzag maps signed onto unsigned", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 30 }), (values) => {
      const data = new Uint32Array(64);
      let bit = 0;
      for (const [v, k] of values) {
        const start = bit;
        bit = writeExpGolomb(data, bit, zigzag(v), k);
        assert.equal(bit - start, expGolombLength(zigzag(v), k));
      }
      const read = { value: 0, bit: 0 };
      let at = 0;
      for (const [v, k] of values) {
        readExpGolomb(data, at, k, bit, read);
        assert.equal(unzigzag(read.value), v);
        at = read.bit;
      }
      assert.equal(at, bit);
    }),
  );
  assert.deepEqual([0, -1, 1, -2, 2].map(zigzag), [0, 1, 2, 3, 4]);
  assert.equal(expGolombLength(0, 0), 1);
  assert.equal(expGolombLength(0, 2), 3);
});

test("rotation jumps: keys whose prediction's largest component is near 0 in the key store it explicitly and meet the budget; decoders agree (property)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 20, max: 140 }), fc.integer({ min: 1, max: 4 }), fc.array(fc.tuple(fc.integer({ min: 1, max: 139 }), unitQuat), { minLength: 1, maxLength: 4 }),
      fc.constantFrom(1e-3, 1e-4, 1e-5),
      (F, coarseShift, jumps, tolerance) => {
        const tgt = target("rotation", F, F);
        const v = tgt.values as Float64Array;
        // The pose jumps to another rotation and stays there for a few frames (a seam or a bad capture).
        for (const [at, q] of jumps) for (let f = at; f < Math.min(F, at + 3); f++) v.set(q, 4 * f);
        for (let f = 1; f < F; f++) {
          let dot = 0;
          for (let c = 0; c < 4; c++) dot += v[4 * f + c]! * v[4 * f - 4 + c]!;
          if (dot < 0) for (let c = 0; c < 4; c++) v[4 * f + c] = -v[4 * f + c]!;
        }
        const { track, code } = fitTrack(tgt, { tolerance, fixedStep: 0, coarseShift });
        assert.ok(track && code);
        const key = new Float32Array(8);
        const pair = new Float32Array(8);
        for (let f = 0; f < F; f++) {
          decodeKey(key, 0, track, f);
          let d = 0, e = 0;
          for (let c = 0; c < 4; c++) {
            assert.equal(key[c], code.decoded[4 * f + c], `frame ${f}`);
            d += (key[c]! - v[4 * f + c]!) ** 2;
            e += (key[c]! + v[4 * f + c]!) ** 2;
          }
          // Weight 2L = 1: the budget is a chord; float32 storage of the key adds up to ~1e-7.
          assert.ok(Math.sqrt(Math.min(d, e)) <= tolerance + 2e-7, `frame ${f}: ${Math.sqrt(Math.min(d, e))} > ${tolerance}`);
          if (f + 1 < F) {
            decodeRotationPair(pair, 0, track, f);
            decodeKey(key, 4, track, f + 1);
            assert.deepEqual(pair, key, `pair at ${f}`);
          }
        }
        const again = deriveTrack(track.encoding, F, coarseShift, track.coarseCode, track.params, track.data);
        assert.ok(again);
        assert.deepEqual(again.coarse, track.coarse);
        assert.equal(Math.ceil(again.bitLength / 32), track.data.length);
      },
    ),
  );
});

test("a smooth rotation needs no explicit components: no block pays for them", () => {
  const { code } = fitTrack(target("rotation", 200, 3), { tolerance: 1e-4, fixedStep: 0, coarseShift: 2 });
  assert.ok(code);
  assert.equal(code.explicitCoarse.reduce((a, b) => a + b, 0) + code.explicitFine.reduce((a, b) => a + b, 0), 0);
});
