// The state-graph panel: the layer tabs, the breadcrumb of nested machines opened in place, the graph of
// the machine shown, its current state and its running transitions. Which layer and machine it shows is
// the store's selection; it rebuilds when that or the playing graph changes.
import type { CompiledMachine, GraphInstance } from "animgraph";
import { createGraphView, type GraphView, type Placed } from "./graph-view.ts";
import { createLayersView, type LayersView } from "./layers-view.ts";
import type { Live } from "./live-graph.ts";
import type { StudioStore } from "./store.ts";

export interface GraphPanelHosts {
  readonly layers: HTMLElement;
  readonly path: HTMLElement;
  readonly graph: HTMLElement;
  readonly currentState: HTMLElement;
  readonly transitions: HTMLElement;
}

export interface GraphPanel {
  /** The playing graph changed: rebuild the tabs and the graph. */
  show(live: Live | undefined): void;
  /** Every frame: the current states, the running transitions. */
  update(instance: GraphInstance): void;
  /** The machine shown and its breadcrumb text ("base › Air"), once a graph plays. */
  readonly shown: { readonly machine: CompiledMachine; readonly path: string } | undefined;
  /** The layer shown (the selection's, within the playing graph's layers). */
  readonly layer: number;
  /** Marks the state or transition a finding's JSON pointer names. */
  flashPointer(pointer: string): void;
}

export function createGraphPanel(store: StudioStore, hosts: GraphPanelHosts, onTravel: (layer: number, state: string) => void): GraphPanel {
  let live: Live | undefined;
  let layersView: LayersView | undefined;
  let graphView: GraphView | undefined;
  let shown: { machine: CompiledMachine; path: string } | undefined;
  let layer = 0;
  /** What the graph was built for: the layer and the path within the playing graph. */
  let builtFor = "";
  /** Per machine shown (by breadcrumb): where its states were drawn, so an edit keeps the layout. */
  const layoutMemory = new Map<string, ReadonlyMap<string, Placed>>();

  /** The machine the selection shows in the playing graph: the layer's, or a nested one opened in place. */
  const resolve = (l: Live): { layer: number; machine: CompiledMachine; names: string[] } => {
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

  const buildGraph = (l: Live): void => {
    const { layer: at, machine, names } = resolve(l);
    layer = at;
    const key = names.join(" › ");
    builtFor = key;
    shown = { machine, path: key };
    const depth = names.length - 1;
    graphView = createGraphView(hosts.graph, machine, l.graph.params.map((p) => p.name), (state) => {
      // Travel works on the layer's machine; inside a nested one a click selects nothing to travel to.
      if (depth === 0) onTravel(at, state);
      else onTravel(-1, state);
    }, layoutMemory.get(key), (state) => {
      store.select({ path: [...names.slice(1), machine.states[state]!.name], states: [], transitions: [], samples: [] }, "graph");
    });
    layoutMemory.set(key, graphView.positions);
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

  store.subscribe((change) => {
    if (!change.selection || !live) return;
    const { layer: at, names } = resolve(live);
    if (names.join(" › ") === builtFor) return;
    if (layersView && layersView.selected !== at) layersView.select(at);
    buildGraph(live);
  });

  const renderTransitions = (instance: GraphInstance, machine: CompiledMachine): void => {
    const host = hosts.transitions;
    const mi = instance.machines[machine.id]!;
    const rows: [string, number][] = [];
    for (let k = 0; k < mi.depth; k++) {
      const e = mi.stack[k]!;
      rows.push([`${e.from >= 0 ? machine.states[e.from]!.name : "pose"}→${machine.states[e.to]!.name}`, e.progress]);
    }
    const key = rows.map((r) => r[0]).join(",");
    if (host.dataset["key"] !== key) {
      host.dataset["key"] = key;
      host.replaceChildren(...rows.map(([name]) => {
        const div = document.createElement("div");
        div.className = "run";
        div.dataset["transition"] = name;
        const label = document.createElement("span");
        label.textContent = name;
        const bar = document.createElement("progress");
        bar.max = 1;
        bar.setAttribute("aria-label", `Transition ${name} progress`);
        div.append(label, bar);
        return div;
      }));
    }
    rows.forEach(([, progress], i) => {
      const bar = host.children[i]?.querySelector("progress");
      if (bar) bar.value = progress;
    });
  };

  return {
    get shown() { return shown; },
    get layer() { return layer; },
    show(next) {
      live = next;
      if (!next) return;
      layersView = createLayersView(hosts.layers, next.graph, resolve(next).layer, (at) => {
        if (at !== store.selection.layer) store.select({ layer: at, path: [], states: [], transitions: [], samples: [] }, "graph");
      });
      buildGraph(next);
    },
    update(instance) {
      if (!live || !shown || !graphView || !layersView) return;
      const { machine, path } = shown;
      const mi = instance.machines[machine.id]!;
      hosts.currentState.textContent = `${path}: ${machine.states[mi.current]!.name}`;
      layersView.update(instance);
      graphView.update(instance);
      renderTransitions(instance, machine);
    },
    flashPointer(pointer) {
      if (!graphView) return;
      const tm = /\/layers\/(\d+)\/machine\/transitions\/(\d+)/.exec(pointer);
      if (tm) { graphView.flashTransition(Number(tm[2])); return; }
      const sm = /\/states\/([^/]+)/.exec(pointer);
      if (sm) graphView.flashState(sm[1]!.replace(/~1/g, "/").replace(/~0/g, "~"));
    },
  };
}
