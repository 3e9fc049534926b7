import { test } from "node:test";
import assert from "node:assert/strict";
import { dumpPythonJson, pythonJsonString } from "../../src/blend-check/python-json-dump.ts";

test("indents by 2, sorts keys by code point, writes [] and {} for empty containers, ends with a newline", () => {
  const text = dumpPythonJson({ b: [], a: ["x", 1n], "\u{1F600}": {}, "\uFF5E": 10n ** 30n, c: new Map([["z", true], ["y", null]]) });
  assert.equal(
    text,
    '{\n  "a": [\n    "x",\n    1\n  ],\n  "b": [],\n  "c": {\n    "y": null,\n    "z": true\n  },\n  "\uFF5E": 1000000000000000000000000000000,\n  "\u{1F600}": {}\n}\n',
  );
});

test("escapes strings exactly as Python's json with ensure_ascii=False", () => {
  assert.equal(pythonJsonString('q"b\\n\nr\rt\tb\bf\f'), '"q\\"b\\\\n\\nr\\rt\\tb\\bf\\f"');
  assert.equal(pythonJsonString("\u0000\u0001\u001f"), '"\\u0000\\u0001\\u001f"');
  // DEL, U+2028, non-ASCII and astral characters are kept as they are.
  assert.equal(pythonJsonString("\u007f\u2028é静\u{1F600}"), '"\u007f\u2028é静\u{1F600}"');
  assert.equal(pythonJsonString("/"), '"/"');
});

test("a non-integer number is a programmer error", () => {
  assert.throws(() => dumpPythonJson(0.5), { name: "AnimgraphError", code: "ERR_ARGUMENT", message: /dumpPythonJson: value must be a safe integer/ });
  assert.throws(() => dumpPythonJson({ a: [2 ** 60] }), { name: "AnimgraphError", code: "ERR_ARGUMENT", message: /value\.a\[0\] must be a safe integer/ });
});
