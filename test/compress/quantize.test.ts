import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { readBits, writeBits } from "../../src/compress/bit-pack.ts";
import { dequantizeUnit, largestComponent, quantizeUnit, restoreQuat, SMALLEST_THREE_RANGE } from "../../src/compress/quantize.ts";

const unitQuat = fc
  .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter(([x, y, z, w]) => Math.hypot(x, y, z, w) > 0.1)
  .map(([x, y, z, w]) => {
    const l = Math.hypot(x, y, z, w);
    return [x / l, y / l, z / l, w / l] as const;
  });

test("bit packing: fields of 1…24 bits round-trip at any offset, straddling words", () => {
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
        assert.equal(readBits(data, bit, bits), v & ((1 << bits) - 1));
        bit += bits;
      }
    }),
  );
});

test("range quantisation: error ≤ extent / (2 (2^b − 1)) for values in range", () => {
  fc.assert(
    fc.property(
      fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: 1e-6, max: 100, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }),
      fc.integer({ min: 1, max: 24 }),
      (min, extent, s, bits) => {
        const v = min + s * extent;
        const q = quantizeUnit(v, min, extent, bits);
        assert.ok(q >= 0 && q <= (1 << bits) - 1);
        const back = dequantizeUnit(q, min, extent, bits);
        assert.ok(Math.abs(back - v) <= extent / (2 * ((1 << bits) - 1)) * (1 + 1e-9) + 1e-12);
      },
    ),
  );
});

test("smallest-three: restored rotation within the quantisation bound (chord ≤ 2√3 · step)", () => {
  fc.assert(
    fc.property(unitQuat, fc.integer({ min: 6, max: 24 }), (q, bits) => {
      const big = largestComponent(q, 0);
      const sign = q[big]! < 0 ? -1 : 1;
      const kept = [0, 1, 2, 3].filter((c) => c !== big).map((c) => sign * q[c]!);
      const step = (2 * SMALLEST_THREE_RANGE) / ((1 << bits) - 1);
      const deq = kept.map((v) => dequantizeUnit(quantizeUnit(v, -SMALLEST_THREE_RANGE, 2 * SMALLEST_THREE_RANGE, bits), -SMALLEST_THREE_RANGE, 2 * SMALLEST_THREE_RANGE, bits));
      const out = new Float64Array(4);
      restoreQuat(out, 0, big, deq[0]!, deq[1]!, deq[2]!);
      assert.ok(Math.abs(Math.hypot(...out) - 1) < 1e-12, "unit length");
      // Same rotation up to sign: distance to ±q.
      const dPlus = Math.hypot(...[0, 1, 2, 3].map((c) => out[c]! - sign * q[c]!));
      // Each kept component moves ≤ step/2; the dropped one (≥ 1/2) moves ≤ √3·(step/2)·√3 at worst;
      // with the final normalisation the chord stays under 2·√3·step.
      assert.ok(dPlus <= 2 * Math.sqrt(3) * step, `chord ${dPlus} for ${bits} bits`);
    }),
  );
});

test("restoreQuat puts the dropped component back positive in its slot", () => {
  const out = new Float64Array(4);
  for (let drop = 0; drop < 4; drop++) {
    restoreQuat(out, 0, drop, 0.1, 0.2, 0.3);
    const kept = [0, 1, 2, 3].filter((c) => c !== drop).map((c) => out[c]!);
    assert.deepEqual(kept.map((v) => v.toFixed(12)), [0.1, 0.2, 0.3].map((v) => v.toFixed(12)));
    assert.ok(Math.abs(out[drop]! - Math.sqrt(1 - 0.14)) < 1e-12);
  }
});
