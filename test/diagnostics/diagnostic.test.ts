import { test } from "node:test";
import assert from "node:assert/strict";
import { childPointer, compareDiagnostics, formatDiagnostic, type Diagnostic } from "../../src/diagnostics/diagnostic.ts";

test("formats as file: pointer: message [CODE]", () => {
  const d: Diagnostic = { code: "E_UNKNOWN_STATE", severity: "error", file: "spec.json", pointer: "/transitions/6/to", message: 'unknown state "Ghost"' };
  assert.equal(formatDiagnostic(d), 'spec.json: /transitions/6/to: unknown state "Ghost" [E_UNKNOWN_STATE]');
  assert.equal(formatDiagnostic({ ...d, pointer: "", severity: "warning" }), 'spec.json: warning: unknown state "Ghost" [E_UNKNOWN_STATE]');
});

test("pointer tokens escape ~ and /; ordering is by file then position", () => {
  assert.equal(childPointer("/a", "b/c~d"), "/a/b~1c~0d");
  const mk = (file: string, line: number): Diagnostic => ({ code: "X", severity: "error", file, pointer: "", message: "", line });
  const sorted = [mk("b", 1), mk("a", 9), mk("a", 2)].sort(compareDiagnostics);
  assert.deepEqual(sorted.map((d) => `${d.file}${d.line}`), ["a2", "a9", "b1"]);
});
