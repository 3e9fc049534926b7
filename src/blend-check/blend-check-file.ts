// Node only (animgraph/node): checking a blend spec by path.
import { readJsonFile } from "../json/read-json-file.ts";
import { blendCheckDocument, type BlendCheckResult } from "./blend-check-text.ts";

/** Reads, validates and analyzes a blend-check spec file. Never throws on bad input. `label` names the file in diagnostics. */
export function blendCheckFile(path: string, label: string = path): BlendCheckResult {
  return blendCheckDocument(readJsonFile(path, {}, label));
}
