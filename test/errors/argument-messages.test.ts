// The messages the argument checks give, function by function: each names the function, the argument
// (with the field at fault) and what was expected, under a stable code (docs/api-errors.md). The
// property test (public-exports.test.ts) holds every export to AnimgraphError; this one to the words.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  AnimgraphError, formatBlendSummary, formatDiagnostic, formatFixed, formatStepLine, hasErrors, locateDiagnostics, nodeAtPointer,
  padRight, parseDt, parseJsonText, sortedByCodePoint, toPlainValue,
} from "../../src/index.ts";
import { toSarif } from "../../src/node.ts";

/** Asserts that `body` throws an AnimgraphError with this code and a message matching `message`. */
export function throwsArgument(body: () => unknown, code: string, message: RegExp): void {
  assert.throws(body, (error: unknown) => {
    assert.ok(error instanceof AnimgraphError, `expected AnimgraphError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.match(error.message, message);
    return true;
  });
}

test("reports, snapshots and diagnostics: the field at fault is named", () => {
  throwsArgument(() => formatBlendSummary(undefined as never), "ERR_ARGUMENT", /^formatBlendSummary: report must be a BlendCheckReport \(from analyzeBlendSpec\); got undefined$/);
  throwsArgument(() => formatBlendSummary({ project: "p", blendSpace: "b", sampleCount: 4 } as never), "ERR_ARGUMENT", /^formatBlendSummary: report\.queryCount must be a number, as in a BlendCheckReport/);
  throwsArgument(() => formatStepLine(0, { layers: [], events: [], rootDelta: [0, 0] } as never), "ERR_OUT_OF_RANGE", /formatStepLine: snap\.rootDelta must be an array or typed array of at least 4 numbers; got an array of length 2/);
  throwsArgument(() => formatStepLine(0, { layers: [null], events: [], rootDelta: [0, 0, 0, 0] } as never), "ERR_ARGUMENT", /formatStepLine: snap\.layers\[0\] must be LayerSnapshot; got null/);
  throwsArgument(() => formatDiagnostic({ code: "E_X", severity: "error", file: "a.json", message: "m" } as never), "ERR_ARGUMENT", /formatDiagnostic: d\.pointer must be a string, as in a Diagnostic; got undefined/);
  throwsArgument(() => hasErrors([{ severity: "error" }, 3] as never), "ERR_ARGUMENT", /hasErrors: diagnostics\[1\] must be Diagnostic; got the number 3/);
  throwsArgument(() => toSarif([], { version: 2 } as never), "ERR_ARGUMENT", /toSarif: options\.version must be a string or undefined/);
  assert.equal(hasErrors([{ code: "W", severity: "warning", file: "f", pointer: "", message: "m" }]), false);
});

test("JSON: a text, a node and a document are told apart from what was passed instead", () => {
  throwsArgument(() => parseJsonText({ a: 1 } as never, "spec.json"), "ERR_ARGUMENT", /^parseJsonText: text must be a string; got an object$/);
  throwsArgument(() => parseJsonText("{}", "spec.json", null as never), "ERR_ARGUMENT", /parseJsonText: limits must be an object; got null/);
  throwsArgument(() => toPlainValue({ kind: "object", members: {} } as never), "ERR_ARGUMENT", /toPlainValue: node must be a JsonNode/);
  throwsArgument(() => nodeAtPointer(parseJsonText("{}", "a.json").root, 3 as never), "ERR_ARGUMENT", /nodeAtPointer: pointer must be a string; got the number 3/);
  throwsArgument(() => locateDiagnostics({ file: "a.json" } as never, []), "ERR_ARGUMENT", /locateDiagnostics: doc must be a JsonDocument/);
  // Bad content is still diagnostics, not a throw.
  const doc = parseJsonText("{ \"a\": [1, }", "bad.json");
  assert.equal(doc.diagnostics[0]?.code, "E_JSON_SYNTAX");
  assert.deepEqual(toPlainValue(parseJsonText("{\"a\":[1,{\"b\":null}]}", "a.json").root!), Object.assign(Object.create(null), { a: [1, Object.assign(Object.create(null), { b: null })] }));
  const [located] = locateDiagnostics(parseJsonText("{\n  \"a\": 1\n}", "a.json"), [{ code: "E_X", severity: "error", file: "a.json", pointer: "/a/b", message: "m" }]);
  assert.deepEqual([located?.pointer, located?.line], ["/a", 2]);
});

test("number and text helpers: types are ERR_ARGUMENT, values outside the range ERR_OUT_OF_RANGE", () => {
  throwsArgument(() => formatFixed(0.5, 101), "ERR_OUT_OF_RANGE", /formatFixed: digits must be an integer in \[0, 100\]; got the number 101/);
  throwsArgument(() => formatFixed("0.5" as never, 2), "ERR_ARGUMENT", /formatFixed: x must be a number/);
  throwsArgument(() => padRight("ab", Number.POSITIVE_INFINITY), "ERR_ARGUMENT", /padRight: width must be an integer/);
  throwsArgument(() => sortedByCodePoint("cba" as never), "ERR_ARGUMENT", /sortedByCodePoint: values must be an iterable of strings/);
  throwsArgument(() => sortedByCodePoint(["b", 1] as never), "ERR_ARGUMENT", /sortedByCodePoint: values\[1\] must be a string; got the number 1/);
  throwsArgument(() => parseDt(null as never), "ERR_ARGUMENT", /parseDt: text must be a number or a string/);
  assert.equal(formatFixed(0.125, 2), "0.12");
  assert.equal(padRight("ab", 4), "ab  ");
  assert.deepEqual(sortedByCodePoint(new Set(["b", "a"])), ["a", "b"]);
  assert.equal(parseDt("1/60"), 1 / 60);
});
