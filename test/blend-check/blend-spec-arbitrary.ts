// Random blend-check specs for the property and cross-language tests: valid specs with every kind of
// finding, and specs broken in one known way (with the diagnostic each must produce).
import fc from "fast-check";
import { dumpPythonJson, type PyJsonValue } from "../../src/blend-check/python-json-dump.ts";

/**
 * Names that stress the implementation: prototype keys, names containing "->" (so "a->b"+"c" and
 * "a"+"b->c" print the same label but are different pairs), JSON escapes, and characters that sort
 * differently by code point than by UTF-16 unit (U+FF5E and U+FB00 are above the surrogates in UTF-16
 * order but below astral characters such as U+1F600 by code point).
 */
export const NAMES = [
  "Idle", "Walk", "Run", "__proto__", "constructor", "toString", "hasOwnProperty", "a", "a->b", "b->c", "c", "->",
  "静止", "走る", "ñandú", "\u{1F600}", "\u{1F600}x", "\uFF5E", "\uFB00", "\u{10FFFF}", "\uE000", "z",
  'quo"te', "back\\slash", "tab\there", "new\nline", "\u0001ctl", "\u007f", "\u2028", "", " ",
] as const;

const PARAMS = ["speed", "lean", "direction", "__proto__", "constructor", "速度", "\u{1F3C3}", "a/b", "t~1", "x", "y"] as const;

const name = fc.constantFrom(...NAMES);

const span = fc.oneof(
  fc.constantFrom(1n, 2n, 3n, 7n, 200n, 300n, 999n, 1000n, 1001n),
  fc.bigInt({ min: 1n, max: 10n ** 6n }),
  fc.constantFrom(10n ** 18n + 7n, 2n ** 64n - 1n, 10n ** 30n, 3n * 10n ** 40n),
);
const origin = fc.oneof(
  fc.constantFrom(0n, -100n, -1n, 1n),
  fc.bigInt({ min: -(10n ** 6n), max: 10n ** 6n }),
  fc.constantFrom(-(10n ** 30n), 10n ** 29n, -(2n ** 70n)),
);

interface Axis {
  param: string;
  min: bigint;
  max: bigint;
}

/** A coordinate on an axis: a bound, inside, or (sometimes) outside. */
function coordinate(a: Axis, outside: boolean): fc.Arbitrary<bigint> {
  const inside = fc.oneof(fc.constantFrom(a.min, a.max), fc.bigInt({ min: a.min, max: a.max }));
  if (!outside) return inside;
  const s = a.max - a.min;
  return fc.oneof(
    { weight: 3, arbitrary: inside },
    { weight: 1, arbitrary: fc.bigInt({ min: a.max + 1n, max: a.max + 3n * s }) },
    { weight: 1, arbitrary: fc.bigInt({ min: a.min - 3n * s, max: a.min - 1n }) },
  );
}

const m = (entries: [string, PyJsonValue][]): Map<string, PyJsonValue> => new Map(entries);

/** A valid spec (as a Map tree, integers as bigint), with random findings of every kind. */
export const validSpecArb: fc.Arbitrary<Map<string, PyJsonValue>> = fc
  .tuple(
    fc.uniqueArray(fc.constantFrom(...PARAMS), { minLength: 2, maxLength: 2 }),
    origin, span, origin, span,
  )
  .chain(([[px, py], x0, sx, y0, sy]) => {
    const ax: Axis = { param: px!, min: x0, max: x0 + sx };
    const ay: Axis = { param: py!, min: y0, max: y0 + sy };
    const corners: [bigint, bigint][] = [[ax.min, ay.min], [ax.min, ay.max], [ax.max, ay.min], [ax.max, ay.max]];
    const cornerSamples = fc.oneof(
      { weight: 3, arbitrary: fc.shuffledSubarray(corners, { minLength: 4, maxLength: 4 }) },
      { weight: 1, arbitrary: fc.shuffledSubarray(corners) },
    );
    const extraSample = fc.tuple(coordinate(ax, true), coordinate(ay, true));
    const samples = fc.tuple(
      cornerSamples,
      fc.oneof({ weight: 3, arbitrary: fc.constant([] as [bigint, bigint][]) }, { weight: 2, arbitrary: fc.array(extraSample, { maxLength: 3 }) }),
      fc.array(name, { minLength: 8, maxLength: 8 }),
    ).map(([cs, extra, clips]) => [...cs, ...extra].map(([x, y], i) => m([["clip", clips[i % clips.length]!], ["x", x], ["y", y]])));
    const query = fc.tuple(coordinate(ax, true), coordinate(ay, true), fc.boolean()).map(([x, y, extraKey]) =>
      m([[ay.param, y], [ax.param, x], ...(extraKey ? ([["note", "ignored"]] as [string, PyJsonValue][]) : [])]),
    );
    const transition = fc.record({
      from: name, to: name,
      frames: fc.bigInt({ min: -2n, max: 40n }),
      exitPermille: fc.bigInt({ min: 0n, max: 1000n }),
      interruptible: fc.boolean(),
    }).map((t) => m([["from", t.from], ["to", t.to], ["frames", t.frames], ["exitPermille", t.exitPermille], ["interruptible", t.interruptible]]));
    const transitions = fc.array(transition, { maxLength: 10 }).chain((ts) =>
      // Repeat some transitions (same pair, maybe other frames) to make duplicates.
      fc.array(fc.nat({ max: Math.max(0, ts.length - 1) }), { maxLength: ts.length === 0 ? 0 : 3 }).map((repeats) => [
        ...ts,
        ...repeats.map((i) => m([...ts[i]!].map(([k, v]) => [k, k === "frames" ? (v as bigint) + 1n : v]))),
      ]),
    );
    return fc.record({
      project: name,
      blendName: name,
      samples,
      clipSet: fc.uniqueArray(name, { maxLength: 10 }),
      queries: fc.array(query, { maxLength: 6 }),
      states: fc.uniqueArray(name, { maxLength: 12 }),
      budget: fc.tuple(fc.bigInt({ min: 0n, max: 10n }), fc.bigInt({ min: 0n, max: 30n })),
      transitions,
    }).map((r) =>
      m([
        ["project", r.project],
        ["chapter", 9n],
        ["blendSpace", m([
          ["name", r.blendName],
          ["axes", [m([["param", ax.param], ["min", ax.min], ["max", ax.max]]), m([["param", ay.param], ["min", ay.min], ["max", ay.max]])]],
          ["samples", r.samples],
        ])],
        ["clipSet", r.clipSet],
        ["queryPoints", r.queries],
        ["states", r.states],
        ["transitionBudget", m([["minFrames", r.budget[0]], ["maxFrames", r.budget[0] + r.budget[1]]])],
        ["transitions", r.transitions],
      ]),
    );
  });

/** A non-integer number in a generated spec (the serializer takes integers only). */
export class Float {
  constructor(readonly raw: string) {}
}

/** The spec's JSON text (Float values written as their raw literal). */
export function specText(spec: PyJsonValue | Float): string {
  const floats: string[] = [];
  const swap = (v: PyJsonValue | Float): PyJsonValue => {
    if (v instanceof Float) return `\u0000float${floats.push(v.raw) - 1}`;
    if (Array.isArray(v)) return v.map(swap);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, swap(x)]));
    return v as PyJsonValue;
  };
  return dumpPythonJson(swap(spec)).replace(/"\\u0000float(\d+)"/g, (_, i: string) => floats[Number(i)]!);
}

/** One way to break a valid spec, and the diagnostic (code, pointer) it must cause. */
export interface Breakage {
  readonly label: string;
  readonly code: string;
  readonly pointer: string;
  /** Text of the broken spec. */
  readonly text: string;
}

type Tree = Map<string, PyJsonValue>;
const clone = (t: Tree): Tree => structuredClone(t);
const get = (t: PyJsonValue, ...path: (string | number)[]): PyJsonValue => {
  let v = t;
  for (const k of path) v = typeof k === "number" ? (v as PyJsonValue[])[k]! : (v as Tree).get(k)!;
  return v;
};

/** Every single-fault breakage of `base` (a valid spec with at least one sample, query and transition). */
export function breakages(base: Tree): Breakage[] {
  const out: Breakage[] = [];
  const edit = (label: string, code: string, pointer: string, f: (t: Tree) => void): void => {
    const t = clone(base);
    f(t);
    out.push({ label, code, pointer, text: specText(t) });
  };
  const bs = (t: Tree): Tree => t.get("blendSpace") as Tree;
  const axis = (t: Tree, i: number): Tree => get(t, "blendSpace", "axes", i) as Tree;
  const params = [(axis(base, 0).get("param") as string), (axis(base, 1).get("param") as string)];
  const esc = (s: string): string => s.replace(/~/g, "~0").replace(/\//g, "~1");
  edit("missing project", "E_MISSING_KEY", "", (t) => t.delete("project"));
  edit("project is a number", "E_WRONG_TYPE", "/project", (t) => t.set("project", 3n));
  edit("missing blendSpace name", "E_MISSING_KEY", "/blendSpace", (t) => bs(t).delete("name"));
  edit("three axes", "E_AXIS_COUNT", "/blendSpace/axes", (t) => (bs(t).get("axes") as PyJsonValue[]).push(m([["param", "extra"], ["min", 0n], ["max", 1n]])));
  edit("one axis", "E_AXIS_COUNT", "/blendSpace/axes", (t) => (bs(t).get("axes") as PyJsonValue[]).pop());
  edit("axis max = min", "E_AXIS_RANGE", "/blendSpace/axes/0/max", (t) => axis(t, 0).set("max", axis(t, 0).get("min")!));
  edit("axis max < min", "E_AXIS_RANGE", "/blendSpace/axes/1/max", (t) => axis(t, 1).set("max", (axis(t, 1).get("min") as bigint) - 5n));
  edit("same param twice", "E_AXIS_PARAM_DUPLICATE", "/blendSpace/axes/1/param", (t) => axis(t, 1).set("param", params[0]!));
  edit("axis min is a float", "E_NOT_INTEGER", "/blendSpace/axes/0/min", (t) => axis(t, 0).set("min", new Float("0.5") as unknown as PyJsonValue));
  edit("axis param missing", "E_MISSING_KEY", "/blendSpace/axes/0", (t) => axis(t, 0).delete("param"));
  edit("sample x is a string", "E_WRONG_TYPE", "/blendSpace/samples/0/x", (t) => (get(t, "blendSpace", "samples", 0) as Tree).set("x", "0"));
  edit("sample y is a boolean", "E_WRONG_TYPE", "/blendSpace/samples/0/y", (t) => (get(t, "blendSpace", "samples", 0) as Tree).set("y", true));
  edit("clipSet item is null", "E_WRONG_TYPE", "/clipSet/0", (t) => (t.get("clipSet") as PyJsonValue[]).unshift(null));
  edit("query misses the y param", "E_MISSING_KEY", "/queryPoints/0", (t) => (get(t, "queryPoints", 0) as Tree).delete(params[1]!));
  edit("query x is a float", "E_NOT_INTEGER", `/queryPoints/0/${esc(params[0]!)}`, (t) => (get(t, "queryPoints", 0) as Tree).set(params[0]!, new Float("1.5e0") as unknown as PyJsonValue));
  edit("states is an object", "E_WRONG_TYPE", "/states", (t) => t.set("states", m([])));
  edit("budget inverted", "E_BUDGET_RANGE", "/transitionBudget/maxFrames", (t) => (t.get("transitionBudget") as Tree).set("maxFrames", ((t.get("transitionBudget") as Tree).get("minFrames") as bigint) - 1n));
  edit("budget maxFrames missing", "E_MISSING_KEY", "/transitionBudget", (t) => (t.get("transitionBudget") as Tree).delete("maxFrames"));
  edit("frames is a float", "E_NOT_INTEGER", "/transitions/0/frames", (t) => (get(t, "transitions", 0) as Tree).set("frames", new Float("8.0") as unknown as PyJsonValue));
  edit("exitPermille is a string", "E_WRONG_TYPE", "/transitions/0/exitPermille", (t) => (get(t, "transitions", 0) as Tree).set("exitPermille", "800"));
  edit("interruptible is 1", "E_NOT_BOOLEAN", "/transitions/0/interruptible", (t) => (get(t, "transitions", 0) as Tree).set("interruptible", 1n));
  edit("transition to missing", "E_MISSING_KEY", "/transitions/0", (t) => (get(t, "transitions", 0) as Tree).delete("to"));
  edit("root is an empty object", "E_MISSING_KEY", "", (t) => {
    for (const k of [...t.keys()]) t.delete(k);
  });
  // Text-level faults: a duplicate key, a lone surrogate, a syntax error.
  const text = specText(base);
  out.push({ label: "duplicate key", code: "E_DUPLICATE_KEY", pointer: "/project", text: text.replace(/^\{\n/, '{\n  "project": "first",\n') });
  out.push({ label: "lone surrogate", code: "E_BAD_UNICODE", pointer: "/states/0", text: text.replace(/"states": (\[\]|\[\n)/, (s) => (s.endsWith("[]") ? '"states": ["\\ud800"]' : `${s}    "\\udc00",\n`)) });
  out.push({ label: "root is an array", code: "E_WRONG_TYPE", pointer: "", text: `[${text}]` });
  out.push({ label: "trailing comma", code: "E_JSON_SYNTAX", pointer: "", text: text.replace(/\n\}\n$/, ",\n}\n") });
  return out;
}

/**
 * A copy of a generated spec with every finding removed (exactly the four corners, known clips, queries
 * clamped into the axes, transitions between known states, within budget, no repeated pair): clean input.
 */
export function tidy(spec: Tree): Tree {
  const t = clone(spec);
  const bs = t.get("blendSpace") as Tree;
  const [ax, ay] = bs.get("axes") as [Tree, Tree];
  const [x0, x1, y0, y1] = [ax.get("min"), ax.get("max"), ay.get("min"), ay.get("max")] as bigint[];
  const clips = ["c0", ...NAMES].slice(0, 4);
  const corners: [bigint, bigint][] = [[x0!, y0!], [x0!, y1!], [x1!, y0!], [x1!, y1!]];
  bs.set("samples", corners.map(([x, y], i) => m([["clip", clips[i]!], ["x", x], ["y", y]])));
  t.set("clipSet", [...new Set([...(t.get("clipSet") as string[]), ...clips])]);
  const clamp = (v: bigint, lo: bigint, hi: bigint): bigint => (v < lo ? lo : v > hi ? hi : v);
  for (const q of t.get("queryPoints") as Tree[]) {
    q.set(ax.get("param") as string, clamp(q.get(ax.get("param") as string) as bigint, x0!, x1!));
    q.set(ay.get("param") as string, clamp(q.get(ay.get("param") as string) as bigint, y0!, y1!));
  }
  const states = new Set(t.get("states") as string[]);
  const budget = t.get("transitionBudget") as Tree;
  const seen = new Set<string>();
  t.set("transitions", (t.get("transitions") as Tree[]).filter((tr) => {
    const pair = JSON.stringify([tr.get("from"), tr.get("to")]);
    if (!states.has(tr.get("from") as string) || !states.has(tr.get("to") as string) || seen.has(pair)) return false;
    seen.add(pair);
    tr.set("frames", clamp(tr.get("frames") as bigint, budget.get("minFrames") as bigint, budget.get("maxFrames") as bigint));
    return true;
  }));
  return t;
}
