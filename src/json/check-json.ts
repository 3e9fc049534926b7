import { argumentError } from "../errors/check-argument.ts";
import { expectShape, type FieldKind } from "../errors/check-shape.ts";

// Argument checks for the functions that take parsed JSON (a node, limits): once per call
// at the public boundary; the recursive walks inside call the unchecked code.

const LIMITS_SHAPE: Readonly<Record<string, FieldKind>> = { maxBytes: "number?", maxDepth: "number?" };

/** JsonLimits: an object with optional numeric maxBytes and maxDepth. */
export function expectJsonLimits(fn: string, argument: string, value: unknown): void {
  expectShape(fn, argument, value, "a JsonLimits object ({ maxBytes?, maxDepth? })", LIMITS_SHAPE);
}

/** A JsonNode as parseJsonText builds it (its kind, and members or items for an object or array). */
export function expectJsonNode(fn: string, argument: string, value: unknown): void {
  const node = value as { kind?: unknown; members?: unknown; items?: unknown } | null;
  if (typeof node !== "object" || node === null
    || !(node.kind === "object" ? node.members instanceof Map : node.kind === "array" ? Array.isArray(node.items)
      : node.kind === "string" || node.kind === "number" || node.kind === "boolean" || node.kind === "null")) {
    throw argumentError(fn, argument, "a JsonNode (a document's root from parseJsonText)", value);
  }
}
