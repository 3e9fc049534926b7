import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createRadixScratch, radixSortPairs } from "../../src/lod/radix-sort.ts";

test("radixSortPairs sorts by unsigned key and keeps equal keys in order (property)", () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 0xffffffff })), { maxLength: 300 }), (raw) => {
      const n = raw.length;
      const keys = Uint32Array.from(raw);
      const values = Int32Array.from(raw, (_, i) => i);
      radixSortPairs(keys, values, n, createRadixScratch(n));
      const expected = raw.map((k, i) => [k >>> 0, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      assert.deepEqual([...keys], expected.map((e) => e[0]));
      assert.deepEqual([...values], expected.map((e) => e[1]));
    }),
  );
});
