import { argumentError, expectInteger } from "../errors/check-argument.ts";
import { compareCodePointsUnchecked } from "./code-point-order.ts";

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
 * Non-integer numbers, and values JSON has no form for (undefined, functions, symbols), are a programmer
 * error (the reports hold integers only): throws AnimgraphError naming the path to the value.
 */
export function dumpPythonJson(value: PyJsonValue, indent = 2): string {
  expectInteger("dumpPythonJson", "indent", indent, 0, 64);
  return `${encode(value, "", " ".repeat(indent), "value")}\n`;
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

function encode(value: PyJsonValue, outer: string, step: string, path: string): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return pythonJsonString(value);
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "number":
      if (!Number.isSafeInteger(value)) throw argumentError("dumpPythonJson", path, "a safe integer (reports hold integers only)", value);
      return String(value);
    case "object":
      break;
    default:
      throw argumentError("dumpPythonJson", path, "a string, integer, bigint, boolean, null, array, Map or plain object", value);
  }
  const inner = outer + step;
  if (Array.isArray(value)) {
    const items = value as readonly PyJsonValue[];
    if (items.length === 0) return "[]";
    return `[\n${items.map((v, i) => inner + encode(v, inner, step, `${path}[${i}]`)).join(",\n")}\n${outer}]`;
  }
  const entries: [string, PyJsonValue][] =
    value instanceof Map ? [...(value as ReadonlyMap<string, PyJsonValue>)] : Object.entries(value);
  if (entries.length === 0) return "{}";
  for (const [k] of entries) if (typeof k !== "string") throw argumentError("dumpPythonJson", `a key of ${path}`, "a string", k);
  entries.sort((a, b) => compareCodePointsUnchecked(a[0], b[0]));
  return `{\n${entries.map(([k, v]) => `${inner}${pythonJsonString(k)}: ${encode(v, inner, step, `${path}.${k}`)}`).join(",\n")}\n${outer}}`;
}
