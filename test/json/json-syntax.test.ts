// parseJsonSyntax replaced jsonc-parser's parseTree in parseJsonText to keep the browser runtime small.
// jsonc-parser stays a dev dependency as the reference: on valid and broken JSON alike the two must
// give the same tree and the same errors at the same offsets (jsonc-parser's recovery included), so
// no diagnostic a user sees changed.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import { parseJsonSyntax, type SyntaxNode } from "../../src/json/json-syntax.ts";
import { parseJsonText } from "../../src/json/index.ts";

function reference(text: string): { tree: Node | undefined; errors: { message: string; offset: number }[] } {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const words = (code: string): string => code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return { tree, errors: errors.map((e) => ({ message: words(printParseErrorCode(e.error)), offset: e.offset })) };
}

/** What parseJsonText reads of a node: type, offset, length, value and children (a property: [key, value]). */
function shape(node: Node | SyntaxNode | undefined): unknown {
  if (!node) return undefined;
  const children = node.children?.map(shape);
  if (node.type === "property") return { type: "property", offset: node.offset, children };
  return { type: node.type, offset: node.offset, length: node.length, value: node.value, ...(children ? { children } : {}) };
}

function assertSame(text: string): void {
  const ours = parseJsonSyntax(text);
  const theirs = reference(text);
  assert.deepEqual(ours.errors, theirs.errors, JSON.stringify(text));
  if (theirs.errors.length === 0) assert.deepEqual(shape(ours.tree), shape(theirs.tree), JSON.stringify(text));
}

test("valid JSON: the same tree as jsonc-parser, offsets and values included", () => {
  fc.assert(fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 4 }), (value, indent) => {
    assertSame(JSON.stringify(value, null, indent));
    assertSame(JSON.stringify(value, null, "\t").replace(/\n/g, "\r\n"));
  }), { numRuns: 300 });
});

// Broken JSON: valid documents with characters inserted, removed or replaced from JSON's own alphabet
// (and a few it lacks), plus short texts made of those characters alone.
const piece = fc.constantFrom("{", "}", "[", "]", ",", ":", '"', "\\", "/", "*", "-", "0", "1", ".", "e", "E", "+",
  " ", "\n", "\r", "\t", "\f", "\u0001", "\u00a0", "u", "a", "true", "nul", "null", "//", "/*", "*/", "\\u12", "\\x", "1.", "1e", "-a", "01");

test("broken JSON: the same errors at the same offsets as jsonc-parser, recovery included", () => {
  const edited = fc.tuple(fc.jsonValue(), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), piece), { minLength: 1, maxLength: 4 }))
    .map(([value, edits]) => {
      let text = JSON.stringify(value, null, 1);
      for (const [at, remove, insert] of edits) {
        const i = at % (text.length + 1);
        text = text.slice(0, i) + insert + text.slice(i + remove);
      }
      return text;
    });
  fc.assert(fc.property(edited, assertSame), { numRuns: 2000 });
  fc.assert(fc.property(fc.array(piece, { maxLength: 12 }).map((p) => p.join("")), assertSame), { numRuns: 2000 });
});

test("cases jsonc-parser treats its own way stay as they were", () => {
  for (const text of ["", " ", "/*", "/*/", "/* x", "// c", "{} //", "-", "- 1", "01", "1.", "1.e5", "1e", "1e+", "[1,]", "{,}", '{"a" 1}',
    '{"a":}', '"\\u12"', '"a\nb"', '"\u0001"', '"\\q"', "\f1", "[1 2", "{\"a\":1", "nulls", "true false", "\u00a0[]", "[/]", "{1:2}"]) assertSame(text);
});

test("parseJsonText's syntax messages read as before", () => {
  assert.deepEqual(parseJsonText('{"a": 1,}', "f.json").diagnostics.map((d) => d.message),
    ["not valid JSON at line 1, column 9: property name expected", "not valid JSON at line 1, column 9: value expected"]);
  assert.deepEqual(parseJsonText("[1 // x\n]", "f.json").diagnostics.map((d) => d.message),
    ["not valid JSON at line 1, column 4: invalid comment token"]);
});
