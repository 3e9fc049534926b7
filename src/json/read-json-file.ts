// Node only (animgraph/node): reading a JSON file by path, with a size limit.
import { decodeUtf8 } from "../fs/decode-utf8.ts";
import { readInputFile } from "../fs/read-input-file.ts";
import { DEFAULT_JSON_LIMITS, parseJsonText, type JsonDocument, type JsonLimits } from "./parse-json.ts";
import { SourceText } from "./source-text.ts";
import { expectString } from "../errors/check-argument.ts";
import { expectNonEmptyString } from "../errors/check-shape.ts";
import { expectJsonLimits } from "./check-json.ts";

/**
 * Reads and parses a JSON file. A missing or unreadable file, one over the size limit, or one that is
 * not UTF-8 gives a diagnostic (`E_FILE_NOT_FOUND`, `E_FILE_READ`, `E_FILE_TOO_LARGE`, `E_NOT_UTF8`).
 * `label` is the name used in diagnostics (default: the path as given).
 */
export function readJsonFile(path: string, limits: JsonLimits = {}, label: string = path): JsonDocument {
  expectNonEmptyString("readJsonFile", "path", path);
  expectJsonLimits("readJsonFile", "limits", limits);
  expectString("readJsonFile", "label", label);
  const maxBytes = limits.maxBytes ?? DEFAULT_JSON_LIMITS.maxBytes;
  const empty = (code: string, message: string): JsonDocument => ({
    file: label,
    text: "",
    root: undefined,
    source: new SourceText(""),
    diagnostics: [{ code, severity: "error", file: label, pointer: "", message }],
  });
  const read = readInputFile(path, maxBytes, label);
  if (!read.bytes) return { file: label, text: "", root: undefined, source: new SourceText(""), diagnostics: [read.diagnostic] };
  const text = decodeUtf8(read.bytes);
  if (text === undefined) return empty("E_NOT_UTF8", "the file is not UTF-8 text");
  if (text.charCodeAt(0) === 0xfeff) {
    const doc = parseJsonText(text.slice(1), label, limits);
    doc.diagnostics.unshift({
      code: "W_BOM", severity: "warning", file: label, pointer: "", message: "the file starts with a byte-order mark; it was ignored",
    });
    return doc;
  }
  return parseJsonText(text, label, limits);
}
