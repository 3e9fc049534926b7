import { childPointer, type Diagnostic } from "../diagnostics/diagnostic.ts";
import type { JsonNode } from "./json-node.ts";
import { SourceText } from "./source-text.ts";
import { expectObject, expectString } from "../errors/check-argument.ts";
import { PARSER_SAFE_DEPTH, tooDeepAt } from "./nesting-depth.ts";
import { parseJsonSyntax, type SyntaxNode as Node } from "./json-syntax.ts";

/** Limits applied to untrusted JSON before it is parsed. */
export interface JsonLimits {
  /** Largest file accepted, in bytes. Default 16 MiB. */
  readonly maxBytes?: number;
  /** Deepest nesting of arrays and objects accepted. Default 64. */
  readonly maxDepth?: number;
}

/**
 * Longest number literal accepted: Python's default limit on integer-string conversion (4300 digits),
 * which the blend-check reference tier runs into as well; converting longer integers exactly is
 * quadratic.
 */
export const MAX_NUMBER_DIGITS = 4300;

/**
 * Most values (objects, arrays, strings, numbers, …) one document may hold: every value becomes a
 * positioned node with its JSON pointer, about 0.5 kB each, so this bounds memory (~130 MB) and time
 * (~1.5 s) whatever the file. No spec comes near it: the robot graph holds about 400.
 */
export const MAX_JSON_VALUES = 262_144;

/** Values in the parsed tree, counted without recursion; stops counting past `cap`. */
function countValues(root: Node, cap: number): number {
  const stack: Node[] = [root];
  let n = 0;
  while (stack.length > 0 && n <= cap) {
    const node = stack.pop()!;
    if (node.type !== "property") n++;
    if (node.children) for (const c of node.children) stack.push(c);
  }
  return n;
}

export const DEFAULT_JSON_LIMITS = { maxBytes: 16 * 1024 * 1024, maxDepth: 64 } as const;

/** A JSON file read for validation: its text, its tree (when it parsed) and the problems found. */
export interface JsonDocument {
  readonly file: string;
  readonly text: string;
  /** The root value; undefined when the text is not usable JSON (see `diagnostics`). */
  readonly root: JsonNode | undefined;
  readonly diagnostics: Diagnostic[];
  readonly source: SourceText;
}

/** Builds a diagnostic located at a node (or an offset) of a document. */
export function diagnosticAt(
  doc: { file: string; source: SourceText },
  at: { pointer: string; offset: number } | undefined,
  code: string,
  message: string,
  severity: Diagnostic["severity"] = "error",
): Diagnostic {
  if (!at) return { code, severity, file: doc.file, pointer: "", message };
  // A document built from a plain object has no text, so no line and column (offset -1).
  if (at.offset < 0) return { code, severity, file: doc.file, pointer: at.pointer, message };
  const { line, column } = doc.source.position(at.offset);
  return { code, severity, file: doc.file, pointer: at.pointer, message, line, column };
}

/**
 * Parses strict JSON (no comments, no trailing commas) into a positioned tree. Never throws: every
 * problem is a diagnostic (`E_JSON_SYNTAX`, `E_JSON_TOO_DEEP`, `E_DUPLICATE_KEY`, `E_BAD_UNICODE`).
 */
export function parseJsonText(text: string, file: string, limits: JsonLimits = {}): JsonDocument {
  expectString("parseJsonText", "text", text);
  expectString("parseJsonText", "file", file);
  expectObject("parseJsonText", "limits", limits);
  const maxDepth = limits.maxDepth ?? DEFAULT_JSON_LIMITS.maxDepth;
  const source = new SourceText(text);
  const diagnostics: Diagnostic[] = [];
  const doc: JsonDocument = { file, text, root: undefined, diagnostics, source };

  // Up to PARSER_SAFE_DEPTH the tree is built and the too-deep value named by its pointer; past it the
  // recursive parser could overflow the stack, so the scan's position is all there is.
  const deepAt = tooDeepAt(text, Math.max(maxDepth, PARSER_SAFE_DEPTH));
  if (deepAt >= 0) {
    const { line, column } = source.position(deepAt);
    diagnostics.push({
      code: "E_JSON_TOO_DEEP", severity: "error", file, pointer: "", line, column,
      message: `nesting deeper than ${maxDepth} levels (line ${line}, column ${column})`,
    });
    return doc;
  }
  const { tree, errors } = parseJsonSyntax(text);
  if (errors.length > 0 || !tree) {
    for (const e of errors.slice(0, 10)) {
      const { line, column } = source.position(e.offset);
      diagnostics.push({
        code: "E_JSON_SYNTAX",
        severity: "error",
        file,
        pointer: "",
        message: `not valid JSON at line ${line}, column ${column}: ${e.message}`,
        line,
        column,
      });
    }
    if (diagnostics.length === 0) diagnostics.push(diagnosticAt(doc, undefined, "E_JSON_SYNTAX", "not valid JSON: empty"));
    return doc;
  }
  const values = countValues(tree, MAX_JSON_VALUES);
  if (values > MAX_JSON_VALUES) {
    diagnostics.push(diagnosticAt(doc, undefined, "E_JSON_TOO_LARGE", `the document holds more than ${MAX_JSON_VALUES} values (the limit)`));
    return doc;
  }
  const root = convert(tree, "", 0, maxDepth, doc);
  return { ...doc, root };
}

function checkString(value: string, at: { pointer: string; offset: number }, doc: JsonDocument): void {
  if (!value.isWellFormed()) {
    doc.diagnostics.push(diagnosticAt(doc, at, "E_BAD_UNICODE", "string contains an unpaired surrogate (not valid Unicode text)"));
  }
}

function convert(node: Node, pointer: string, depth: number, maxDepth: number, doc: JsonDocument): JsonNode {
  const base = { pointer, offset: node.offset, length: node.length };
  if ((node.type === "object" || node.type === "array") && depth >= maxDepth) {
    doc.diagnostics.push(diagnosticAt(doc, base, "E_JSON_TOO_DEEP", `nesting deeper than ${maxDepth} levels`));
    return { ...base, kind: "null" };
  }
  switch (node.type) {
    case "object": {
      const members = new Map<string, JsonNode>();
      for (const prop of node.children ?? []) {
        const [keyNode, valueNode] = prop.children ?? [];
        if (!keyNode || !valueNode) continue;
        const key = String(keyNode.value);
        const at = { pointer: childPointer(pointer, key), offset: keyNode.offset };
        checkString(key, at, doc);
        if (members.has(key)) {
          doc.diagnostics.push(diagnosticAt(doc, at, "E_DUPLICATE_KEY", `key "${key}" appears more than once`));
        }
        members.set(key, convert(valueNode, at.pointer, depth + 1, maxDepth, doc));
      }
      return { ...base, kind: "object", members };
    }
    case "array":
      return {
        ...base,
        kind: "array",
        items: (node.children ?? []).map((c, i) => convert(c, childPointer(pointer, i), depth + 1, maxDepth, doc)),
      };
    case "string": {
      const value = String(node.value);
      checkString(value, base, doc);
      return { ...base, kind: "string", value };
    }
    case "number": {
      const raw = doc.text.slice(node.offset, node.offset + node.length);
      if (raw.length > MAX_NUMBER_DIGITS) {
        doc.diagnostics.push(diagnosticAt(doc, base, "E_JSON_NUMBER_TOO_LONG", `a number of ${raw.length} characters; the limit is ${MAX_NUMBER_DIGITS} (as Python's int conversion)`));
        return { ...base, kind: "null" };
      }
      const integer = /^-?\d+$/.test(raw) ? BigInt(raw) : undefined;
      return { ...base, kind: "number", value: Number(raw), raw, integer };
    }
    case "boolean":
      return { ...base, kind: "boolean", value: node.value === true };
    default:
      return { ...base, kind: "null" };
  }
}

