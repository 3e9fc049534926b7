// The studio's one store. The graph document is its JSON text — the single source of truth: the parsed
// tree, the spec and the findings are derived from the text (lazily, once per text and lint context).
// Beside it, the selection (layer, nested machine, selected states / transitions / blend samples, the
// rewound step). Panels subscribe to it; every document edit goes through `edit`, which keeps an undo
// history (a selection change alone is not an undo step, but each step remembers the selection around
// it, so undo shows what it undid). No DOM here: the store runs and is tested in Node.
import { lintDocument, parseJsonText, type Diagnostic, type GraphSpec, type JsonDocument, type MachineSpec } from "animgraph";

/** What is selected. Names and indices refer to the machine shown (`layer`, then `path`). */
export interface Selection {
  /** Index of the layer shown. */
  readonly layer: number;
  /** Nested machines opened in place: state names from the layer's machine down. */
  readonly path: readonly string[];
  /** Selected states of the machine shown, by name. */
  readonly states: readonly string[];
  /** Selected transitions of the machine shown, by index in its `transitions` array. */
  readonly transitions: readonly number[];
  /** Selected samples (children of a 1D blend, samples of a 2D one) of the one selected state. */
  readonly samples: readonly number[];
  /** The recorded step shown (rewind), or null while live. */
  readonly step: number | null;
  /**
   * The character's joint picked in the viewport (or a skeleton list), by name; null for none. It names a
   * joint of the character, not of the document: edits and undo leave it alone.
   */
  readonly joint: string | null;
}

/** Nothing selected, base layer, live. */
export const EMPTY_SELECTION: Selection = { layer: 0, path: [], states: [], transitions: [], samples: [], step: null, joint: null };

/** What is derived from the text: the tree (with source offsets), the spec when it parses, every finding. */
export interface Analysis {
  readonly tree: JsonDocument;
  /** The parsed spec, when the text is a graph spec without shape errors (it may still have lint findings). */
  readonly spec: GraphSpec | undefined;
  /** The parser's and the linter's findings, with line and column. */
  readonly diagnostics: readonly Diagnostic[];
}

/** What the linter may check names against (the character's clips and joints). */
export type LintContext = NonNullable<Parameters<typeof lintDocument>[1]>;

/** Why the store changed. */
export type ChangeOrigin = "load" | "edit" | "undo" | "redo" | "select" | "context" | "saved";

/** One notification: which parts changed, why, and who asked (so a panel can skip its own echo). */
export interface StoreChange {
  /** The text changed (so did everything derived from it). */
  readonly text: boolean;
  /** The derived analysis changed: the text, or the lint context. */
  readonly analysis: boolean;
  /** The selection changed. */
  readonly selection: boolean;
  readonly origin: ChangeOrigin;
  /** `EditOptions.source` / the `select` caller's source: "editor", "graph", "inspector", … */
  readonly source: string | undefined;
}

/** How an edit enters the history. */
export interface EditOptions {
  /** What the edit did, in words ("Move state Idle"): the undo and redo buttons' titles. */
  readonly label?: string;
  /**
   * Edits in a row with the same key, each within `coalesceMs` of the previous one and with no `seal()`
   * between them, make one undo step (typing a word, dragging a state).
   */
  readonly coalesce?: string;
  /** Who made the edit (passed on to subscribers). */
  readonly source?: string;
  /** The selection after the edit (merged into the current one); default: the current one. */
  readonly select?: Partial<Selection>;
}

/** The store's public face (see the file comment). */
export interface StudioStore {
  readonly text: string;
  readonly file: string;
  /** Increases with every text change (load, edit, undo, redo). */
  readonly version: number;
  /** Derived from the text on first read after a change. */
  readonly analysis: Analysis;
  readonly selection: Selection;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  /** Labels of the step `undo` / `redo` would take back or make again. */
  readonly undoLabel: string | undefined;
  readonly redoLabel: string | undefined;
  /** The text differs from the one last loaded or saved. */
  readonly dirty: boolean;
  /** A new document (opened, generated): the history starts again here. */
  load(text: string, file: string, options?: { source?: string; select?: Partial<Selection> }): void;
  /** Replaces the text as one undo step (or part of one: `coalesce`). Returns false when the text was already that. */
  edit(text: string, options?: EditOptions): boolean;
  /** Changes the selection (not an undo step). */
  select(selection: Partial<Selection>, source?: string): void;
  undo(): boolean;
  redo(): boolean;
  /** Ends the coalescing group in progress: the next edit starts a new undo step. */
  seal(): void;
  /** The clips and joints the linter checks names against; re-derives the analysis. */
  setLintContext(context: LintContext): void;
  /** The text was saved (as `file`, if given): it is no longer dirty. */
  markSaved(file?: string): void;
  /**
   * Calls `listener` after every change; returns the unsubscribe function. A change made by a listener is
   * announced once every listener has heard the one before it.
   */
  subscribe(listener: (change: StoreChange) => void): () => void;
}

/** Options of {@link createStudioStore}. */
export interface StoreOptions {
  readonly text?: string;
  readonly file?: string;
  /** Coalescing window, ms (CodeMirror's own history groups typing within 500 ms). */
  readonly coalesceMs?: number;
  /** Undo steps kept. */
  readonly historyLimit?: number;
  /** The clock coalescing uses (tests pass their own). */
  readonly now?: () => number;
}

interface Step {
  before: string;
  after: string;
  selectionBefore: Selection;
  selectionAfter: Selection;
  label: string;
  coalesce: string | undefined;
  time: number;
}

const sameList = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
const sameSelection = (a: Selection, b: Selection): boolean =>
  a.layer === b.layer && a.step === b.step && a.joint === b.joint && sameList(a.path, b.path) && sameList(a.states, b.states)
  && sameList(a.transitions, b.transitions) && sameList(a.samples, b.samples);

/** The machine a selection shows in a spec (undefined when the layer or a path element is gone). */
export function machineAt(spec: GraphSpec, layer: number, path: readonly string[]): MachineSpec | undefined {
  let machine = spec.layers[layer]?.machine;
  for (const name of path) {
    const motion = machine?.states.get(name)?.motion;
    machine = motion?.kind === "machine" ? motion.machine : undefined;
  }
  return machine;
}

/** The selection with everything the spec no longer has removed (a deleted state, a shorter path…). */
export function pruneSelection(selection: Selection, spec: GraphSpec): Selection {
  const layer = selection.layer < spec.layers.length ? selection.layer : 0;
  const path: string[] = [];
  let machine = spec.layers[layer]?.machine;
  for (const name of layer === selection.layer ? selection.path : []) {
    const motion = machine?.states.get(name)?.motion;
    if (motion?.kind !== "machine") break;
    machine = motion.machine;
    path.push(name);
  }
  const states = selection.states.filter((s) => machine?.states.has(s));
  const transitions = selection.transitions.filter((t) => t >= 0 && t < (machine?.transitions.length ?? 0));
  const one = states.length === 1 ? machine?.states.get(states[0]!)?.motion : undefined;
  const sampleCount = one?.kind === "blend1d" ? one.children.length : one?.kind === "blend2d" ? one.samples.length : 0;
  const samples = selection.samples.filter((k) => k >= 0 && k < sampleCount);
  const next = { layer, path, states, transitions, samples, step: selection.step, joint: selection.joint };
  return sameSelection(next, selection) ? selection : next;
}

/** Creates the store (see {@link StudioStore}). */
export function createStudioStore(options: StoreOptions = {}): StudioStore {
  const coalesceMs = options.coalesceMs ?? 500;
  const historyLimit = options.historyLimit ?? 500;
  const now = options.now ?? (() => Date.now());
  let text = options.text ?? "";
  let file = options.file ?? "graph.animgraph.json";
  let version = 0;
  let savedText = text;
  let context: LintContext = {};
  let analysis: Analysis | undefined;
  let selection: Selection = EMPTY_SELECTION;
  /** The text version the selection was last checked against. */
  let prunedAt = -1;
  const undoStack: Step[] = [];
  const redoStack: Step[] = [];
  let sealed = true;
  const listeners = new Set<(change: StoreChange) => void>();

  const analyse = (): Analysis => {
    if (!analysis) {
      const tree = parseJsonText(text, file);
      const result = lintDocument(tree, context);
      analysis = { tree, spec: result.spec, diagnostics: result.diagnostics };
    }
    return analysis;
  };
  const currentSelection = (): Selection => {
    if (prunedAt !== version) {
      // A text that does not parse keeps the selection: it is usually a moment in the middle of typing.
      const spec = analyse().spec;
      if (spec) selection = pruneSelection(selection, spec);
      prunedAt = version;
    }
    return selection;
  };
  // A listener may change the store in turn: its change waits until every listener has heard this one,
  // so each hears every change in the order they happened.
  const queue: StoreChange[] = [];
  let notifying = false;
  const notify = (change: StoreChange): void => {
    queue.push(change);
    if (notifying) return;
    notifying = true;
    try {
      for (let next = queue.shift(); next; next = queue.shift()) {
        for (const listener of [...listeners]) listener(next);
      }
    } finally {
      notifying = false;
      queue.length = 0;
    }
  };
  const merge = (base: Selection, patch: Partial<Selection> | undefined): Selection => {
    if (!patch) return base;
    const next = { ...base, ...patch };
    return sameSelection(next, base) ? base : next;
  };
  /** Sets the text and the selection; returns whether the selection changed. */
  const setText = (next: string, nextSelection: Selection): boolean => {
    text = next;
    version++;
    analysis = undefined;
    const changed = !sameSelection(nextSelection, selection);
    selection = nextSelection;
    return changed;
  };
  /**
   * Undo and redo restore the selection around a step, but not the rewound step (that is the clock's) nor
   * the picked joint (the character's: undoing an edit made after a pick does not unpick it).
   */
  const restore = (s: Selection): Selection => ({ ...s, step: selection.step, joint: selection.joint });

  const store: StudioStore = {
    get text() { return text; },
    get file() { return file; },
    get version() { return version; },
    get analysis() { return analyse(); },
    get selection() { return currentSelection(); },
    get canUndo() { return undoStack.length > 0; },
    get canRedo() { return redoStack.length > 0; },
    get undoLabel() { return undoStack[undoStack.length - 1]?.label; },
    get redoLabel() { return redoStack[redoStack.length - 1]?.label; },
    get dirty() { return text !== savedText; },
    load(next, name, loadOptions = {}) {
      // The raw selection (not pruned against the old text: that would analyse a text on its way out).
      const before = selection;
      file = name;
      undoStack.length = 0;
      redoStack.length = 0;
      sealed = true;
      savedText = next;
      const selectionChanged = setText(next, merge(before, loadOptions.select));
      notify({ text: true, analysis: true, selection: selectionChanged, origin: "load", source: loadOptions.source });
    },
    edit(next, editOptions = {}) {
      const before = selection;
      const after = merge(before, editOptions.select);
      if (next === text) {
        if (after !== before) store.select(after, editOptions.source);
        return false;
      }
      const t = now();
      const top = undoStack[undoStack.length - 1];
      if (top && !sealed && editOptions.coalesce !== undefined && top.coalesce === editOptions.coalesce && t - top.time <= coalesceMs) {
        top.after = next;
        top.selectionAfter = after;
        top.time = t;
        // Typing a word and deleting it again, or dragging a state back, leaves no step.
        if (top.after === top.before) undoStack.pop();
      } else {
        undoStack.push({ before: text, after: next, selectionBefore: before, selectionAfter: after, label: editOptions.label ?? "Edit", coalesce: editOptions.coalesce, time: t });
        if (undoStack.length > historyLimit) undoStack.shift();
      }
      sealed = editOptions.coalesce === undefined;
      redoStack.length = 0;
      const selectionChanged = setText(next, after);
      notify({ text: true, analysis: true, selection: selectionChanged, origin: "edit", source: editOptions.source });
      return true;
    },
    select(patch, source) {
      const before = selection;
      const after = merge(before, patch);
      if (after === before) return;
      selection = after;
      notify({ text: false, analysis: false, selection: true, origin: "select", source });
    },
    undo() {
      const s = undoStack.pop();
      if (!s) return false;
      redoStack.push(s);
      sealed = true;
      const selectionChanged = setText(s.before, restore(s.selectionBefore));
      notify({ text: true, analysis: true, selection: selectionChanged, origin: "undo", source: undefined });
      return true;
    },
    redo() {
      const s = redoStack.pop();
      if (!s) return false;
      undoStack.push(s);
      sealed = true;
      const selectionChanged = setText(s.after, restore(s.selectionAfter));
      notify({ text: true, analysis: true, selection: selectionChanged, origin: "redo", source: undefined });
      return true;
    },
    seal() {
      sealed = true;
    },
    setLintContext(next) {
      context = next;
      analysis = undefined;
      prunedAt = -1;
      notify({ text: false, analysis: true, selection: false, origin: "context", source: undefined });
    },
    markSaved(name) {
      savedText = text;
      // Findings name the file: a new name re-derives them.
      const renamed = name !== undefined && name !== file;
      if (renamed) { file = name; analysis = undefined; }
      notify({ text: false, analysis: renamed, selection: false, origin: "saved", source: undefined });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
  };
  return store;
}
