import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { hasErrors } from "../../src/diagnostics/diagnostic.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { lintDocument } from "../../src/lint/lint-document.ts";
import { lintGraph } from "../../src/lint/lint-graph.ts";
import { parseGraphSpec } from "../../src/spec/parse-graph-spec.ts";
import { repoPath } from "../helpers/assets.ts";
import { baseSpec, type Json } from "../spec/spec-fixtures.ts";

// Seeds for mutation: the parser's base spec, a graph with every motion kind, and the seed-format spec.
const RICH: Json = {
  animgraph: 1,
  transitionBudget: { minFrames: 2, maxFrames: 20 },
  parameters: { speed: { type: "float", min: 0, max: 6 }, dir: { type: "float" }, jump: { type: "trigger" }, n: { type: "int" } },
  masks: { upper: { include: ["Spine"], exclude: ["Neck"], weight: 0.5 } },
  layers: [
    {
      name: "base",
      machine: {
        entry: "Move",
        states: {
          Move: { blend2d: { params: ["speed", "dir"], samples: [{ x: 0, y: 0, clip: "idle" }, { x: 1, y: 0, clip: "walk" }, { x: 0, y: 1, clip: "left" }] } },
          Air: { machine: { entry: "Up", states: { Up: { clip: "up", loop: "clamp" }, Down: { clip: "down", final: true } }, transitions: [{ from: "Up", to: "Down", exitTime: 1 }] } },
          Blend: { blend1d: { param: "n", children: [{ at: 0, clip: "a" }, { at: 1, clip: "b" }] }, speed: { param: "speed" } },
        },
        transitions: [
          { from: "*", to: "Air", conditions: [{ param: "jump" }], durationFrames: 4 },
          { from: "Air", to: "Move", exitPermille: 900, conditions: [{ param: "speed", op: ">", value: 1 }] },
          { from: "Move", to: "Blend", duration: 0, conditions: [{ param: "n", op: "!=", value: 2 }] },
          { from: "Blend", to: "Move", duration: 0, conditions: [{ param: "n", op: ">=", value: 3 }] },
        ],
      },
    },
    { name: "upper", mask: "upper", mode: "additive", weight: { param: "speed" }, machine: { entry: "Wave", states: { Wave: { clip: "wave" } } } },
  ],
};
const SEEDS: unknown[] = [baseSpec(), RICH, JSON.parse(readFileSync(repoPath("examples/stardust-inn/ta09_blend.json"), "utf8"))];

/** Every (container, key) slot of a JSON value. */
function slots(v: unknown, out: [Record<string, unknown> | unknown[], string | number][] = []): typeof out {
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      out.push([v, i]);
      slots(x, out);
    });
  } else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      out.push([v as Record<string, unknown>, k]);
      slots(x, out);
    }
  }
  return out;
}

const arbMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("delete" as const) }),
  fc.record({ kind: fc.constant("replace" as const), value: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({ kind: fc.constant("string" as const), value: fc.oneof(fc.string({ unit: "grapheme" }), fc.constantFrom("*", "__proto__", "constructor", "", "Ghost", "NaN")) }),
  fc.record({ kind: fc.constant("number" as const), value: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.constantFrom(0, -1, 1e308, 2 ** 53 + 1)) }),
  fc.record({ kind: fc.constant("nest" as const), depth: fc.integer({ min: 1, max: 120 }) }),
  fc.record({ kind: fc.constant("rename" as const), value: fc.constantFrom("x-ext", "__proto__", "bogus", "clip", "machine", "from") }),
);

function mutate(seed: unknown, mutations: readonly { at: number; m: Mutation }[]): unknown {
  const v = structuredClone(seed);
  for (const { at, m } of mutations) {
    const all = slots(v);
    if (all.length === 0) break;
    const [container, key] = all[at % all.length]!;
    const c = container as Record<string | number, unknown>;
    switch (m.kind) {
      case "delete":
        if (Array.isArray(container)) container.splice(key as number, 1);
        else delete c[key];
        break;
      case "replace":
      case "string":
      case "number":
        c[key] = m.value;
        break;
      case "nest": {
        let x: unknown = c[key];
        for (let i = 0; i < m.depth; i++) x = i % 2 ? [x] : { machine: x };
        c[key] = x;
        break;
      }
      case "rename":
        if (!Array.isArray(container)) {
          const x = c[key];
          delete c[key];
          Object.defineProperty(c, m.value, { value: x, enumerable: true, configurable: true, writable: true });
        }
        break;
    }
  }
  return v;
}
type Mutation =
  | { kind: "delete" }
  | { kind: "replace"; value: unknown }
  | { kind: "string"; value: string }
  | { kind: "number"; value: number }
  | { kind: "nest"; depth: number }
  | { kind: "rename"; value: string };

test("fuzz: parse + lint of mutated specs never throws and always explains an unusable input", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...SEEDS),
      fc.array(fc.record({ at: fc.nat(), m: arbMutation }), { minLength: 1, maxLength: 4 }),
      (seed, mutations) => {
        const text = JSON.stringify(mutate(seed, mutations));
        const r = lintDocument(parseJsonText(text, "fuzz.json"));
        assert.ok(Array.isArray(r.diagnostics));
        if (r.exitCode === 2) assert.ok(hasErrors(r.diagnostics), "an unusable input says why");
        for (const d of r.diagnostics) {
          assert.match(d.code, /^[EWI]_[A-Z0-9_]+$/);
          assert.equal(typeof d.message, "string");
          assert.equal(typeof d.pointer, "string");
        }
      },
    ),
    { numRuns: 400 },
  );
  assert.equal(({} as Record<string, unknown>)["type"], undefined, "no prototype pollution");
});

test("fuzz: raw text edits (cuts, inserted characters) never make the parser throw", () => {
  const text = JSON.stringify(RICH);
  fc.assert(
    fc.property(fc.nat(text.length), fc.nat(40), fc.string({ maxLength: 5 }), (at, cut, insert) => {
      const mutated = text.slice(0, at) + insert + text.slice(Math.min(text.length, at + cut));
      const r = lintDocument(parseJsonText(mutated, "fuzz.json"));
      assert.ok(r.exitCode === 0 || r.exitCode === 1 || r.exitCode === 2);
    }),
    { numRuns: 300 },
  );
});

// Random valid graphs: unicode state names, typed parameters and well-typed conditions.
const arbName = fc.string({ minLength: 1, maxLength: 8, unit: "grapheme" }).filter((s) => s !== "*" && !s.startsWith("x-"));
const arbGraph = fc
  .record({
    states: fc.uniqueArray(arbName, { minLength: 1, maxLength: 8 }),
    frameRate: fc.integer({ min: 1, max: 240 }),
    transitions: fc.array(
      fc.record({
        from: fc.nat(), to: fc.nat(), star: fc.boolean(),
        conds: fc.array(fc.record({ which: fc.nat(3), op: fc.constantFrom(">", ">=", "<", "<=", "==", "!="), value: fc.integer({ min: -3, max: 3 }), flag: fc.boolean() }), { maxLength: 3 }),
        frames: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
        exitPermille: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: undefined }),
      }),
      { maxLength: 12 },
    ),
  })
  .map(({ states, frameRate, transitions }) => ({
    animgraph: 1,
    frameRate,
    parameters: { f: { type: "float" }, i: { type: "int" }, b: { type: "bool" }, t: { type: "trigger" } },
    layers: [{
      name: "base",
      machine: {
        entry: states[0]!,
        states: Object.fromEntries(states.map((s, k) => [s, k % 2 ? { clip: s } : { blend1d: { param: "f", children: [{ at: 0, clip: s }] } }])),
        transitions: transitions.map((t) => ({
          from: t.star ? "*" : states[t.from % states.length]!,
          to: states[t.to % states.length]!,
          conditions: t.conds.map((c) =>
            c.which === 0 ? { param: "f", op: c.op, value: c.value / 2 }
            : c.which === 1 ? { param: "i", op: c.op, value: c.value }
            : c.which === 2 ? { param: "b", op: c.op === "!=" ? "!=" : "==", value: c.flag }
            : { param: "t" }),
          ...(t.frames !== undefined ? { durationFrames: t.frames } : {}),
          ...(t.exitPermille !== undefined ? { exitPermille: t.exitPermille } : {}),
        })),
      },
    }],
  }));

test("property: random valid graphs parse without errors, and lint reports no name or type errors", () => {
  fc.assert(
    fc.property(arbGraph, (g) => {
      const doc = parseJsonText(JSON.stringify(g), "g.json");
      const r = parseGraphSpec(doc);
      assert.deepEqual(r.diagnostics, []);
      const spec = r.spec!;
      assert.equal(spec.layers[0]!.machine.states.size, g.layers[0]!.machine.states ? Object.keys(g.layers[0]!.machine.states).length : 0);
      assert.equal(spec.layers[0]!.machine.transitions.length, g.layers[0]!.machine.transitions.length);
      const findings = lintGraph(spec, { document: doc });
      for (const code of ["E_UNKNOWN_STATE", "E_UNKNOWN_PARAM", "E_CONDITION_TYPE", "E_PARAM_TYPE"]) {
        assert.ok(!findings.some((d) => d.code === code), `${code}: ${JSON.stringify(findings)}`);
      }
    }),
    { numRuns: 300 },
  );
});
