import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { compareCodePoints, sortedByCodePoint } from "../../src/blend-check/code-point-order.ts";

const byCodePoints = (a: string, b: string): number => {
  const ca = Array.from(a, (c) => c.codePointAt(0)!);
  const cb = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) if (ca[i] !== cb[i]) return ca[i]! - cb[i]!;
  return ca.length - cb.length;
};

test("sorts by code point, not by UTF-16 unit (astral after U+E000–U+FFFF)", () => {
  const names = ["\u{1F600}", "\uFF5E", "\uFB00", "z", "\u{10FFFF}", "\uE000", "a", "", "\u{1F600}x"];
  assert.deepEqual(sortedByCodePoint(names), ["", "a", "z", "\uE000", "\uFB00", "\uFF5E", "\u{1F600}", "\u{1F600}x", "\u{10FFFF}"]);
  // UTF-16 order differs: the astral characters come first among the high ones.
  assert.notDeepEqual([...names].sort(), sortedByCodePoint(names));
});

test("agrees with a code-point-array comparison on random well-formed strings", () => {
  const scalar = fc.oneof(
    fc.integer({ min: 0, max: 0x7f }),
    fc.integer({ min: 0xd000, max: 0xd7ff }),
    fc.integer({ min: 0xe000, max: 0xffff }),
    fc.integer({ min: 0x10000, max: 0x10ffff }),
  );
  const str = fc.array(scalar, { maxLength: 5 }).map((cps) => String.fromCodePoint(...cps));
  fc.assert(
    fc.property(str, str, (a, b) => {
      assert.equal(Math.sign(compareCodePoints(a, b)), Math.sign(byCodePoints(a, b)));
    }),
    { numRuns: 2000 },
  );
});
