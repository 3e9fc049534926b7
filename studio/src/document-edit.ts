// One way for every panel to edit the document: run a graph-edits.ts operation on a copy of the
// store's JSON and make the result one undo step (or part of one, for a drag), with a label for the undo
// button and the selection to show after it. An edit that does not apply says why on the status line.
import { editDocument, EditError, type JsonObject, type MachineLocation } from "./graph-edits.ts";
import type { Selection, StudioStore } from "./store.ts";

export interface DocumentEditor {
  /** The machine the selection shows. */
  location(): MachineLocation;
  /**
   * Applies `edit`; returns what it returned, or undefined when it did not apply (the reason is
   * reported). `select` maps the result to the selection after the edit.
   */
  apply<T>(label: string, edit: (doc: JsonObject, loc: MachineLocation) => T, options?: {
    select?: (result: T) => Partial<Selection>;
    coalesce?: string;
    source?: string;
  }): T | undefined;
}

export function createDocumentEditor(store: StudioStore, report: (message: string) => void): DocumentEditor {
  const location = (): MachineLocation => ({ layer: store.selection.layer, path: store.selection.path });
  return {
    location,
    apply(label, edit, options = {}) {
      const loc = location();
      let out: ReturnType<typeof edit>;
      let text: string;
      try {
        ({ text, result: out } = editDocument(store.text, (doc) => edit(doc, loc)));
      } catch (e) {
        if (!(e instanceof EditError)) throw e;
        report(`${label}: ${e.message}`);
        return undefined;
      }
      store.edit(text, { label, source: options.source ?? "graph", ...(options.coalesce ? { coalesce: options.coalesce } : {}), ...(options.select ? { select: options.select(out) } : {}) });
      report("");
      return out;
    },
  };
}
