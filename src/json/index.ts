export type { JsonNode, JsonNodeBase, JsonObjectNode, JsonArrayNode, JsonStringNode, JsonNumberNode, JsonBooleanNode, JsonNullNode } from "./json-node.ts";
export { describeKind, toPlainValue } from "./json-node.ts";
export { parseJsonText, diagnosticAt, DEFAULT_JSON_LIMITS, type JsonDocument, type JsonLimits } from "./parse-json.ts";
export { JsonReader } from "./json-reader.ts";
export { SourceText } from "./source-text.ts";
