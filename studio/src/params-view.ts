// The parameters panel: one labelled control per parameter of the spec (slider, number, toggle, button).
import { getParam, setParam, trigger, type GraphInstance, type GraphSpec } from "animgraph";

export interface ParamsView {
  /** Refreshes the controls from the instance (values set by drags elsewhere, triggers consumed). */
  sync(instance: GraphInstance): void;
}

export function createParamsView(host: HTMLElement, spec: GraphSpec, getInstance: () => GraphInstance, onChange: () => void): ParamsView {
  host.replaceChildren();
  const syncers: ((inst: GraphInstance) => void)[] = [];
  for (const p of spec.parameters.values()) {
    const id = `param-${p.name.replace(/[^\w-]/g, "_")}`;
    if (p.type === "trigger") {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "trigger";
      b.id = id;
      b.textContent = `${p.name} ▶`;
      b.setAttribute("aria-label", `Trigger ${p.name}`);
      b.addEventListener("click", () => { trigger(getInstance(), p.name); onChange(); });
      host.append(b);
      continue;
    }
    const label = document.createElement("label");
    label.htmlFor = id;
    const name = document.createElement("span");
    name.textContent = p.name;
    const input = document.createElement("input");
    input.id = id;
    input.dataset["param"] = p.name;
    const out = document.createElement("output");
    if (p.type === "bool") {
      input.type = "checkbox";
      input.addEventListener("change", () => { setParam(getInstance(), p.name, input.checked); onChange(); });
      syncers.push((inst) => { input.checked = getParam(inst, p.name) === true; out.textContent = input.checked ? "on" : "off"; });
    } else {
      const isInt = p.type === "int";
      const min = p.min ?? (isInt ? 0 : 0);
      const max = p.max ?? (isInt ? 10 : Math.max(1, Number(p.default) * 2 || 1));
      input.type = "range";
      input.min = String(min);
      input.max = String(max);
      // 40 steps across the range: arrow keys move in useful increments (Idle → Run in a few presses).
      input.step = isInt ? "1" : String((max - min) / 40);
      input.addEventListener("input", () => {
        const v = isInt ? Math.round(Number(input.value)) : Number(input.value);
        setParam(getInstance(), p.name, v);
        onChange();
      });
      syncers.push((inst) => {
        const v = Number(getParam(inst, p.name));
        if (document.activeElement !== input) input.value = String(v);
        out.textContent = isInt ? String(v) : v.toFixed(2);
      });
    }
    label.append(name, input, out);
    host.append(label);
  }
  return { sync: (inst) => syncers.forEach((s) => s(inst)) };
}
