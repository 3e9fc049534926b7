import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseJsonText, JsonReader } from "../../src/json/index.ts";
import { readJsonFile } from "../../src/json/read-json-file.ts";

test("keeps pointers, positions and exact big integers", () => {
  const doc = parseJsonText('{\n  "a": [1, 123456789012345678901234567890, 2.5],\n  "__proto__": {"x/y": true}\n}', "f.json");
  assert.deepEqual(doc.diagnostics, []);
  const root = doc.root!;
  assert.equal(root.kind, "object");
  if (root.kind !== "object") return;
  const a = root.members.get("a")!;
  assert.equal(a.kind, "array");
  if (a.kind !== "array") return;
  const big = a.items[1]!;
  assert.equal(big.kind === "number" && big.integer, 123456789012345678901234567890n);
  assert.equal(big.pointer, "/a/1");
  assert.deepEqual(doc.source.position(big.offset), { line: 2, column: 12 });
  const frac = a.items[2]!;
  assert.equal(frac.kind === "number" && frac.integer, undefined);
  const proto = root.members.get("__proto__")!;
  assert.equal(proto.kind, "object");
  if (proto.kind === "object") assert.equal(proto.members.get("x/y")!.pointer, "/__proto__/x~1y");
  assert.equal(({} as Record<string, unknown>)["x/y"], undefined);
});

test("syntax errors, comments, trailing commas and duplicate keys are diagnostics", () => {
  for (const text of ["{", '{"a": 1,}', '{"a": 1 // c\n}', "", "[1 2]", "nul"]) {
    const doc = parseJsonText(text, "bad.json");
    assert.equal(doc.root, undefined, text);
    assert.ok(doc.diagnostics.length > 0 && doc.diagnostics.every((d) => d.code === "E_JSON_SYNTAX"), text);
  }
  const dup = parseJsonText('{"a": 1, "a": 2}', "dup.json");
  assert.deepEqual(dup.diagnostics.map((d) => [d.code, d.pointer]), [["E_DUPLICATE_KEY", "/a"]]);
});

test("deep nesting and unpaired surrogates are rejected without a crash", () => {
  const deep = parseJsonText("[".repeat(200_000) + "]".repeat(200_000), "deep.json");
  assert.equal(deep.diagnostics[0]!.code, "E_JSON_TOO_DEEP");
  const deep2 = parseJsonText("[".repeat(100) + "]".repeat(100), "deep2.json");
  assert.equal(deep2.diagnostics[0]!.code, "E_JSON_TOO_DEEP");
  const lone = parseJsonText('{"name": "\\ud800"}', "u.json");
  assert.deepEqual(lone.diagnostics.map((d) => [d.code, d.pointer]), [["E_BAD_UNICODE", "/name"]]);
});

test("file problems: missing, not UTF-8, too large, BOM", () => {
  const dir = mkdtempSync(join(tmpdir(), "animgraph-json-"));
  assert.equal(readJsonFile(join(dir, "nope.json")).diagnostics[0]!.code, "E_FILE_NOT_FOUND");
  writeFileSync(join(dir, "latin1.json"), Buffer.from([0x22, 0xe9, 0x22]));
  assert.equal(readJsonFile(join(dir, "latin1.json")).diagnostics[0]!.code, "E_NOT_UTF8");
  writeFileSync(join(dir, "big.json"), "[" + "0,".repeat(100) + "0]");
  assert.equal(readJsonFile(join(dir, "big.json"), { maxBytes: 50 }).diagnostics[0]!.code, "E_FILE_TOO_LARGE");
  writeFileSync(join(dir, "bom.json"), "\ufeff[1]");
  const bom = readJsonFile(join(dir, "bom.json"));
  assert.equal(bom.root?.kind, "array");
  assert.equal(bom.diagnostics[0]!.code, "W_BOM");
});

test("JsonReader records one diagnostic per mismatch and keeps going", () => {
  const doc = parseJsonText('{"s": 1, "i": 1.5, "b": "yes", "n": "x"}', "r.json");
  const r = new JsonReader(doc);
  const obj = r.object(doc.root);
  r.string(r.member(obj, "s"));
  r.integer(r.member(obj, "i"));
  r.boolean(r.member(obj, "b"));
  r.number(r.member(obj, "n"));
  r.member(obj, "missing");
  assert.deepEqual(
    doc.diagnostics.map((d) => [d.code, d.pointer]),
    [["E_WRONG_TYPE", "/s"], ["E_NOT_INTEGER", "/i"], ["E_NOT_BOOLEAN", "/b"], ["E_WRONG_TYPE", "/n"], ["E_MISSING_KEY", ""]],
  );
});
