import { describeKind, JsonReader, type JsonDocument, type JsonNode, type JsonObjectNode } from "../json/index.ts";
import { EXTENSION_KEY_PREFIX, SPEC_ENUMS, SPEC_KEYS, type SpecObjectKind } from "./spec-keys.ts";
import type { SpecLimits } from "./spec-limits.ts";

/**
 * The graph spec parser's cursor: a {@link JsonReader} (type checks that record diagnostics) plus the
 * spec's own checks — unknown keys against {@link SPEC_KEYS}, enumerations, names, ranges and the
 * running counts behind {@link SpecLimits}. Every accessor returns undefined after recording a problem.
 */
export class SpecReader extends JsonReader {
  stateCount = 0;
  transitionCount = 0;
  /** Set once a count limit was reported, so it is reported once and parsing of that part stops. */
  private readonly limitReported = new Set<string>();

  constructor(doc: JsonDocument, readonly limits: SpecLimits) {
    super(doc);
  }

  /** An object of the given kind; reports every key the kind does not accept (E_SPEC_UNKNOWN_KEY). */
  specObject(node: JsonNode | undefined, kind: SpecObjectKind): JsonObjectNode | undefined {
    const obj = this.object(node);
    if (!obj) return undefined;
    const accepted: readonly string[] = SPEC_KEYS[kind];
    for (const [key, value] of obj.members) {
      if (accepted.includes(key) || key.startsWith(EXTENSION_KEY_PREFIX)) continue;
      const near = closest(key, accepted);
      const hint = near ? `; did you mean "${near}"?` : `; accepted: ${accepted.join(", ")}`;
      this.report(value, "E_SPEC_UNKNOWN_KEY", `unknown key "${clip(key)}" in ${describeObject(kind)}${hint}`);
    }
    return obj;
  }

  /** One of an enumeration's values; `fallback` when the member is absent. */
  enumValue<E extends keyof typeof SPEC_ENUMS>(
    node: JsonNode | undefined,
    enumName: E,
    fallback: (typeof SPEC_ENUMS)[E][number],
  ): (typeof SPEC_ENUMS)[E][number] | undefined {
    if (!node) return fallback;
    const s = this.string(node);
    if (s === undefined) return undefined;
    const values: readonly string[] = SPEC_ENUMS[enumName];
    if (values.includes(s)) return s as (typeof SPEC_ENUMS)[E][number];
    this.report(node, "E_SPEC_BAD_ENUM", `"${clip(s)}" is not one of ${values.map((v) => `"${v}"`).join(", ")}`);
    return undefined;
  }

  /** A name (a string of at most maxNameLength UTF-16 units). */
  name(node: JsonNode | undefined): string | undefined {
    const s = this.string(node);
    if (s === undefined || !node) return undefined;
    return this.checkName(s, node) ? s : undefined;
  }

  /** Checks a name already read (e.g. an object key); reports E_SPEC_LIMIT when too long. */
  checkName(s: string, at: JsonNode): boolean {
    if (s.length > this.limits.maxNameLength) {
      this.report(at, "E_SPEC_LIMIT", `name is ${s.length} characters long; the limit is ${this.limits.maxNameLength}`);
      return false;
    }
    return true;
  }

  /** A finite number within [min, max] (either bound optional, inclusive unless `exclusiveMin`). */
  numberIn(node: JsonNode | undefined, min?: number, max?: number, exclusiveMin = false): number | undefined {
    const v = this.number(node);
    if (v === undefined || !node) return undefined;
    const belowMin = min !== undefined && (exclusiveMin ? v <= min : v < min);
    if (belowMin || (max !== undefined && v > max)) {
      const lo = min === undefined ? "" : exclusiveMin ? `> ${min}` : `≥ ${min}`;
      const hi = max === undefined ? "" : `≤ ${max}`;
      this.report(node, "E_OUT_OF_RANGE", `${node.kind === "number" ? node.raw : v} is out of range: expected a number ${[lo, hi].filter(Boolean).join(" and ")}`);
      return undefined;
    }
    return v;
  }

  /** An exact integer within [min, max] that is a safe JavaScript number. */
  integerIn(node: JsonNode | undefined, min: number, max: number = Number.MAX_SAFE_INTEGER): number | undefined {
    const v = this.integer(node);
    if (v === undefined || !node) return undefined;
    if (v < BigInt(min) || v > BigInt(max)) {
      this.report(node, "E_OUT_OF_RANGE", `${v} is out of range: expected an integer from ${min} to ${max}`);
      return undefined;
    }
    return Number(v);
  }

  /** A boolean member, `fallback` when absent. */
  flag(node: JsonNode | undefined, fallback: boolean): boolean | undefined {
    return node ? this.boolean(node) : fallback;
  }

  /**
   * Counts items against a limit; false (and one E_SPEC_LIMIT at `at`) once the limit is passed, so the
   * caller stops reading more of them.
   */
  within(limitKey: string, count: number, limit: number, at: JsonNode, what: string): boolean {
    if (count <= limit) return true;
    if (!this.limitReported.has(limitKey)) {
      this.limitReported.add(limitKey);
      this.report(at, "E_SPEC_LIMIT", `more than ${limit} ${what}; the rest of the graph is not read`);
    }
    return false;
  }

  /** A value that must be absent (e.g. a member only allowed for other types). */
  notAllowed(node: JsonNode | undefined, why: string): void {
    if (node) this.report(node, "E_SPEC_NOT_ALLOWED", `${why} (found ${describeKind(node)})`);
  }
}

function describeObject(kind: SpecObjectKind): string {
  return kind === "root" ? "the graph" : `a ${kind.replace(/([A-Z])/g, " $1").toLowerCase()}`;
}

/** A name shortened for a message (untrusted input can be huge). */
export function clip(s: string, max = 64): string {
  return s.length <= max ? s : `${s.slice(0, max)}…`;
}

/** The accepted key nearest to `key` (edit distance ≤ 2, case-insensitive first), if any. */
function closest(key: string, accepted: readonly string[]): string | undefined {
  if (key.length > 64) return undefined;
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of accepted) {
    const d = candidate.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key, candidate);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
