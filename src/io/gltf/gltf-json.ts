import { childPointer, type Diagnostic, type Severity } from "../../diagnostics/diagnostic.ts";

/** Bytes per component for glTF's accessor component types. */
export const COMPONENT_SIZE: ReadonlyMap<number, number> = new Map([
  [5120, 1], // BYTE
  [5121, 1], // UNSIGNED_BYTE
  [5122, 2], // SHORT
  [5123, 2], // UNSIGNED_SHORT
  [5125, 4], // UNSIGNED_INT
  [5126, 4], // FLOAT
]);

/** Components per element for glTF's accessor types. */
export const TYPE_SIZE: ReadonlyMap<string, number> = new Map([
  ["SCALAR", 1], ["VEC2", 2], ["VEC3", 3], ["VEC4", 4], ["MAT2", 4], ["MAT3", 9], ["MAT4", 16],
]);

export const FLOAT = 5126;

/** A loosely typed view of parsed glTF JSON: the validator checks every field before anything trusts it. */
export type JsonValue = unknown;
export type JsonObject = Record<string, unknown>;

export function isObject(v: JsonValue): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function isIndex(v: JsonValue, length: number): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v < length;
}

/** `obj[key]` as an array (empty when absent or not an array). */
export function arrayOf(obj: JsonObject, key: string): unknown[] {
  const v = obj[key];
  return Array.isArray(v) ? v : [];
}

export function isFiniteNumberArray(v: JsonValue, length: number): v is number[] {
  return Array.isArray(v) && v.length === length && v.every((x) => typeof x === "number" && Number.isFinite(x));
}

/** Collects diagnostics for one file. */
export class DiagnosticSink {
  readonly list: Diagnostic[] = [];
  constructor(readonly file: string) {}
  add(severity: Severity, code: string, pointer: string, message: string): void {
    this.list.push({ code, severity, file: this.file, pointer, message });
  }
  error(code: string, pointer: string, message: string): void {
    this.add("error", code, pointer, message);
  }
  warning(code: string, pointer: string, message: string): void {
    this.add("warning", code, pointer, message);
  }
  info(code: string, pointer: string, message: string): void {
    this.add("info", code, pointer, message);
  }
  get errorCount(): number {
    return this.list.filter((d) => d.severity === "error").length;
  }
}

export const ptr = (...tokens: (string | number)[]): string => tokens.reduce<string>((p, t) => childPointer(p, t), "");
