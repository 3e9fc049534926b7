import { expectJsonNode } from "./check-json.ts";
/**
 * A parsed JSON value that remembers where it came from: its JSON pointer and its offset in the source
 * text. Objects keep their members in a Map (never a plain object), so keys such as `__proto__` are data.
 * Numbers keep their source text, so integers far beyond 2^53 stay exact (`bigint`).
 */
export type JsonNode =
  | JsonObjectNode
  | JsonArrayNode
  | JsonStringNode
  | JsonNumberNode
  | JsonBooleanNode
  | JsonNullNode;

/** What every JSON node carries: where it is in the document and in the source text. */
export interface JsonNodeBase {
  /** RFC 6901 pointer from the document root ("" for the root). */
  readonly pointer: string;
  /** Offset of the value's first character in the source text (UTF-16 units). */
  readonly offset: number;
  /** Length of the value's source text (UTF-16 units), from its first to its last character. */
  readonly length: number;
}

/** A JSON object. */
export interface JsonObjectNode extends JsonNodeBase {
  /** Discriminant of the {@link JsonNode} union. */
  readonly kind: "object";
  /** Members in source order; on a duplicate key the last one wins (as in Python and JSON.parse). */
  readonly members: ReadonlyMap<string, JsonNode>;
}

/** A JSON array. */
export interface JsonArrayNode extends JsonNodeBase {
  /** Discriminant of the {@link JsonNode} union. */
  readonly kind: "array";
  /** The elements in source order. */
  readonly items: readonly JsonNode[];
}

/** A JSON string. */
export interface JsonStringNode extends JsonNodeBase {
  /** Discriminant of the {@link JsonNode} union. */
  readonly kind: "string";
  /** The string with its escapes decoded. */
  readonly value: string;
}

/** A JSON number. */
export interface JsonNumberNode extends JsonNodeBase {
  /** Discriminant of the {@link JsonNode} union. */
  readonly kind: "number";
  /** The nearest double. */
  readonly value: number;
  /** The literal as written in the source. */
  readonly raw: string;
  /** The exact value when the literal is an integer (no fraction, no exponent), as Python reads it. */
  readonly integer: bigint | undefined;
}

/** A JSON `true` or `false`. */
export interface JsonBooleanNode extends JsonNodeBase {
  /** Discriminant of the {@link JsonNode} union. */
  readonly kind: "boolean";
  /** The literal's value. */
  readonly value: boolean;
}

/** A JSON `null`. */
export interface JsonNullNode extends JsonNodeBase {
  /** Discriminant of the {@link JsonNode} union. */
  readonly kind: "null";
}

/** A word for the node's type, for messages ("expected a string, found an array"). */
export function describeKind(node: JsonNode): string {
  switch (node.kind) {
    case "object":
      return "an object";
    case "array":
      return "an array";
    case "string":
      return "a string";
    case "number":
      return node.integer !== undefined ? "an integer" : "a number";
    case "boolean":
      return "a boolean";
    case "null":
      return "null";
  }
}

/** The plain JavaScript value of a node; objects become null-prototype objects (safe for any key). */
export function toPlainValue(node: JsonNode): unknown {
  expectJsonNode("toPlainValue", "node", node);
  return plainValue(node);
}

function plainValue(node: JsonNode): unknown {
  switch (node.kind) {
    case "object": {
      const out = Object.create(null) as Record<string, unknown>;
      for (const [k, v] of node.members) out[k] = plainValue(v);
      return out;
    }
    case "array":
      return node.items.map(plainValue);
    case "null":
      return null;
    default:
      return node.value;
  }
}
