// The graph linter: findings on a parsed spec (or a seed-format spec), as diagnostics, text or SARIF.
export type { LintClipInfo, LintOptions } from "./lint-options.ts";
export { lintGraph } from "./lint-graph.ts";
export { lintDocument, type LintDocumentResult } from "./lint-document.ts";
export { isSeedSpec, lintSeedSpec, type SeedLintResult } from "./lint-seed-spec.ts";
export { LINT_CODES, type LintCodeInfo } from "./lint-codes.ts";
