import { argumentError } from "./check-argument.ts";

// Checks for the library's own record types (reports, snapshots, diagnostics, JSON nodes) at the public
// boundary of functions that read them: one table per type, hoisted by the caller, so a check
// allocates nothing unless it throws, and the message names the first field that is wrong.

/** The kind a field must have; a trailing `?` also accepts undefined. */
export type FieldKind = "string" | "number" | "boolean" | "object" | "function" | "array" | "typed"
  | "string?" | "number?" | "boolean?" | "object?" | "function?" | "array?" | "typed?";

const WORDS: Record<string, string> = {
  string: "a string", number: "a number", boolean: "a boolean", object: "an object", function: "a function", array: "an array", typed: "a typed array",
};

function fieldMatches(value: unknown, kind: string): boolean {
  switch (kind) {
    case "array": return Array.isArray(value);
    case "typed": return ArrayBuffer.isView(value) && !(value instanceof DataView);
    case "object": return typeof value === "object" && value !== null;
    default: return typeof value === kind;
  }
}

/**
 * An object whose fields have the kinds `shape` lists (`{ weights: "array", name: "string?" }`); `what`
 * names the type for the message (`a BlendCheckReport (from analyzeBlendSpec)`). A wrong field is
 * reported as `argument.field`.
 */
export function expectShape(fn: string, argument: string, value: unknown, what: string, shape: Readonly<Record<string, FieldKind>>): void {
  if (typeof value !== "object" || value === null) throw argumentError(fn, argument, what, value);
  for (const key in shape) {
    const kind = shape[key]!;
    const field = (value as Record<string, unknown>)[key];
    const optional = kind.endsWith("?");
    const base = optional ? kind.slice(0, -1) : kind;
    if (!(optional && field === undefined) && !fieldMatches(field, base)) {
      throw argumentError(fn, `${argument}.${key}`, `${WORDS[base]!}${optional ? " or undefined" : ""}, as in ${what}`, field);
    }
  }
}

/** An array whose every element has the fields of `shape` (see expectShape); the element at fault is named `argument[i]`. */
export function expectArrayOfShape(fn: string, argument: string, value: unknown, what: string, shape: Readonly<Record<string, FieldKind>>): void {
  if (!Array.isArray(value)) throw argumentError(fn, argument, `an array of ${what}`, value);
  for (let i = 0; i < value.length; i++) expectShape(fn, `${argument}[${i}]`, value[i], what, shape);
}

/** The fields of a Diagnostic. */
export const DIAGNOSTIC_SHAPE: Readonly<Record<string, FieldKind>> = { code: "string", severity: "string", file: "string", pointer: "string", message: "string" };

/** An array of Diagnostic (code, severity, file, pointer and message strings). */
export function expectDiagnostics(fn: string, argument: string, value: unknown): void {
  expectArrayOfShape(fn, argument, value, "Diagnostic", DIAGNOSTIC_SHAPE);
}

/** A string that is not empty (a file path, a name). */
export function expectNonEmptyString(fn: string, argument: string, value: unknown): asserts value is string {
  if (typeof value !== "string" || value === "") throw argumentError(fn, argument, "a non-empty string", value);
}
