import { childPointer, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { argumentError, describeValue, expectOptionalObject, expectString } from "../errors/check-argument.ts";
import type { JsonNode } from "./json-node.ts";
import { DEFAULT_JSON_LIMITS, MAX_JSON_VALUES, parseJsonText, type JsonDocument, type JsonLimits } from "./parse-json.ts";
import { SourceText } from "./source-text.ts";

/**
 * A spec, timeline or bone map as the API takes it: JSON text, a document from `parseJsonText`, or the
 * plain JavaScript object an app builds in code (or got from `JSON.parse`).
 */
export type JsonInput = string | JsonDocument | object;

/** Nodes of a document built from a value have no place in a text; `diagnosticAt` leaves out line and column for them. */
export const NO_OFFSET = -1;

/** True for a document from `parseJsonText` or `documentFromValue` (also one made by another copy of the package). */
export function isJsonDocument(value: unknown): value is JsonDocument {
  if (typeof value !== "object" || value === null) return false;
  const doc = value as Partial<JsonDocument>;
  return typeof doc.file === "string" && typeof doc.text === "string" && Array.isArray(doc.diagnostics)
    && typeof doc.source === "object" && doc.source !== null && typeof (doc.source as { position?: unknown }).position === "function";
}

/**
 * A JSON document holding a plain JavaScript value, so everything that reads a parsed document reads
 * an object built in code the same way, with the same diagnostics and JSON pointers (no line or column:
 * there is no text). Members whose value is `undefined` are left out, as `JSON.stringify` does; values
 * JSON cannot hold (NaN, a function, a Map, a cycle) are diagnostics (E_NOT_FINITE, E_WRONG_TYPE), never thrown.
 */
export function documentFromValue(value: unknown, file: string, limits: JsonLimits = {}): JsonDocument {
  expectString("documentFromValue", "file", file);
  expectOptionalObject("documentFromValue", "limits", limits);
  const maxDepth = limits.maxDepth ?? DEFAULT_JSON_LIMITS.maxDepth;
  const diagnostics: Diagnostic[] = [];
  const report = (pointer: string, code: string, message: string): void => {
    diagnostics.push({ code, severity: "error", file, pointer, message });
  };
  const ancestors = new Set<object>();
  let count = 0;
  const convert = (v: unknown, pointer: string, depth: number): JsonNode => {
    const base = { pointer, offset: NO_OFFSET, length: 0 };
    if (++count > MAX_JSON_VALUES) return { ...base, kind: "null" };
    switch (typeof v) {
      case "string":
        if (!v.isWellFormed()) report(pointer, "E_BAD_UNICODE", "string contains an unpaired surrogate (not valid Unicode text)");
        return { ...base, kind: "string", value: v };
      case "number":
        if (!Number.isFinite(v)) {
          report(pointer, "E_NOT_FINITE", `${String(v)} is not a JSON number`);
          return { ...base, kind: "null" };
        }
        return { ...base, kind: "number", value: v, raw: String(v), integer: Number.isSafeInteger(v) ? BigInt(v) : undefined };
      case "bigint":
        return { ...base, kind: "number", value: Number(v), raw: String(v), integer: v };
      case "boolean":
        return { ...base, kind: "boolean", value: v };
      case "object":
        break;
      default:
        report(pointer, "E_WRONG_TYPE", `${describeValue(v)} is not a JSON value`);
        return { ...base, kind: "null" };
    }
    if (v === null) return { ...base, kind: "null" };
    if (depth >= maxDepth) {
      report(pointer, "E_JSON_TOO_DEEP", `nesting deeper than ${maxDepth} levels`);
      return { ...base, kind: "null" };
    }
    if (ancestors.has(v)) {
      report(pointer, "E_WRONG_TYPE", "the value contains itself (a cycle), which JSON cannot hold");
      return { ...base, kind: "null" };
    }
    const isArray = Array.isArray(v);
    const proto: unknown = Object.getPrototypeOf(v);
    if (!isArray && proto !== Object.prototype && proto !== null) {
      report(pointer, "E_WRONG_TYPE", `${describeValue(v)} is not a JSON value (use a plain object or array)`);
      return { ...base, kind: "null" };
    }
    ancestors.add(v);
    try {
      if (isArray) {
        const items: JsonNode[] = [];
        for (let i = 0; i < v.length && count <= MAX_JSON_VALUES; i++) items.push(convert(v[i], childPointer(pointer, i), depth + 1));
        return { ...base, kind: "array", items };
      }
      const members = new Map<string, JsonNode>();
      for (const key of Object.keys(v)) {
        if (count > MAX_JSON_VALUES) break;
        const member = (v as Record<string, unknown>)[key];
        if (member === undefined) continue;
        const at = childPointer(pointer, key);
        if (!key.isWellFormed()) report(at, "E_BAD_UNICODE", "key contains an unpaired surrogate (not valid Unicode text)");
        members.set(key, convert(member, at, depth + 1));
      }
      return { ...base, kind: "object", members };
    } finally {
      ancestors.delete(v);
    }
  };
  let root: JsonNode | undefined;
  try {
    root = convert(value, "", 0);
  } catch (error) {
    // A getter or a proxy of the caller's object threw while it was read.
    report("", "E_WRONG_TYPE", `the value could not be read: ${error instanceof Error ? error.message : String(error)}`);
    root = undefined;
  }
  if (count > MAX_JSON_VALUES) {
    report("", "E_JSON_TOO_LARGE", `the value holds more than ${MAX_JSON_VALUES} values (the limit)`);
    root = undefined;
  }
  return { file, text: "", root, diagnostics, source: new SourceText("") };
}

/**
 * The document of a JSON input: text is parsed (`parseJsonText`), a document is taken as it is, any
 * other value goes through `documentFromValue`. Only `undefined` throws (ERR_ARGUMENT): it is a missing
 * argument, not data.
 */
export function toJsonDocument(fn: string, argument: string, input: unknown, file: string, limits: JsonLimits = {}): JsonDocument {
  if (input === undefined) throw argumentError(fn, argument, "JSON text, a parsed document or a plain object", input);
  if (typeof input === "string") return parseJsonText(input, file, limits);
  if (isJsonDocument(input)) return input;
  return documentFromValue(input, file, limits);
}
