import { compareCodePoints } from "./code-point-order.ts";

/**
 * A value the serializer accepts: strings, integers (safe `number`s or `bigint`), booleans, null, arrays,
 * and objects as a `Map` or a plain record (use a Map when keys are user data).
 */
export type PyJsonValue =
  | string
  | number
  | bigint
  | boolean
  | null
  | readonly PyJsonValue[]
  | ReadonlyMap<string, PyJsonValue>
  | { readonly [key: string]: PyJsonValue };

/**
 * Serializes like Python's `json.dump(value, f, ensure_ascii=False, indent=2, sort_keys=True)` followed
 * by `f.write("\n")`: keys sorted by code point, `[]`/`{}` for empty containers, non-ASCII kept as is,
 * and Python's escaping (`\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, other controls as lowercase `\u00XX`).
 * Non-integer numbers are a programmer error (the reports hold integers only): throws TypeError.
 */
export function dumpPythonJson(value: PyJsonValue, indent = 2): string {
  return `${encode(value, "", " ".repeat(indent))}\n`;
}

/** Python's `json.dumps(s, ensure_ascii=False)` for one string, quotes included. */
export function pythonJsonString(s: string): string {
  // eslint-disable-next-line no-control-regex -- Python escapes exactly these control characters
  return `"${s.replace(/[\u0000-\u001f"\\]/g, escapeChar)}"`;
}

const SHORT_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['"', '\\"'],
  ["\\", "\\\\"],
  ["\n", "\\n"],
  ["\r", "\\r"],
  ["\t", "\\t"],
  ["\b", "\\b"],
  ["\f", "\\f"],
]);

function escapeChar(c: string): string {
  return SHORT_ESCAPES.get(c) ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

function encode(value: PyJsonValue, outer: string, step: string): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return pythonJsonString(value);
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "number":
      if (!Number.isSafeInteger(value)) throw new TypeError(`dumpPythonJson: ${value} is not a safe integer`);
      return String(value);
  }
  const inner = outer + step;
  if (Array.isArray(value)) {
    const items = value as readonly PyJsonValue[];
    if (items.length === 0) return "[]";
    return `[\n${items.map((v) => inner + encode(v, inner, step)).join(",\n")}\n${outer}]`;
  }
  const entries: [string, PyJsonValue][] =
    value instanceof Map ? [...(value as ReadonlyMap<string, PyJsonValue>)] : Object.entries(value);
  if (entries.length === 0) return "{}";
  entries.sort((a, b) => compareCodePoints(a[0], b[0]));
  return `{\n${entries.map(([k, v]) => `${inner}${pythonJsonString(k)}: ${encode(v, inner, step)}`).join(",\n")}\n${outer}}`;
}
