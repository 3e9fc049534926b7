import type { Diagnostic, Severity } from "../diagnostics/diagnostic.ts";

/** Collects findings for one file; positions are added later from the document, if there is one. */
export class LintSink {
  readonly diagnostics: Diagnostic[] = [];
  constructor(readonly file: string) {}

  add(code: string, pointer: string, message: string, severity: Severity = code.startsWith("W_") ? "warning" : code.startsWith("I_") ? "info" : "error"): void {
    this.diagnostics.push({ code, severity, file: this.file, pointer, message });
  }
}
