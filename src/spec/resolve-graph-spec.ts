import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { toJsonDocument, type JsonInput } from "../json/document-from-value.ts";
import type { JsonDocument } from "../json/index.ts";
import type { GraphSpec } from "./graph-spec.ts";
import { formatDiagnostic } from "../diagnostics/diagnostic.ts";
import { invalidValue } from "../errors/check-argument.ts";
import { isGraphSpec, parseGraphSpec, type ParseGraphSpecOptions } from "./parse-graph-spec.ts";

/** A graph spec as the API takes it: JSON text, a parsed document, a plain object, or a `GraphSpec` from `parseGraphSpec`. */
export type GraphSpecInput = JsonInput | GraphSpec;


/** What `resolveGraphSpec` gives: the spec when it is usable, every problem, and the document when one was parsed. */
export interface ResolvedGraphSpec {
  readonly spec?: GraphSpec;
  readonly diagnostics: Diagnostic[];
  readonly document?: JsonDocument;
}

/** A parsed `GraphSpec` from any input form; undefined throws (ERR_ARGUMENT), anything else that is no spec is diagnostics. */
export function resolveGraphSpec(fn: string, argument: string, input: unknown, options: ParseGraphSpecOptions = {}): ResolvedGraphSpec {
  if (isGraphSpec(input)) return { spec: input, diagnostics: [] };
  const document = toJsonDocument(fn, argument, input, options.file ?? "<spec>", options.json);
  return { ...parseGraphSpec(document, options), document };
}

/**
 * For calls that return no diagnostics (clipNamesOf, standInClips): the parsed spec, or AnimgraphError
 * ERR_INVALID_VALUE whose message holds the first problem (parseGraphSpec lists them all).
 */
export function graphSpecOrThrow(fn: string, argument: string, input: unknown): GraphSpec {
  const { spec, diagnostics } = resolveGraphSpec(fn, argument, input);
  if (spec) return spec;
  const first = diagnostics.find((d) => d.severity === "error") ?? diagnostics[0];
  const more = diagnostics.length > 1 ? ` (and ${diagnostics.length - 1} more; parseGraphSpec lists them)` : "";
  throw invalidValue(fn, argument, `not a usable graph spec: ${first ? formatDiagnostic(first) : "no spec"}${more}`);
}
