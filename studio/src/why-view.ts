// "Why (not)?": explainStep for the selected layer's machine at the shown frame — for every transition
// out of its state, whether the next step fires it and, if not, why (conditions with values, exit time,
// priority, interruption, a trigger consumed by another layer).
import { explainStep, type CompiledGraph, type GraphInstance } from "animgraph";

export interface WhyView {
  update(graph: CompiledGraph, instance: GraphInstance, layer: number): void;
}

export function createWhyView(host: HTMLElement): WhyView {
  let lastKey = "";
  return {
    update(graph, instance, layer) {
      const explanation = explainStep(graph, instance);
      const layerName = graph.layers[layer]?.name;
      const machines = explanation.machines.filter((m) => m.layer === layerName);
      const key = JSON.stringify(machines.map((m) => ({ ...m, crossfade: m.crossfade ? { ...m.crossfade, progress: 0 } : null })));
      if (key === lastKey) return;
      lastKey = key;
      host.replaceChildren();
      for (const m of machines) {
        const head = document.createElement("p");
        head.className = "why-head";
        head.textContent = `${m.machine}: in ${m.state}${m.crossfade ? `, fading ${m.crossfade.from} → ${m.crossfade.to} (interruption ${m.crossfade.interruption}${m.crossfade.interrupted ? `; it interrupted ${m.crossfade.interrupted.from} → ${m.crossfade.interrupted.to}` : ""})` : ""}${m.travel ? `, travelling: ${m.travel}` : ""}`;
        host.append(head);
        const list = document.createElement("ul");
        list.className = "why-list";
        for (const t of m.transitions) {
          const li = document.createElement("li");
          li.className = `why-${t.verdict}`;
          li.dataset["verdict"] = t.verdict;
          li.dataset["to"] = t.to;
          li.textContent = `${t.verdict === "fired" ? "✓" : "✗"} ${t.from} → ${t.to}: ${t.verdict === "fired" ? "" : `[${t.verdict}] `}${t.reason}`;
          li.title = t.pointer;
          list.append(li);
        }
        if (m.transitions.length === 0) {
          const li = document.createElement("li");
          li.textContent = "No transition leaves this state.";
          list.append(li);
        }
        host.append(list);
      }
    },
  };
}
