import { pathToFileURL } from "node:url";
import { isAbsolute, relative, sep } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { expectDiagnostics, expectShape, type FieldKind } from "../errors/check-shape.ts";
import { LINT_CODES } from "./lint-codes.ts";

const OPTIONS_SHAPE: Readonly<Record<string, FieldKind>> = { version: "string?", baseDirectory: "string?" };

const LEVEL = { error: "error", warning: "warning", info: "note" } as const;

/** Options of `toSarif`: the tool version and the folder file names are made relative to. */
export interface SarifOptions {
  /** Tool version written to the log. */
  readonly version?: string;
  /** Directory that relative artifact URIs are resolved against (written as the SRCROOT base). */
  readonly baseDirectory?: string;
}

/**
 * A SARIF 2.1.0 log of diagnostics, so CI systems (GitHub code scanning, Azure DevOps, GitLab) show
 * each finding inline: one rule per code, one result per diagnostic with its level, message, file
 * (a URI relative to SRCROOT when it lies under `baseDirectory`) and line/column region, and the JSON
 * pointer as a logical location.
 */
export function toSarif(diagnostics: readonly Diagnostic[], options: SarifOptions = {}): object {
  expectDiagnostics("toSarif", "diagnostics", diagnostics);
  expectShape("toSarif", "options", options, "a SarifOptions object ({ version?, baseDirectory? })", OPTIONS_SHAPE);
  const codes = [...new Set(diagnostics.map((d) => d.code))].sort();
  const ruleIndex = new Map(codes.map((c, i) => [c, i]));
  const base = options.baseDirectory;
  const artifact = (file: string): { uri: string; uriBaseId?: string } => {
    if (base !== undefined) {
      const abs = isAbsolute(file) ? file : `${base}${sep}${file}`;
      const rel = relative(base, abs);
      if (!rel.startsWith("..") && !isAbsolute(rel)) return { uri: rel.split(sep).map(encodeURIComponent).join("/"), uriBaseId: "SRCROOT" };
      return { uri: pathToFileURL(abs).href };
    }
    return { uri: file.split(/[\\/]/).map(encodeURIComponent).join("/") };
  };
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "animgraph",
            ...(options.version !== undefined ? { version: options.version } : {}),
            rules: codes.map((code) => {
              const info = LINT_CODES[code];
              return {
                id: code,
                shortDescription: { text: info?.summary ?? code },
                defaultConfiguration: { level: LEVEL[info?.severity ?? "error"] },
              };
            }),
          },
        },
        ...(base !== undefined ? { originalUriBaseIds: { SRCROOT: { uri: pathToFileURL(base.endsWith(sep) ? base : base + sep).href } } } : {}),
        results: diagnostics.map((d) => ({
          ruleId: d.code,
          ruleIndex: ruleIndex.get(d.code)!,
          level: LEVEL[d.severity],
          message: { text: d.pointer === "" ? d.message : `${d.pointer}: ${d.message}` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: artifact(d.file),
                region: { startLine: d.line ?? 1, startColumn: d.column ?? 1 },
              },
              ...(d.pointer !== "" ? { logicalLocations: [{ fullyQualifiedName: d.pointer, kind: "member" }] } : {}),
            },
          ],
        })),
      },
    ],
  };
}
