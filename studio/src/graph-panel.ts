// The state-graph panel: the layer tabs, the breadcrumb of nested machines opened in place, the graph
// editor of the machine the selection shows (drawn from the document, so a machine that does not compile
// yet is still drawn and edited), the live run on top of it, and its running transitions. Every edit is a
// store edit (document-edit.ts); the graph rebuilds when the document or the selection changes.
import type { CompiledMachine, GraphInstance } from "animgraph";
import type { DocumentEditor } from "./document-edit.ts";
import {
  addState, addTransition, deleteStates, deleteTransitions, parseDocument, placeStates, setEntry, type JsonObject, type MotionKind,
} from "./graph-edits.ts";
import type { ContinuityTracker } from "./continuity-tracker.ts";
import { createGraphView, type GraphView, type Placed } from "./graph-view.ts";
import { createLayersView, type LayersView } from "./layers-view.ts";
import type { Live } from "./live-graph.ts";
import { machineModel, type MachineModel } from "./machine-model.ts";
import type { StudioStore } from "./store.ts";

export interface GraphPanelHosts {
  readonly layers: HTMLElement;
  readonly path: HTMLElement;
  readonly graph: HTMLElement;
  readonly currentState: HTMLElement;
  readonly transitions: HTMLElement;
}

/** What a new state plays, as the toolbar's pickers say. */
export interface NewStateChoice { readonly kind: MotionKind; readonly clip: string }

export interface GraphPanelLinks {
  readonly editor: DocumentEditor;
  /** Travel there (`layer` −1: inside a nested machine, where travel does not reach). */
  travel(layer: number, state: string): void;
  /** The toolbar's choice for a new state. */
  newState(): NewStateChoice;
  /** F2 on a state: the inspector's name field. */
  rename(state: string): void;
  /** A line for the status (what to do next while connecting; why an edit did not apply). */
  report(message: string): void;
}

export interface GraphPanel {
  /** The playing graph changed: rebuild the tabs and the graph. */
  show(live: Live | undefined): void;
  /** Every frame: the current states, the running transitions (with their continuity figures, when given). */
  update(instance: GraphInstance, continuity?: ContinuityTracker): void;
  /** The machine shown and its breadcrumb text ("base › Air"), once a graph plays. */
  readonly shown: { readonly machine: CompiledMachine; readonly path: string } | undefined;
  /** The layer shown (the selection's, within the playing graph's layers). */
  readonly layer: number;
  /** The document's machine shown (undefined while the JSON does not parse). */
  readonly model: MachineModel | undefined;
  /** Marks the state or transition a finding's JSON pointer names. */
  flashPointer(pointer: string): void;
  /** Starts a transition from a state ("*": any state): the next state chosen is its target. */
  startConnect(from: string): void;
  /** Adds the toolbar's new state at a free place; returns its name. */
  addState(at?: readonly [number, number]): string | undefined;
  deleteSelection(): void;
  makeEntry(): void;
}

export function createGraphPanel(store: StudioStore, hosts: GraphPanelHosts, links: GraphPanelLinks): GraphPanel {
  let live: Live | undefined;
  let layersView: LayersView | undefined;
  let graphView: GraphView | undefined;
  let model: MachineModel | undefined;
  let shown: { machine: CompiledMachine; path: string } | undefined;
  let layer = 0;
  let connectFrom: string | undefined;
  /** Per machine shown (by breadcrumb): where its states were drawn, so an edit keeps the layout. */
  const layoutMemory = new Map<string, ReadonlyMap<string, Placed>>();
  const { editor } = links;

  /** The compiled machine the selection shows in the playing graph, when it has it. */
  const resolveLive = (l: Live): { layer: number; machine: CompiledMachine; names: string[] } => {
    const { selection } = store;
    const at = Math.min(selection.layer, l.graph.layers.length - 1);
    let machine = l.graph.layers[at]!.machine;
    const names = [l.graph.layers[at]!.name];
    for (const name of at === selection.layer ? selection.path : []) {
      const state = machine.states[machine.stateIndex.get(name) ?? -1];
      if (!state || state.motion.kind !== "machine") break;
      machine = state.motion.machine;
      names.push(name);
    }
    return { layer: at, machine, names };
  };

  const documentNames = (doc: JsonObject | undefined): string[] => {
    const layers = doc && Array.isArray(doc["layers"]) ? doc["layers"] : [];
    const l = layers[store.selection.layer];
    const name = l && typeof l === "object" && !Array.isArray(l) && typeof l["name"] === "string" ? l["name"] : `layer ${store.selection.layer}`;
    return [name, ...store.selection.path];
  };

  const build = (): void => {
    let doc: JsonObject | undefined;
    try { doc = parseDocument(store.text); } catch { doc = undefined; }
    const next = doc ? machineModel(doc, { layer: store.selection.layer, path: store.selection.path }, store.analysis.diagnostics) : undefined;
    hosts.graph.classList.toggle("stale", !next);
    if (!next) return; // the JSON does not parse: the last drawing stays (greyed) until it does
    model = next;
    const names = documentNames(doc);
    const key = names.join(" › ");
    if (live) {
      const r = resolveLive(live);
      layer = r.layer;
      shown = r.names.join(" › ") === key ? { machine: r.machine, path: key } : undefined;
    }
    const { selection } = store;
    graphView = createGraphView(hosts.graph, next, actions, {
      keep: layoutMemory.get(key),
      selectedStates: selection.states,
      selectedTransitions: selection.transitions,
      connectFrom,
    });
    layoutMemory.set(key, graphView.positions);
    renderPath(names);
  };

  const renderPath = (names: string[]): void => {
    hosts.path.replaceChildren(...names.flatMap((name, d) => {
      let part: HTMLElement;
      if (d === names.length - 1) {
        // The machine shown: plain text, not a control.
        part = document.createElement("span");
        part.setAttribute("aria-current", "location");
      } else {
        const b = document.createElement("button");
        b.type = "button";
        b.setAttribute("aria-label", d === 0 ? `Back to layer ${name}'s machine` : `Back to the machine inside ${name}`);
        b.addEventListener("click", () => store.select({ path: names.slice(1, d + 1), states: [], transitions: [], samples: [] }, "graph"));
        part = b;
      }
      part.className = "crumb";
      part.textContent = name;
      return d === 0 ? [part] : [document.createTextNode(" › "), part];
    }));
  };

  const setConnect = (from: string | undefined): void => {
    connectFrom = from;
    links.report(from === undefined ? "" : `New transition from ${from === "*" ? "any state" : from}: click the target state (or focus it and press Enter); Esc cancels`);
    build();
  };

  /** A free place for a new state: right of the last row's rightmost state, or a new row when the panel's width is full. */
  const freePlace = (): [number, number] => {
    const placed = graphView ? [...graphView.positions.values()] : [];
    if (placed.length === 0) return [110, 80];
    const limit = Math.max(420, hosts.graph.clientWidth - 70);
    const lastRow = Math.max(...placed.map((p) => p.y));
    const x = Math.max(...placed.filter((p) => p.y > lastRow - 40).map((p) => p.x));
    return x + 160 > limit ? [110, lastRow + 80] : [x + 160, lastRow];
  };

  const actions = {
    select(states: readonly string[], transitions: readonly number[], toggle: boolean) {
      const s = store.selection;
      const flip = <T>(list: readonly T[], items: readonly T[]): T[] => [...list.filter((x) => !items.includes(x)), ...items.filter((x) => !list.includes(x))];
      store.select(toggle
        ? { states: flip(s.states, states), transitions: flip(s.transitions, transitions), samples: [] }
        : { states: [...states], transitions: [...transitions], samples: [] }, "graph");
    },
    travel(state: string) {
      links.travel(store.selection.path.length === 0 ? store.selection.layer : -1, state);
    },
    open(state: string) {
      store.select({ path: [...store.selection.path, state], states: [], transitions: [], samples: [] }, "graph");
    },
    move(places: ReadonlyMap<string, readonly [number, number]>, done: boolean) {
      const names = [...places.keys()];
      editor.apply(names.length === 1 ? `Move state ${names[0]}` : `Move ${names.length} states`, (doc, loc) => placeStates(doc, loc, places), { coalesce: `move:${names.join("\u0000")}` });
      if (done) store.seal();
    },
    connect(from: string, to: string) {
      connectFrom = undefined;
      links.report("");
      const made = editor.apply(`Add transition ${from === "*" ? "any state" : from} → ${to}`, (doc, loc) => addTransition(doc, loc, from, to), {
        select: (index) => ({ states: [], transitions: [index], samples: [] }),
      });
      if (made === undefined) build();
      else focusTransition(made);
    },
    command(name: "delete" | "rename" | "entry" | "connect" | "add", target: { state?: string; transition?: number }) {
      if (name === "rename" && target.state !== undefined) links.rename(target.state);
      else if (name === "entry" && target.state !== undefined) makeEntry(target.state);
      else if (name === "connect" && target.state !== undefined) setConnect(target.state);
      else if (name === "add") panel.addState();
      else if (name === "delete") {
        const s = store.selection;
        const inSelection = (target.state !== undefined && s.states.includes(target.state)) || (target.transition !== undefined && s.transitions.includes(target.transition));
        if (inSelection) deleteSelection();
        else if (target.state !== undefined) deleteThese([target.state], []);
        else if (target.transition !== undefined) deleteThese([], [target.transition]);
      }
    },
    addAt(x: number, y: number) {
      panel.addState([x, y]);
    },
  };

  const focusTransition = (index: number): void => {
    hosts.graph.querySelector<SVGGElement>(`[data-transition="${index}"]`)?.focus({ preventScroll: true });
  };

  const deleteThese = (states: readonly string[], transitions: readonly number[]): void => {
    if (states.length === 0 && transitions.length === 0) { links.report("Nothing selected to delete"); return; }
    const what = [states.length ? `${states.length === 1 ? `state ${states[0]}` : `${states.length} states`}` : "", transitions.length ? `${transitions.length} transition(s)` : ""].filter(Boolean).join(" and ");
    editor.apply(`Delete ${what}`, (doc, loc) => {
      // Transitions first (their indices are the current ones), then states with theirs.
      deleteTransitions(doc, loc, transitions);
      deleteStates(doc, loc, states);
    }, { select: () => ({ states: [], transitions: [], samples: [] }) });
    hosts.graph.querySelector<SVGGElement>("[data-state]")?.focus({ preventScroll: true });
  };
  const deleteSelection = (): void => deleteThese(store.selection.states, store.selection.transitions);
  const makeEntry = (state?: string): void => {
    const name = state ?? store.selection.states[0];
    if (name === undefined) { links.report("Select a state to make it the entry"); return; }
    editor.apply(`Make ${name} the entry`, (doc, loc) => setEntry(doc, loc, name));
  };

  store.subscribe((change) => {
    if (change.text || change.analysis || change.selection) build();
    if (change.selection && live && layersView) {
      const at = resolveLive(live).layer;
      if (layersView.selected !== at) layersView.select(at);
    }
  });

  const renderTransitions = (instance: GraphInstance, machine: CompiledMachine, continuity?: ContinuityTracker): void => {
    const host = hosts.transitions;
    const mi = instance.machines[machine.id]!;
    const rows: [string, number, string][] = [];
    for (let k = 0; k < mi.depth; k++) {
      const e = mi.stack[k]!;
      // The blend mode and the transition's continuity figure (its first frame's velocity jump).
      const t = e.transition >= 0 ? machine.transitions[e.transition] : undefined;
      const jump = t ? continuity?.jumpOf(machine.id, t.index) : undefined;
      const detail = `${t ? t.blendName : "travel"}${jump === undefined ? "" : ` · jump ${jump.toFixed(2)} rad/s`}`;
      rows.push([`${e.from >= 0 ? machine.states[e.from]!.name : "pose"}→${machine.states[e.to]!.name}`, e.progress, detail]);
    }
    const key = rows.map((r) => `${r[0]} ${r[2]}`).join(",");
    if (host.dataset["key"] !== key) {
      host.dataset["key"] = key;
      host.replaceChildren(...rows.map(([name, , detail]) => {
        const div = document.createElement("div");
        div.className = "run";
        div.dataset["transition"] = name;
        const label = document.createElement("span");
        label.textContent = name;
        const mode = document.createElement("span");
        mode.className = "blend-mode";
        mode.textContent = detail;
        const bar = document.createElement("progress");
        bar.max = 1;
        bar.setAttribute("aria-label", `Transition ${name} progress`);
        div.append(label, mode, bar);
        return div;
      }));
    }
    rows.forEach(([, progress], i) => {
      const bar = host.children[i]?.querySelector("progress");
      if (bar) bar.value = progress;
    });
  };

  hosts.graph.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && connectFrom !== undefined) { e.preventDefault(); setConnect(undefined); }
  });

  const panel: GraphPanel = {
    get shown() { return shown; },
    get layer() { return layer; },
    get model() { return model; },
    show(next) {
      live = next;
      if (next) {
        layersView = createLayersView(hosts.layers, next.graph, resolveLive(next).layer, (at) => {
          if (at !== store.selection.layer) store.select({ layer: at, path: [], states: [], transitions: [], samples: [] }, "graph");
        });
      }
      build();
    },
    update(instance, continuity) {
      if (!live || !layersView) return;
      layersView.update(instance);
      if (!shown || !graphView) { hosts.currentState.textContent = "–"; return; }
      const { machine, path } = shown;
      const mi = instance.machines[machine.id]!;
      hosts.currentState.textContent = `${path}: ${machine.states[mi.current]!.name}`;
      graphView.update(instance, machine);
      renderTransitions(instance, machine, continuity);
    },
    flashPointer(pointer) {
      if (!graphView) return;
      const tm = /\/machine\/transitions\/(\d+)/.exec(pointer);
      if (tm) { graphView.flashTransition(Number(tm[1])); return; }
      const sm = /\/states\/([^/]+)/.exec(pointer);
      if (sm) graphView.flashState(sm[1]!.replace(/~1/g, "/").replace(/~0/g, "~"));
    },
    startConnect(from) {
      setConnect(from);
    },
    addState(at) {
      const choice = links.newState();
      const place = at ?? freePlace();
      const name = editor.apply(`Add state`, (doc, loc) => addState(doc, loc, { kind: choice.kind, clip: choice.clip, at: place }), {
        select: (n) => ({ states: [n], transitions: [], samples: [] }),
      });
      if (name !== undefined) hosts.graph.querySelector<SVGGElement>(`[data-state="${CSS.escape(name)}"]`)?.focus({ preventScroll: true });
      return name;
    },
    deleteSelection,
    makeEntry: () => makeEntry(),
  };
  return panel;
}
