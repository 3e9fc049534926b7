import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { findMirrorPairs } from "../../src/mirror/index.ts";

/** Naming conventions: each turns a core word into the left and the right joint's name. */
const CONVENTIONS: readonly ((core: string, side: "L" | "R") => string)[] = [
  (c, s) => `${c}.${s}`, (c, s) => `${c}_${s.toLowerCase()}`, (c, s) => `${s}_${c}`, (c, s) => `Bip01 ${s} ${c}`,
  (c, s) => `${s === "L" ? "Left" : "Right"}${c}`, (c, s) => `mixamorig:${s === "L" ? "Left" : "Right"}${c}`,
  (c, s) => `${s === "L" ? "left" : "right"}${c}`, (c, s) => `${s}${c}`, (c, s) => `${s.toLowerCase()}${c}`,
  (c, s) => `${c.toLowerCase()}_${s === "L" ? "left" : "right"}_01`, (c, s) => `${s.toLowerCase()}${c.toLowerCase()}`,
];

// Core words without l, r, f or g, so the only side markers are the convention's (no "Eft", "Ight" to complete a Left or Right).
const core = fc.stringMatching(/^[A-EHIJKM-QS-Z][a-eh-km-qs-z]{2,7}$/);

test("property: a skeleton of midline joints and left/right pairs in any mix of conventions pairs exactly as built", () => {
  fc.assert(fc.property(
    fc.uniqueArray(core, { minLength: 1, maxLength: 12, selector: (c) => c.toLowerCase() }),
    fc.array(fc.nat(CONVENTIONS.length - 1), { minLength: 12, maxLength: 12 }),
    fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    fc.integer({ min: 0, max: 1e6 }),
    (cores, conventions, paired, seed) => {
      const names: string[] = [];
      const expected = new Map<string, string>();
      cores.forEach((c, i) => {
        if (!paired[i]) {
          names.push(c); // a midline joint
          expected.set(c, c);
          return;
        }
        const make = CONVENTIONS[conventions[i]!]!;
        const l = make(c, "L"), r = make(c, "R");
        names.push(l, r);
        expected.set(l, r);
        expected.set(r, l);
      });
      // Any order of the joints.
      const order = names.map((n, i) => [n, (i * 7919 + seed) % 104729] as const).sort((a, b) => a[1] - b[1]).map(([n]) => n);
      const r = findMirrorPairs(order, undefined);
      assert.deepEqual(r.diagnostics, [], order.join(", "));
      order.forEach((n, j) => assert.equal(order[r.partner![j]!], expected.get(n), n));
    },
  ));
});

test("property: removing one side of any pair is E_MIRROR_UNPAIRED naming the other (for the unmistakable conventions)", () => {
  fc.assert(fc.property(core, fc.nat(7), fc.boolean(), (c, k, dropLeft) => {
    const make = CONVENTIONS[k]!; // the first eight are strong markers
    const kept = make(c, dropLeft ? "R" : "L");
    const r = findMirrorPairs(["Hips", kept], [-1, 0], { file: "rig" });
    assert.equal(r.partner, undefined);
    assert.equal(r.diagnostics[0]?.code, "E_MIRROR_UNPAIRED");
    assert.ok(r.diagnostics[0]!.message.includes(`"${kept}"`));
  }));
});
