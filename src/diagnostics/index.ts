export type { Diagnostic, Severity } from "./diagnostic.ts";
export { compareDiagnostics, formatDiagnostic, hasErrors, pointerToken, childPointer } from "./diagnostic.ts";
export { ExitCode, type ExitCodeValue } from "./exit-codes.ts";
