// Layer tabs: one per layer of the graph, each showing the layer's current state, running crossfades and
// weight; the selected tab decides which machine the state graph, the blend panel and "why" show.
import type { CompiledGraph, GraphInstance } from "animgraph";

export interface LayersView {
  /** Index of the selected layer. */
  readonly selected: number;
  /** Shows layer `i` as selected (without calling back: the caller already knows). */
  select(i: number): void;
  update(instance: GraphInstance): void;
}

export function createLayersView(host: HTMLElement, graph: CompiledGraph, initial: number, onSelect: (layer: number) => void): LayersView {
  host.replaceChildren();
  host.setAttribute("role", "tablist");
  host.setAttribute("aria-label", "Layers");
  let selected = Math.min(initial, graph.layers.length - 1);
  const tabs = graph.layers.map((layer, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.setAttribute("role", "tab");
    b.dataset["layer"] = layer.name;
    b.className = "layer-tab";
    const name = document.createElement("strong");
    name.textContent = layer.name;
    const state = document.createElement("span");
    state.className = "layer-state";
    b.append(name, state);
    b.addEventListener("click", () => choose(i));
    b.addEventListener("keydown", (e) => {
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        e.preventDefault();
        const next = (i + (e.key === "ArrowRight" ? 1 : graph.layers.length - 1)) % graph.layers.length;
        choose(next);
        tabs[next]!.button.focus();
      }
    });
    host.append(b);
    return { button: b, state };
  });
  const select = (i: number): void => {
    selected = i;
    tabs.forEach((t, k) => t.button.setAttribute("aria-selected", String(k === i)));
  };
  const choose = (i: number): void => {
    select(i);
    onSelect(i);
  };
  // Every tab stays in the Tab order (and arrow keys move between them).
  tabs.forEach((t, k) => t.button.setAttribute("aria-selected", String(k === selected)));
  return {
    get selected() { return selected; },
    select,
    update(instance) {
      graph.layers.forEach((layer, i) => {
        const mi = instance.layers[i]!;
        const names = layer.machine.states;
        const fades: string[] = [];
        for (let k = 0; k < mi.depth; k++) {
          const e = mi.stack[k]!;
          fades.push(`${e.from >= 0 ? names[e.from]!.name : "pose"}→${names[e.to]!.name} ${(100 * e.progress).toFixed(0)}%`);
        }
        const weight = instance.result.layers[i]?.weight ?? 1;
        const mask = layer.mask ? " · masked" : "";
        const text = `${names[mi.current]!.name}${fades.length > 0 ? ` [${fades.join(", ")}]` : ""} · w ${weight.toFixed(2)}${mask}`;
        if (tabs[i]!.state.textContent !== text) tabs[i]!.state.textContent = text;
        tabs[i]!.button.dataset["state"] = names[mi.current]!.name;
        tabs[i]!.button.setAttribute("aria-label", `Layer ${layer.name}: ${text}`);
      });
    },
  };
}
