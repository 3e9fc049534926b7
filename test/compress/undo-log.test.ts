// The compressor's undo log (src/compress/undo-log.ts): a rejected trial must leave the encoder's state
// exactly as it was, whatever slices of whichever arrays it saved and overwrote, in any order.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { createUndoLog, forget, saveRange, saveRuns, undo, type Saved } from "../../src/compress/undo-log.ts";

function arrays(): Saved[] {
  const f64 = Float64Array.from({ length: 97 }, (_, i) => Math.sin(i) * 1e3);
  const f32 = Float32Array.from({ length: 61 }, (_, i) => Math.fround(Math.cos(i) / 7));
  const i32 = Int32Array.from({ length: 53 }, (_, i) => (i * 2654435761) | 0);
  const u8 = Uint8Array.from({ length: 41 }, (_, i) => (i * 37) & 255);
  return [f64, f32, i32, u8];
}

/** A save (contiguous or in strided runs) followed by writes over what was saved (and sometimes more). */
const step = fc.record({
  which: fc.integer({ min: 0, max: 3 }),
  offset: fc.nat(40),
  width: fc.integer({ min: 1, max: 6 }),
  runs: fc.integer({ min: 1, max: 4 }),
  gap: fc.nat(3),
  value: fc.integer({ min: -100, max: 100 }),
});

test("undo restores every array exactly after saves and overwrites in any order (property)", () => {
  fc.assert(
    fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
      const state = arrays();
      const before = state.map((a) => a.slice());
      const log = createUndoLog();
      for (const { which, offset, width, runs, gap, value } of steps) {
        const a = state[which]!;
        const stride = width + gap;
        if (offset + (runs - 1) * stride + width > a.length) continue;
        if (runs === 1) saveRange(log, a, offset, width);
        else saveRuns(log, a, offset, width, runs, stride);
        for (let r = 0; r < runs; r++) for (let i = 0; i < width; i++) a[offset + r * stride + i] = value + i;
      }
      undo(log);
      state.forEach((a, k) => assert.deepEqual(a, before[k]));
      assert.equal(log.entries, 0);
      assert.equal(log.used, 0);
    }),
  );
});

test("forget keeps a trial's writes; the log grows past its first buffers and is reusable", () => {
  const log = createUndoLog();
  const big = new Float64Array(100_000).map((_, i) => i);
  saveRange(log, big, 0, big.length);
  for (let e = 0; e < 300; e++) saveRange(log, big, e, 1);
  big.fill(-1);
  undo(log);
  assert.ok(big.every((v, i) => v === i));
  const small = Int32Array.of(1, 2, 3);
  saveRange(log, small, 1, 2);
  small[1] = 9;
  forget(log);
  undo(log);
  assert.deepEqual([...small], [1, 9, 3]);
});
