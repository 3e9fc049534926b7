// The graph's JSON in CodeMirror 6: line numbers, folding, bracket matching, the linter's findings as
// markers at their line and column (from the same diagnostics the findings list shows), jump to a
// finding, and completion from the graph schema plus the graph's own state, clip and parameter names.
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, indentWithTab } from "@codemirror/commands";
import { json } from "@codemirror/lang-json";
import { bracketMatching, defaultHighlightStyle, foldGutter, indentOnInput, syntaxHighlighting, syntaxTree } from "@codemirror/language";
import { lintGutter, setDiagnostics, type Diagnostic as EditorDiagnostic } from "@codemirror/lint";
import { EditorState, type Text, type Transaction } from "@codemirror/state";
import { EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from "@codemirror/view";
import type { Diagnostic } from "animgraph";
import schema from "../../schema/animgraph.schema.json" with { type: "json" };
import { schemaCompletion, type JsonSchema, type NameSource } from "./schema-completion.ts";

export interface EditorViewHandle {
  readonly view: EditorView;
  /**
   * Shows the store's text: only the part that differs is replaced (the longest common prefix and suffix
   * stay), so the cursor, the selection and the scroll position survive an edit made elsewhere.
   */
  setText(text: string): void;
  text(): string;
  /** Shows findings as markers; those without a line/column are left to the findings list. */
  showDiagnostics(diagnostics: readonly Diagnostic[]): void;
  /** Selects the finding's value, scrolls to it and focuses the editor. */
  jumpTo(diagnostic: Diagnostic): void;
  /** The 1-based line and column of the cursor. */
  cursor(): { line: number; column: number };
}

/** The document range of a finding: its value's syntax node from line/column, else the line. */
function rangeOf(doc: Text, state: EditorState, d: Diagnostic): { from: number; to: number } | undefined {
  if (d.line === undefined || d.line < 1 || d.line > doc.lines) return undefined;
  const line = doc.line(d.line);
  const from = Math.min(line.to, line.from + Math.max(0, (d.column ?? 1) - 1));
  let node = syntaxTree(state).resolveInner(from, 1);
  // A key's finding points at the key; a value's at the value: stop at a node that starts there.
  while (node.parent && node.parent.from === from && node.parent.name !== "JsonText") node = node.parent;
  const to = node.from === from && node.to > from ? Math.min(node.to, from + 2000) : Math.max(from + 1, line.to);
  return { from, to: Math.min(to, doc.length) };
}

/**
 * How a user's edit coalesces in the store's undo history: typing with typing, deleting with deleting;
 * anything else (paste, completion, a move) is a step of its own.
 */
function coalesceKey(transactions: readonly Transaction[]): string | undefined {
  const changes = transactions.filter((t) => t.docChanged);
  if (changes.length > 0 && changes.every((t) => t.isUserEvent("input.type"))) return "editor:type";
  if (changes.length > 0 && changes.every((t) => t.isUserEvent("delete"))) return "editor:delete";
  return undefined;
}

/** What the editor asks of the store: its edits go there, and undo / redo are the store's (one history). */
export interface EditorStoreLink {
  onChange(text: string, coalesce: string | undefined): void;
  undo(): void;
  redo(): void;
}

export function createEditorView(host: HTMLElement, link: EditorStoreLink, names: NameSource): EditorViewHandle {
  let silent = false;
  const view = new EditorView({
    parent: host,
    state: EditorState.create({
      doc: "",
      extensions: [
        lineNumbers(), foldGutter(), lintGutter(), highlightActiveLineGutter(), highlightActiveLine(), drawSelection(),
        indentOnInput(), bracketMatching(), closeBrackets(), syntaxHighlighting(defaultHighlightStyle),
        json(),
        autocompletion({ override: [schemaCompletion(schema as JsonSchema, names)] }),
        // Undo and redo are the store's. Read from the event itself: with Shift held the key may come as
        // "z" or "Z" (keyboard layouts, synthetic events), and Ctrl+Shift+Z must never undo.
        EditorView.domEventHandlers({
          keydown(e) {
            if (!(e.ctrlKey || e.metaKey) || e.altKey) return false;
            const key = e.key.toLowerCase();
            if (key === "z") (e.shiftKey ? link.redo : link.undo)();
            else if (key === "y" && !e.shiftKey) link.redo();
            else return false;
            e.preventDefault();
            return true;
          },
        }),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...completionKeymap, indentWithTab]),
        EditorView.contentAttributes.of({ "aria-label": "Graph JSON source" }),
        EditorView.updateListener.of((u) => { if (u.docChanged && !silent) link.onChange(u.state.doc.toString(), coalesceKey(u.transactions)); }),
      ],
    }),
  });
  return {
    view,
    setText(text) {
      const old = view.state.doc.toString();
      if (old === text) return;
      let start = 0;
      const limit = Math.min(old.length, text.length);
      while (start < limit && old.charCodeAt(start) === text.charCodeAt(start)) start++;
      let end = 0;
      while (end < limit - start && old.charCodeAt(old.length - 1 - end) === text.charCodeAt(text.length - 1 - end)) end++;
      silent = true;
      try {
        view.dispatch({ changes: { from: start, to: old.length - end, insert: text.slice(start, text.length - end) } });
      } finally {
        silent = false;
      }
    },
    text: () => view.state.doc.toString(),
    showDiagnostics(diagnostics) {
      const marks: EditorDiagnostic[] = [];
      for (const d of diagnostics) {
        const range = rangeOf(view.state.doc, view.state, d);
        if (range) marks.push({ ...range, severity: d.severity, message: `${d.message} [${d.code}]`, source: d.pointer || undefined });
      }
      view.dispatch(setDiagnostics(view.state, marks));
    },
    jumpTo(d) {
      const range = rangeOf(view.state.doc, view.state, d);
      if (!range) return;
      view.dispatch({ selection: { anchor: range.from, head: range.to }, effects: EditorView.scrollIntoView(range.from, { y: "center" }) });
      view.focus();
    },
    cursor() {
      const pos = view.state.selection.main.head;
      const line = view.state.doc.lineAt(pos);
      return { line: line.number, column: pos - line.from + 1 };
    },
  };
}
