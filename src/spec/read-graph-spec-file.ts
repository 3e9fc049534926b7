// Node only (animgraph/node): reading a graph spec by path.
import { expectOptionalObject } from "../errors/check-argument.ts";
import { readJsonFile } from "../json/read-json-file.ts";
import { DEFAULT_SPEC_LIMITS } from "./spec-limits.ts";
import { parseGraphSpec, type ParseGraphSpecOptions, type ReadGraphSpecResult } from "./parse-graph-spec.ts";

/**
 * Reads and parses a graph spec file (at most `limits.maxBytes`). `label` names the file in
 * diagnostics (default: the path as given).
 */
export function readGraphSpec(path: string, options: ParseGraphSpecOptions = {}, label: string = path): ReadGraphSpecResult {
  expectOptionalObject("readGraphSpec", "options", options);
  const maxBytes = options.limits?.maxBytes ?? DEFAULT_SPEC_LIMITS.maxBytes;
  const document = readJsonFile(path, { maxBytes }, label);
  return { ...parseGraphSpec(document, options), document };
}
