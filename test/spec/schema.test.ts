import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readJsonFile } from "../../src/json/read-json-file.ts";
import { lintAssetsFromGltf } from "../../src/lint/clips-from-gltf.ts";
import { lintDocument } from "../../src/lint/lint-document.ts";
import { isSeedSpec } from "../../src/lint/lint-seed-spec.ts";
import { SPEC_ENUMS, SPEC_KEYS, type SpecObjectKind } from "../../src/spec/spec-keys.ts";
import { repoPath } from "../helpers/assets.ts";
import { baseSpec, parseObject, statesOf, transitionsOf, type Json } from "./spec-fixtures.ts";

type Schema = Record<string, unknown>;
const schema = JSON.parse(readFileSync(repoPath("schema/animgraph.schema.json"), "utf8")) as Schema;
const defs = schema["$defs"] as Record<string, Schema>;

function schemaFor(kind: SpecObjectKind): Schema {
  return kind === "root" ? schema : defs[kind]!;
}

test("the schema is draft 2020-12 JSON and every $ref resolves", () => {
  assert.equal(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
  const refs: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k === "$ref" && typeof x === "string") refs.push(x);
        else walk(x);
      }
    }
  };
  walk(schema);
  assert.ok(refs.length > 10);
  for (const ref of refs) {
    assert.match(ref, /^#\/\$defs\/[A-Za-z0-9]+$/);
    assert.ok(defs[ref.slice("#/$defs/".length)], `unresolved ${ref}`);
  }
});

test("each object kind in the schema lists exactly the parser's accepted keys, closed to others but x-…", () => {
  for (const kind of Object.keys(SPEC_KEYS) as SpecObjectKind[]) {
    const s = schemaFor(kind);
    assert.ok(s, `schema has no definition for ${kind}`);
    assert.deepEqual(Object.keys(s["properties"] as Schema).sort(), [...SPEC_KEYS[kind]].sort(), kind);
    assert.equal(s["additionalProperties"], false, `${kind} must be closed`);
    assert.deepEqual(s["patternProperties"], { "^x-": true }, `${kind} allows extension keys`);
  }
});

test("the schema's enums are the parser's", () => {
  const where: Record<keyof typeof SPEC_ENUMS, [SpecObjectKind, string]> = {
    paramType: ["parameter", "type"],
    layerMode: ["layer", "mode"],
    loop: ["state", "loop"],
    weighting: ["blend1d", "weighting"],
    blend2dMode: ["blend2d", "mode"],
    op: ["condition", "op"],
    curve: ["transition", "curve"],
    interruptionSource: ["interruption", "source"],
    transitionBlend: ["transition", "blend"],
    mirrorAxis: ["mirror", "axis"],
    ikSolver: ["ikLayer", "solver"],
  };
  for (const [name, [kind, key]] of Object.entries(where) as [keyof typeof SPEC_ENUMS, [SpecObjectKind, string]][]) {
    const prop = (schemaFor(kind)["properties"] as Record<string, Schema>)[key]!;
    assert.deepEqual(prop["enum"], [...SPEC_ENUMS[name]], name);
  }
});

test("the schema's required keys are the ones the parser reports missing", () => {
  // Remove each required key of each kind from a valid spec: the parser must report E_MISSING_KEY.
  const cases: [SpecObjectKind, (s: Json) => Json][] = [
    ["root", (s) => s],
    ["layer", (s) => (s["layers"] as Json[])[0]!],
    ["machine", (s) => (s["layers"] as Json[])[0]!["machine"] as Json],
    ["transition", (s) => transitionsOf(s)[0]!],
    // An equality test: its op and value are optional (an ordering op needs a value, as documented).
    ["condition", (s) => ((transitionsOf(s)[1]!["conditions"] as Json[])[1] = { param: "grounded", op: "==", value: true })],
    ["parameter", (s) => (s["parameters"] as Json)["speed"] as Json],
    ["mask", (s) => (s["masks"] as Json)["upper"] as Json],
    ["event", (s) => ((statesOf(s)["Run"] as Json)["events"] as Json[])[0]!],
  ];
  for (const [kind, pick] of cases) {
    const required = schemaFor(kind)["required"] as string[];
    assert.ok(required.length > 0, kind);
    for (const key of required) {
      const spec = baseSpec();
      delete pick(spec)[key];
      const r = parseObject(spec);
      assert.ok(r.diagnostics.some((d) => d.code === "E_MISSING_KEY"), `${kind}.${key}: ${JSON.stringify(r.diagnostics)}`);
    }
    // And keys the schema does not require are optional to the parser too.
    for (const key of SPEC_KEYS[kind].filter((k) => !required.includes(k))) {
      const spec = baseSpec();
      delete pick(spec)[key];
      assert.ok(!parseObject(spec).diagnostics.some((d) => d.code === "E_MISSING_KEY"), `${kind}.${key} should be optional`);
    }
  }
});

// Snippets the schema and the parser must judge alike (valid: parses; invalid: a specific error).
const SNIPPETS: { name: string; mutate: (s: Json) => void; valid: boolean }[] = [
  { name: "integer frame budget", mutate: (s) => (s["transitionBudget"] = { minFrames: 2, maxFrames: 20 }), valid: true },
  { name: "x- key on a condition", mutate: (s) => ((transitionsOf(s)[0]!["conditions"] as Json[])[0]!["x-why"] = "design"), valid: true },
  { name: "weight from a parameter", mutate: (s) => ((s["layers"] as Json[])[0]!["weight"] = { param: "speed" }), valid: true },
  { name: "exitPermille alone", mutate: (s) => (transitionsOf(s)[0]!["exitPermille"] = 800), valid: true },
  { name: "durationFrames 0", mutate: (s) => (transitionsOf(s)[0]!["durationFrames"] = 0), valid: true },
  { name: "both duration forms", mutate: (s) => Object.assign(transitionsOf(s)[0]!, { duration: 1, durationFrames: 3 }), valid: false },
  { name: "state named *", mutate: (s) => (statesOf(s)["*"] = { clip: "a" }), valid: false },
  { name: "motion missing", mutate: (s) => (statesOf(s)["Idle"] = {}), valid: false },
  { name: "three blend params", mutate: (s) => (statesOf(s)["Idle"] = { blend2d: { params: ["a", "b", "c"], samples: [{ x: 0, y: 0, clip: "a" }] } }), valid: false },
  { name: "version 2", mutate: (s) => (s["animgraph"] = 2), valid: false },
  { name: "layer weight 2", mutate: (s) => ((s["layers"] as Json[])[0]!["weight"] = 2), valid: false },
  { name: "a mirrored clip state", mutate: (s) => ((statesOf(s)["Idle"] as Json)["mirror"] = true), valid: true },
  { name: "mirror settings", mutate: (s) => (s["mirror"] = { axis: "z", pairs: [["a", "b"], ["c", "c"]], detect: false }), valid: true },
  { name: "a mirror pair of three", mutate: (s) => (s["mirror"] = { pairs: [["a", "b", "c"]] }), valid: false },
  { name: "mirror axis w", mutate: (s) => (s["mirror"] = { axis: "w" }), valid: false },
  { name: "mirror as a string", mutate: (s) => ((statesOf(s)["Idle"] as Json)["mirror"] = "yes"), valid: false },
];
for (const snip of SNIPPETS) {
  test(`schema and parser agree: ${snip.name} is ${snip.valid ? "valid" : "invalid"}`, () => {
    const spec = baseSpec();
    snip.mutate(spec);
    const r = parseObject(spec);
    assert.equal(r.spec !== undefined, snip.valid, JSON.stringify(r.diagnostics));
  });
}

test("every bundled example spec reads without errors; graph specs lint without errors against their GLB", async () => {
  let count = 0;
  for (const dir of ["robot", "fox", "stardust-inn"]) {
    const path = repoPath(`examples/${dir}`);
    if (!existsSync(path)) continue;
    const names = readdirSync(path);
    const glb = names.find((n) => n.endsWith(".glb"));
    const assets = glb ? await lintAssetsFromGltf(join(path, glb)) : undefined;
    for (const name of names.filter((n) => n.endsWith(".json"))) {
      const doc = readJsonFile(join(path, name));
      const isGraph = name.endsWith(".animgraph.json");
      if (!isGraph && !isSeedSpec(doc)) continue; // timelines and other inputs of other commands
      const result = lintDocument(doc, isGraph && assets?.ok ? { clips: assets.clips, joints: assets.joints } : {});
      assert.notEqual(result.exitCode, 2, `${dir}/${name}: ${JSON.stringify(result.diagnostics)}`);
      if (isGraph) {
        assert.equal(result.format, "animgraph");
        assert.deepEqual(result.diagnostics.filter((d) => d.severity === "error"), [], `${dir}/${name}`);
      }
      count++;
    }
  }
  assert.ok(count >= 1, "at least the stardust-inn example exists");
});
