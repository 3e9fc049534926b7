import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { CompareOp, ConditionSpec, ParamSpec } from "../../src/spec/graph-spec.ts";
import { describeDomain, isEmpty, isSubset, paramDomain, restrict, type Domain } from "../../src/lint/condition-domain.ts";
import { buildConditionSet, contradiction, implies, overlaps } from "../../src/lint/condition-set.ts";

const float: ParamSpec = { pointer: "/p/x", name: "x", type: "float", default: 0 };
const int: ParamSpec = { pointer: "/p/n", name: "n", type: "int", default: 0 };
const ranged: ParamSpec = { pointer: "/p/s", name: "s", type: "float", default: 0, min: 0, max: 6 };
const bool: ParamSpec = { pointer: "/p/b", name: "b", type: "bool", default: false };
const params = new Map([float, int, ranged, bool].map((p) => [p.name, p]));

function cond(param: string, op: CompareOp, value: number | boolean): ConditionSpec {
  return { pointer: "", param, op, value };
}
function domainOf(p: ParamSpec, ...cs: [CompareOp, number | boolean][]): Domain {
  return cs.reduce<Domain>((d, [op, v]) => restrict(d, op, v), paramDomain(p));
}

test("interval reasoning on floats", () => {
  assert.ok(isEmpty(domainOf(float, [">", 5], ["<", 2])));
  assert.ok(isEmpty(domainOf(float, [">", 2], ["<", 2])));
  assert.ok(isEmpty(domainOf(float, [">=", 2], ["<", 2])));
  assert.ok(!isEmpty(domainOf(float, [">=", 2], ["<=", 2])));
  assert.ok(isEmpty(domainOf(float, ["==", 2], ["!=", 2])));
  assert.ok(!isEmpty(domainOf(float, [">=", 2], ["<=", 3], ["!=", 2], ["!=", 3])));
  assert.equal(describeDomain("x", domainOf(float, [">", 1], ["<=", 3], ["!=", 2])), "x in (1, 3] except 2");
});

test("interval reasoning on ints and declared ranges", () => {
  assert.ok(isEmpty(domainOf(int, [">", 1], ["<", 2])));
  assert.ok(!isEmpty(domainOf(int, [">", 1], ["<=", 2])));
  assert.ok(isEmpty(domainOf(int, [">=", 1], ["<=", 2], ["!=", 1], ["!=", 2])));
  assert.ok(isEmpty(domainOf(int, ["==", 1.5])));
  assert.ok(isEmpty(domainOf(ranged, [">", 6])));
  assert.ok(!isEmpty(domainOf(ranged, [">=", 6])));
  assert.ok(isEmpty(domainOf(ranged, ["<", 0])));
});

test("booleans", () => {
  assert.ok(isEmpty(domainOf(bool, ["==", true], ["==", false])));
  assert.ok(isEmpty(domainOf(bool, ["==", true], ["!=", true])));
  assert.ok(!isEmpty(domainOf(bool, ["!=", false])));
  assert.ok(isSubset(domainOf(bool, ["==", true]), domainOf(bool, ["!=", false])));
});

test("implication and overlap of condition sets", () => {
  const a = buildConditionSet([cond("x", ">", 2), cond("b", "==", true)], params);
  const b = buildConditionSet([cond("x", ">", 1)], params);
  assert.ok(implies(a, b, params));
  assert.ok(!implies(b, a, params));
  assert.ok(overlaps(a, b));
  const c = buildConditionSet([cond("x", "<=", 1)], params);
  assert.ok(!overlaps(b, c));
  // The declared range takes part: s ≥ 0 always holds.
  assert.ok(implies(buildConditionSet([], params), buildConditionSet([cond("s", ">=", 0)], params), params));
  // Unknown parameters are opaque: implied only by the same condition.
  const u1 = buildConditionSet([cond("ghost", ">", 1)], params);
  assert.ok(implies(u1, buildConditionSet([cond("ghost", ">", 1)], params), params));
  assert.ok(!implies(buildConditionSet([], params), u1, params));
  assert.equal(contradiction(u1), undefined);
});

const OPS: CompareOp[] = [">", ">=", "<", "<=", "==", "!="];
const arbCond = fc.record({ op: fc.constantFrom(...OPS), value: fc.integer({ min: -4, max: 4 }).map((v) => v / 2) });

function holds(v: number, op: CompareOp, c: number): boolean {
  switch (op) {
    case ">": return v > c;
    case ">=": return v >= c;
    case "<": return v < c;
    case "<=": return v <= c;
    case "==": return v === c;
    case "!=": return v !== c;
  }
}

// Property: the symbolic answers agree with brute force over a fine grid of values (for ints: integers).
test("property: emptiness and inclusion agree with evaluation on sample points", () => {
  const points = Array.from({ length: 81 }, (_, i) => -5 + i / 8);
  fc.assert(
    fc.property(fc.array(arbCond, { maxLength: 4 }), fc.array(arbCond, { maxLength: 4 }), fc.boolean(), (ca, cb, isInt) => {
      const p = isInt ? int : float;
      const da = ca.reduce<Domain>((d, c) => restrict(d, c.op, c.value), paramDomain(p));
      const db = cb.reduce<Domain>((d, c) => restrict(d, c.op, c.value), paramDomain(p));
      const pts = isInt ? points.filter(Number.isInteger) : points;
      const inA = pts.filter((v) => ca.every((c) => holds(v, c.op, c.value)));
      // Values satisfying the conditions are never declared impossible.
      if (inA.length > 0) assert.ok(!isEmpty(da));
      // Inclusion is sound: if a ⊆ b then every sample point of a satisfies b.
      if (isSubset(da, db)) assert.ok(inA.every((v) => cb.every((c) => holds(v, c.op, c.value))));
      // For ints the grid covers every value the constants can separate, so emptiness is exact.
      if (isInt && isEmpty(da)) assert.equal(inA.length, 0);
    }),
    { numRuns: 2000 },
  );
});
