import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { argumentError, expectString } from "../errors/check-argument.ts";
import { expectDiagnostics } from "../errors/check-shape.ts";
import { expectJsonNode } from "../json/check-json.ts";
import { isJsonDocument } from "../json/document-from-value.ts";
import { diagnosticAt, type JsonDocument, type JsonNode } from "../json/index.ts";

/** The node a JSON pointer names, or undefined. Tokens are unescaped per RFC 6901. */
export function nodeAtPointer(root: JsonNode | undefined, pointer: string): JsonNode | undefined {
  if (root !== undefined) expectJsonNode("nodeAtPointer", "root", root);
  expectString("nodeAtPointer", "pointer", pointer);
  return nodeAt(root, pointer);
}

function nodeAt(root: JsonNode | undefined, pointer: string): JsonNode | undefined {
  if (pointer === "") return root;
  if (!pointer.startsWith("/")) return undefined;
  let node = root;
  for (const raw of pointer.slice(1).split("/")) {
    if (!node) return undefined;
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node.kind === "object") node = node.members.get(token);
    else if (node.kind === "array" && /^(0|[1-9]\d*)$/.test(token)) node = node.items[Number(token)];
    else return undefined;
  }
  return node;
}

/**
 * Gives diagnostics without a position the line and column of their pointer in `doc`. A pointer to a
 * value that is not written in the file (a default, e.g. `/transitions/2/duration`) is replaced by
 * its nearest written ancestor, so every finding points at real text.
 */
export function locateDiagnostics(doc: JsonDocument, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  if (!isJsonDocument(doc)) throw argumentError("locateDiagnostics", "doc", "a JsonDocument (from parseJsonText or documentFromValue)", doc);
  if (doc.root !== undefined) expectJsonNode("locateDiagnostics", "doc.root", doc.root);
  expectDiagnostics("locateDiagnostics", "diagnostics", diagnostics);
  return locateDiagnosticsUnchecked(doc, diagnostics);
}

/** `locateDiagnostics` without the argument checks, for the library's own documents and findings. */
export function locateDiagnosticsUnchecked(doc: JsonDocument, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => {
    if (d.line !== undefined || d.file !== doc.file) return d;
    let pointer = d.pointer;
    let node = nodeAt(doc.root, pointer);
    while (!node && pointer !== "") {
      pointer = pointer.slice(0, pointer.lastIndexOf("/"));
      node = nodeAt(doc.root, pointer);
    }
    if (!node) return d;
    return diagnosticAt(doc, { pointer, offset: node.offset }, d.code, d.message, d.severity);
  });
}
