import { DIAGNOSTIC_SHAPE, expectArrayOfShape, expectShape, type FieldKind } from "../errors/check-shape.ts";

/** How serious a finding is. `error` makes an input unusable or a graph wrong; `warning` is suspicious. */
export type Severity = "error" | "warning" | "info";

/**
 * One problem found in user data, as data: never thrown, always collected, so a tool can report every
 * problem at once. `pointer` is an RFC 6901 JSON pointer into `file` ("" is the whole document).
 */
export interface Diagnostic {
  /** Stable code, listed in docs/error-codes.md (e.g. `E_UNKNOWN_STATE`). */
  readonly code: string;
  readonly severity: Severity;
  /** The file as the user named it (or a label such as `<input>`). */
  readonly file: string;
  /** JSON pointer of the offending value, or an item path such as `animations[1].channels[3]`. */
  readonly pointer: string;
  readonly message: string;
  /** 1-based line of the offending value, when the source text is known. */
  readonly line?: number;
  /** 1-based column (in UTF-16 units) of the offending value, when the source text is known. */
  readonly column?: number;
}

const SEVERITY_ONLY: Readonly<Record<string, FieldKind>> = { severity: "string" };

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Orders diagnostics by file, then position in the source, then pointer and code: a stable report. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  expectShape("compareDiagnostics", "a", a, "a Diagnostic", DIAGNOSTIC_SHAPE);
  expectShape("compareDiagnostics", "b", b, "a Diagnostic", DIAGNOSTIC_SHAPE);
  return compareDiagnosticsUnchecked(a, b);
}

/** compareDiagnostics for the library's own sorts, whose diagnostics are well formed by construction. */
export function compareDiagnosticsUnchecked(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  const la = a.line ?? Number.MAX_SAFE_INTEGER;
  const lb = b.line ?? Number.MAX_SAFE_INTEGER;
  if (la !== lb) return la - lb;
  const ca = a.column ?? 0;
  const cb = b.column ?? 0;
  if (ca !== cb) return ca - cb;
  if (a.pointer !== b.pointer) return a.pointer < b.pointer ? -1 : 1;
  if (a.severity !== b.severity) return SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity];
  return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
}

/**
 * `file: pointer: message [CODE]`, the one-line form every command prints (pointer omitted when "").
 * Everything in it may echo user text, so control characters are escaped (a name holding a newline
 * cannot forge a second diagnostic line) and each part is cut to a readable length.
 */
export function formatDiagnostic(d: Diagnostic): string {
  expectShape("formatDiagnostic", "d", d, "a Diagnostic", DIAGNOSTIC_SHAPE);
  const where = d.pointer === "" ? "" : `${echo(d.pointer, MAX_ECHOED_POINTER)}: `;
  const level = d.severity === "error" ? "" : `${d.severity}: `;
  return `${echo(d.file, MAX_ECHOED_POINTER)}: ${where}${level}${echo(d.message, MAX_ECHOED_MESSAGE)} [${echo(d.code, 64)}]`;
}

/** Longest file name or pointer printed in a diagnostic line, characters (longer ones are cut with "…"). */
export const MAX_ECHOED_POINTER = 200;
/** Longest message printed in a diagnostic line, characters. */
export const MAX_ECHOED_MESSAGE = 600;

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * User text made safe to print on one line: control characters as `\n`, `\t`, `\u001b` …, cut to
 * `max` characters with "…". Used for every echoed name and value.
 */
export function echo(text: string, max = MAX_ECHOED_MESSAGE): string {
  const cut = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return cut.replace(CONTROL, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** True when any diagnostic has severity `error` (warnings and infos alone leave an input usable). */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  expectArrayOfShape("hasErrors", "diagnostics", diagnostics, "Diagnostic", SEVERITY_ONLY);
  return hasErrorsUnchecked(diagnostics);
}

/** `hasErrors` without the argument check, for the library's own diagnostics. */
export function hasErrorsUnchecked(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/** Escapes one JSON pointer token (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Joins a parent pointer and a token. */
export function childPointer(parent: string, token: string | number): string {
  return `${parent}/${pointerToken(token)}`;
}
