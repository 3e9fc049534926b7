import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { describeKind, type JsonArrayNode, type JsonNode, type JsonObjectNode } from "./json-node.ts";
import { diagnosticAt, type JsonDocument } from "./parse-json.ts";

/**
 * Typed access to a positioned JSON tree that records a diagnostic for every mismatch instead of
 * throwing, so a validator reports all problems of a file at once. Accessors return `undefined` after
 * recording the problem. Codes: E_WRONG_TYPE, E_MISSING_KEY, E_NOT_INTEGER, E_NOT_BOOLEAN,
 * E_NOT_FINITE, E_OUT_OF_RANGE.
 */
export class JsonReader {
  readonly diagnostics: Diagnostic[];

  constructor(readonly doc: JsonDocument) {
    this.diagnostics = doc.diagnostics;
  }

  report(at: { pointer: string; offset: number } | undefined, code: string, message: string, severity: Diagnostic["severity"] = "error"): void {
    this.diagnostics.push(diagnosticAt(this.doc, at, code, message, severity));
  }

  private wrongType(node: JsonNode, expected: string): undefined {
    this.report(node, "E_WRONG_TYPE", `expected ${expected}, found ${describeKind(node)}`);
    return undefined;
  }

  object(node: JsonNode | undefined): JsonObjectNode | undefined {
    if (!node) return undefined;
    return node.kind === "object" ? node : this.wrongType(node, "an object");
  }

  array(node: JsonNode | undefined): JsonArrayNode | undefined {
    if (!node) return undefined;
    return node.kind === "array" ? node : this.wrongType(node, "an array");
  }

  string(node: JsonNode | undefined): string | undefined {
    if (!node) return undefined;
    return node.kind === "string" ? node.value : this.wrongType(node, "a string");
  }

  boolean(node: JsonNode | undefined): boolean | undefined {
    if (!node) return undefined;
    if (node.kind === "boolean") return node.value;
    this.report(node, "E_NOT_BOOLEAN", `expected true or false, found ${describeKind(node)}`);
    return undefined;
  }

  /** An exact integer (any size), as Python's json module reads one; `1.0` and `1e3` are not integers. */
  integer(node: JsonNode | undefined): bigint | undefined {
    if (!node) return undefined;
    if (node.kind !== "number") return this.wrongType(node, "an integer");
    if (node.integer === undefined) {
      this.report(node, "E_NOT_INTEGER", `expected an integer, found ${node.raw}`);
      return undefined;
    }
    return node.integer;
  }

  /** A finite number (integer or not). */
  number(node: JsonNode | undefined): number | undefined {
    if (!node) return undefined;
    if (node.kind !== "number") return this.wrongType(node, "a number");
    if (!Number.isFinite(node.value)) {
      this.report(node, "E_NOT_FINITE", `number ${node.raw} is out of the double range`);
      return undefined;
    }
    return node.value;
  }

  /** A required member: records E_MISSING_KEY (at the object) when absent. */
  member(obj: JsonObjectNode | undefined, key: string): JsonNode | undefined {
    if (!obj) return undefined;
    const node = obj.members.get(key);
    if (!node) this.report(obj, "E_MISSING_KEY", `missing required key "${key}"`);
    return node;
  }

  /** An optional member: undefined when absent, without a diagnostic. */
  optional(obj: JsonObjectNode | undefined, key: string): JsonNode | undefined {
    return obj?.members.get(key);
  }
}
