// The IK layers panel: the document's `ik` array as a list, like a rig's constraint stack in Unity's
// Animation Rigging or the IK nodes after Unreal's state machine — add a two-bone, aim or foot-placement
// layer (its joints found in the character's skeleton), enable, reorder, remove; and for the selected
// layer, its joints picked from the skeleton and every value (weight, target, ground) a number or a
// parameter (an existing one, or a new one made for it). Every change is one store edit (ik-edits.ts);
// the list is rebuilt from the document after each, keeping the focus. Findings on a layer (the linter's
// and the compiler's chain checks) are shown at its row and in its form.
import type { Diagnostic } from "animgraph";
import type { DocumentEditor } from "./document-edit.ts";
import { button, field, h, rebuildKeepingFocus, row, select } from "./dom.ts";
import { declaredParams, isObject, parseDocument, type JsonObject, type JsonValue } from "./graph-edits.ts";
import {
  addAimJoint, addIkLayer, addLeg, bindIkValueToNewParam, ikLayers, ikValue, ikValueParam, IK_SOLVER_LABELS, IK_SOLVERS, moveIkLayer,
  removeAimJoint, removeIkLayer, removeLeg, renameIkLayer, setIkEnabled, setIkJoint, setIkSetting, setIkValue, solverOf,
  type IkJointPath, type IkSetting, type IkSkeleton, type IkSolver, type IkValueSlot,
} from "./ik-edits.ts";
import type { JointPicking } from "./joint-picking.ts";
import type { StudioStore } from "./store.ts";

export interface IkPanelLinks {
  readonly editor: DocumentEditor;
  /** The character's skeleton (joint pickers, new layers); undefined before one loads. */
  skeleton(): IkSkeleton | undefined;
  /** The character's size in model units: a new target parameter spans ± half of it. */
  size(): number;
  /** A parameter's live value, when a graph plays it. */
  paramValue(name: string): number | undefined;
  /** Shows a finding in the JSON editor. */
  selectFinding(d: Diagnostic): void;
  report(message: string): void;
  /** The selected layer changed (the viewport marks its gizmos). */
  selected?(index: number): void;
  /** Joint picking in the viewport: each joint field's "pick" button arms it. */
  picking?: JointPicking;
}

export interface IkPanel {
  /** The layer whose form shows (−1: none). */
  readonly selected: number;
  /** The findings of the graph as compiled (the chain checks come from the compiler, not the linter). */
  setFindings(findings: readonly Diagnostic[]): void;
  /** Every frame: the live values of the parameters the form shows. */
  update(): void;
}

const SLOT_LABELS: Readonly<Record<IkValueSlot, string>> = {
  "weight": "Weight", "target/0": "Target x", "target/1": "Target y", "target/2": "Target z",
  "ground/height": "Ground height", "ground/normal/0": "Ground normal x", "ground/normal/1": "Ground normal y", "ground/normal/2": "Ground normal z",
};
const NUMBER = "";
const NEW_PARAM = "\u0000new";
const num = (v: string): number | undefined => (v.trim() === "" || !Number.isFinite(Number(v)) ? undefined : Number(v));
/** "1, 2, 3" → numbers; undefined for an empty text or anything that is not a list of numbers. */
const numbers = (v: string): number[] | undefined => {
  if (v.trim() === "") return undefined;
  const out = v.split(/[,\s]+/).filter(Boolean).map(Number);
  return out.every(Number.isFinite) ? out : undefined;
};
const describe = (v: JsonValue | undefined): string => (Array.isArray(v) ? v.join(", ") : typeof v === "number" ? String(v) : "");

export function createIkPanel(host: HTMLElement, store: StudioStore, links: IkPanelLinks): IkPanel {
  const { editor } = links;
  let selected = -1;
  let newSolver: IkSolver = "twoBone";
  let findings: readonly Diagnostic[] = [];
  let findingsKey = "";

  const select_ = (i: number): void => {
    if (i === selected) return;
    selected = i;
    links.selected?.(i);
    render();
  };
  /** Runs an IK edit as one undo step; `after` maps its result to the layer to select. */
  const apply = <T>(label: string, edit: (doc: JsonObject) => T, after?: (result: T) => number): T | undefined => {
    const result = editor.apply(label, (doc) => edit(doc), { source: "ik" });
    if (result !== undefined && after) {
      // The store's listeners already rebuilt the list: again, with the selection the edit made.
      selected = after(result);
      links.selected?.(selected);
      render();
    }
    return result;
  };
  const focusRow = (i: number): void => {
    host.querySelector<HTMLElement>(`[data-ik-layer="${i}"]`)?.focus({ preventScroll: true });
  };

  const add = (): void => {
    const sk = links.skeleton();
    if (!sk) { links.report("Load a character first: IK layers pick its joints"); return; }
    const solver = newSolver;
    const i = apply(`Add ${IK_SOLVER_LABELS[solver]} layer`, (doc) => addIkLayer(doc, solver, sk), (index) => index);
    if (i !== undefined) focusRow(i);
  };
  const remove = (i: number, name: string): void => {
    apply(`Remove IK layer ${name}`, (doc) => { removeIkLayer(doc, i); return ikLayers(doc).length; }, (left) => Math.min(i, left - 1));
    if (selected >= 0) focusRow(selected);
    else host.querySelector<HTMLElement>('[data-key="ik-add"]')?.focus();
  };
  const move = (i: number, name: string, dir: -1 | 1): void => {
    const to = apply(`${dir < 0 ? "Raise" : "Lower"} IK layer ${name}`, (doc) => moveIkLayer(doc, i, dir), (index) => index);
    if (to !== undefined) focusRow(to);
  };
  const toggle = (i: number, name: string, on: boolean): void => {
    apply(`${on ? "Enable" : "Disable"} IK layer ${name}`, (doc) => setIkEnabled(doc, i, on));
  };

  /** A value: a number field, or the parameter it reads (with its live value); the picker switches. */
  const valueControl = (doc: JsonObject, layer: JsonObject, i: number, slot: IkValueSlot): Node => {
    const name = String(layer["name"]);
    const label = SLOT_LABELS[slot];
    const sk = links.skeleton();
    const v = ikValue(layer, slot, sk);
    const param = ikValueParam(v);
    const params = declaredParams(doc).filter((p) => p.type === "float" || p.type === "int");
    const picker = select(`${label} of ${name}: a number or a parameter`, `ik-bind-${slot}`, [
      [NUMBER, "number"], ...params.map((p) => [p.name, `⟵ ${p.name}`] as const), [NEW_PARAM, "new parameter…"],
    ], param ?? NUMBER, (choice) => {
      if (choice === NEW_PARAM) {
        const current = typeof v === "number" ? v : 0;
        const span = links.size() / 2;
        const range = slot === "weight" || slot.startsWith("ground/normal") ? undefined : [current - span, current + span] as const;
        const made = apply(`Bind ${label.toLowerCase()} of ${name} to a new parameter`, (d) => bindIkValueToNewParam(d, i, slot, range ? { range } : {}, sk));
        if (made !== undefined) links.report(`New parameter "${made}" drives ${label.toLowerCase()} of ${name}: its slider is in the Parameters panel`);
      } else if (choice === NUMBER) {
        // Unbinding keeps the value the parameter has now, so the pose does not jump.
        const now = param !== undefined ? links.paramValue(param) ?? defaultOf(doc, param) : 0;
        const value = slot === "weight" ? Math.min(1, Math.max(0, now)) : Math.round(now * 1000) / 1000;
        apply(`Set ${label.toLowerCase()} of ${name} to a number`, (d) => setIkValue(d, i, slot, value, sk));
      } else {
        apply(`Bind ${label.toLowerCase()} of ${name} to ${choice}`, (d) => setIkValue(d, i, slot, { param: choice }, sk));
      }
    });
    const parts: Node[] = [picker];
    if (param === undefined) {
      parts.push(field(label, `ik-value-${slot}`, typeof v === "number" ? String(v) : "", (text) => {
        const n = num(text);
        if (n === undefined) { links.report(`${label}: a number, please`); return; }
        apply(`Set ${label.toLowerCase()} of ${name}`, (d) => setIkValue(d, i, slot, n, sk));
      }, "number", { step: slot === "weight" ? "0.05" : "0.01", ...(slot === "weight" ? { min: "0", max: "1" } : {}) }));
    } else {
      parts.push(h("output", { class: "ik-live", "data-ik-live": param, "aria-label": `${param} now` }));
    }
    return row(label, ...parts);
  };
  const defaultOf = (doc: JsonObject, param: string): number => {
    const decl = isObject(doc["parameters"]) ? doc["parameters"][param] : undefined;
    return isObject(decl) && typeof decl["default"] === "number" ? decl["default"] : 0;
  };

  /**
   * A joint field: the skeleton's joints in a list, and a "pick" button that arms the viewport — the next
   * joint clicked there goes into the field (one undo step); Escape cancels. The field naming the joint
   * selected in the viewport is marked, and focusing a field selects its joint there.
   */
  const jointPicker = (layer: JsonObject, i: number, path: IkJointPath, label: string, current: JsonValue | undefined): HTMLElement => {
    const names = links.skeleton()?.names ?? [];
    const value = typeof current === "string" ? current : "";
    const layerName = String(layer["name"]);
    const key = path.join("-");
    const list = select(`${label} of ${layerName}`, `ik-joint-${key}`, names.map((n) => [n, n] as const), value, (joint) => {
      apply(`${label} of ${layerName}: ${joint}`, (d) => setIkJoint(d, i, path, joint));
    });
    list.dataset["joint"] = value;
    list.classList.toggle("joint-picked", value !== "" && value === store.selection.joint);
    list.addEventListener("focus", () => { if (value !== "" && names.includes(value)) store.select({ joint: value }, "ik"); });
    const out = h("span", { class: "ik-joint" }, list);
    const picking = links.picking;
    if (!picking) return out;
    const armKey = `${i}:${key}`;
    const armed = picking.armed?.key === armKey;
    const pick = button("Pick", `ik-pick-${key}`, () => {
      if (picking.armed?.key === armKey) { picking.cancel(); links.report(""); return; }
      picking.arm({
        key: armKey,
        label: `${label} of ${layerName}`,
        pick: (joint) => {
          editor.apply(`${label} of ${layerName}: ${joint} (picked)`, (d) => setIkJoint(d, i, path, joint), { source: "ik", select: () => ({ joint }) });
          render();
          links.report(`${label} of ${layerName}: ${joint}`);
        },
        cancelled: () => render(),
      });
      render();
    }, `Pick the ${label.toLowerCase()} of ${layerName} in the viewport (Escape cancels)`);
    pick.setAttribute("aria-pressed", String(armed));
    pick.title = armed ? "Click a joint in the viewport (Escape cancels)" : "Pick this joint by clicking it in the viewport";
    out.append(pick);
    return out;
  };

  const setting = (layer: JsonObject, i: number, key: IkSetting, label: string, placeholder: string, kind: "number" | "list"): Node => {
    const current = layer[key];
    return row(label, field(label, `ik-set-${key}`, describe(current), (text) => {
      const parsed = kind === "number" ? num(text) : numbers(text);
      if (text.trim() !== "" && parsed === undefined) { links.report(`${label}: ${kind === "number" ? "a number" : "numbers separated by commas"}, please`); return; }
      const value = Array.isArray(parsed) && parsed.length === 1 && key === "maxAngle" ? parsed[0] : parsed;
      apply(`Set ${label.toLowerCase()} of ${String(layer["name"])}`, (d) => setIkSetting(d, i, key, value));
    }, "text", { placeholder, class: kind === "list" ? "ik-list" : "ik-number" }));
  };

  const findingsAt = (i: number): Diagnostic[] => findings.filter((d) => d.pointer === `/ik/${i}` || d.pointer.startsWith(`/ik/${i}/`));
  const findingList = (list: readonly Diagnostic[]): Node =>
    h("ul", { class: "findings ik-findings", "aria-label": "Findings on this layer" }, ...list.map((d) => {
      const b = h("button", { type: "button", text: `${d.code} ${d.pointer}: ${d.message}` });
      b.addEventListener("click", () => links.selectFinding(d));
      return h("li", { class: d.severity }, b);
    }));

  function layerForm(doc: JsonObject, layer: JsonObject, i: number): Node[] {
    const solver = solverOf(layer);
    const name = String(layer["name"]);
    const out: Node[] = [h("h3", { text: `${name} — ${solver ? IK_SOLVER_LABELS[solver] : "unknown solver"}` })];
    out.push(row("Name", field(`IK layer name`, "ik-name", name, (v) => apply(`Rename IK layer ${name} to ${v}`, (d) => renameIkLayer(d, i, v)))));
    const list = findingsAt(i);
    if (list.length) out.push(findingList(list));
    if (!solver) return out;
    out.push(valueControl(doc, layer, i, "weight"));
    if (solver === "twoBone") {
      const joints = Array.isArray(layer["joints"]) ? layer["joints"] : [];
      out.push(row("Joints", ...["Upper joint", "Middle joint", "End joint"].map((label, k) => jointPicker(layer, i, ["joints", k], label, joints[k]))));
      for (const slot of ["target/0", "target/1", "target/2"] as const) out.push(valueControl(doc, layer, i, slot));
      out.push(setting(layer, i, "pole", "Pole (x, y, z)", "0, 0, 1", "list"));
      out.push(setting(layer, i, "poleWeight", "Pole weight", "1", "number"));
      out.push(setting(layer, i, "softness", "Softness", "0.02", "number"));
    } else if (solver === "aim") {
      const chain = Array.isArray(layer["chain"]) ? layer["chain"] : [];
      const ol = h("ol", { class: "ik-chain", "aria-label": "Chain, from its base to the aiming joint" });
      chain.forEach((j, k) => ol.append(h("li", {}, jointPicker(layer, i, ["chain", k], `Chain joint ${k + 1}`, j),
        button("✕", `ik-chain-remove-${k}`, () => apply(`Remove a joint from ${name}'s chain`, (d) => removeAimJoint(d, i, k)), `Remove chain joint ${k + 1}`))));
      out.push(row("Chain", ol, button("+ joint below", "ik-chain-add", () => {
        const sk = links.skeleton();
        if (sk) apply(`Extend ${name}'s chain`, (d) => addAimJoint(d, i, sk));
      }, "Add the first joint's parent at the chain's base")));
      for (const slot of ["target/0", "target/1", "target/2"] as const) out.push(valueControl(doc, layer, i, slot));
      out.push(setting(layer, i, "axis", "Aiming axis (x, y, z)", "0, 0, 1", "list"));
      out.push(setting(layer, i, "jointWeights", "Joint weights", "shared evenly", "list"));
      out.push(setting(layer, i, "maxAngle", "Max angle (°)", "180", "list"));
    } else {
      out.push(row("Pelvis", jointPicker(layer, i, ["pelvis"], "Pelvis", layer["pelvis"])));
      const legs = Array.isArray(layer["legs"]) ? layer["legs"] : [];
      const ol = h("ol", { class: "ik-legs", "aria-label": "Legs: upper, lower, foot" });
      legs.forEach((leg, k) => {
        const joints = Array.isArray(leg) ? leg : [];
        ol.append(h("li", {}, ...["upper leg", "lower leg", "foot"].map((label, m) => jointPicker(layer, i, ["legs", k, m], `Leg ${k + 1} ${label}`, joints[m])),
          button("✕", `ik-leg-remove-${k}`, () => apply(`Remove leg ${k + 1} of ${name}`, (d) => removeLeg(d, i, k)), `Remove leg ${k + 1}`)));
      });
      out.push(row("Legs", ol, button("+ leg", "ik-leg-add", () => {
        const sk = links.skeleton();
        if (sk) apply(`Add a leg to ${name}`, (d) => addLeg(d, i, sk));
      })));
      for (const slot of ["ground/height", "ground/normal/0", "ground/normal/1", "ground/normal/2"] as const) out.push(valueControl(doc, layer, i, slot));
      out.push(setting(layer, i, "floor", "Floor of the clips", "0", "number"));
      out.push(setting(layer, i, "maxPelvisDrop", "Max pelvis drop", "no limit", "number"));
      out.push(setting(layer, i, "alignToNormal", "Align feet to ground", "1", "number"));
      out.push(setting(layer, i, "softness", "Softness", "0.02", "number"));
      out.push(setting(layer, i, "up", "Up (x, y, z)", "0, 1, 0", "list"));
    }
    return out;
  }

  const render = (): void => rebuildKeepingFocus(host, () => {
    let doc: JsonObject;
    try { doc = parseDocument(store.text); } catch { return [h("p", { class: "hint", text: "The JSON does not parse." })]; }
    const layers = ikLayers(doc);
    if (selected >= layers.length) selected = layers.length - 1;
    const tools = h("div", { class: "ik-tools", role: "toolbar", "aria-label": "IK layers" },
      select("Solver of a new IK layer", "ik-new-solver", IK_SOLVERS.map((s) => [s, IK_SOLVER_LABELS[s]] as const), newSolver, (v) => { newSolver = v as IkSolver; }),
      Object.assign(button("+ IK layer", "ik-add", add), { title: "Add an IK layer of this solver (N in this panel); it runs after the others" }));
    tools.querySelector('[data-key="ik-add"]')?.setAttribute("aria-keyshortcuts", "N");
    const list = h("ul", { class: "ik-list", role: "listbox", "aria-label": "IK layers, in the order they run" });
    layers.forEach((l, i) => {
      const layer = isObject(l) ? l : {};
      const name = typeof layer["name"] === "string" ? layer["name"] : `layer ${i + 1}`;
      const solver = solverOf(layer);
      const on = layer["enabled"] !== false;
      const weight = ikValue(layer, "weight");
      const mine = findingsAt(i);
      const worst = mine.some((d) => d.severity === "error") ? "error" : mine.length ? "warning" : "";
      const box = h("input", { type: "checkbox", "data-key": `ik-enabled-${i}`, "aria-label": `Enable IK layer ${name}`, tabindex: "-1" });
      box.checked = on;
      box.addEventListener("change", () => toggle(i, name, box.checked));
      const li = h("li", {
        "data-ik-layer": String(i), role: "option", tabindex: i === Math.max(0, selected) ? "0" : "-1", "aria-selected": String(i === selected),
        "data-key": `ik-row-${i}`, class: [on ? "" : "disabled", worst ? `finding-${worst}` : ""].filter(Boolean).join(" "),
        title: mine.map((d) => d.message).join("\n"),
      }, box,
      h("span", { class: "ik-name", text: name }),
      h("span", { class: "ik-solver", text: solver ? IK_SOLVER_LABELS[solver] : String(layer["solver"]) }),
      h("span", { class: "ik-weight", text: typeof weight === "number" ? `w ${weight}` : `w ⟵ ${ikValueParam(weight) ?? "?"}` }),
      ...(worst ? [h("span", { class: "ik-bang", text: "!", "aria-label": `${mine.length} finding(s)` })] : []),
      Object.assign(button("↑", `ik-up-${i}`, () => move(i, name, -1), `Run ${name} earlier (Alt+↑)`), { tabIndex: -1 }),
      Object.assign(button("↓", `ik-down-${i}`, () => move(i, name, 1), `Run ${name} later (Alt+↓)`), { tabIndex: -1 }),
      Object.assign(button("✕", `ik-remove-${i}`, () => remove(i, name), `Remove ${name} (Delete)`), { tabIndex: -1 }));
      li.addEventListener("click", (e) => { if (!(e.target as HTMLElement).closest("button, input")) select_(i); });
      li.addEventListener("focus", () => select_(i));
      list.append(li);
    });
    const out: Node[] = [tools, list];
    if (layers.length === 0) out.push(h("p", { class: "hint", text: "No IK layers. Add one: it runs after the animation layers, on the pose they make — a hand on a target, a head looking at one, feet on a ground plane." }));
    const l = layers[selected];
    if (isObject(l)) out.push(h("div", { class: "ik-form", "data-ik-form": String(selected) }, ...layerForm(doc, l, selected)));
    return out;
  });

  host.addEventListener("keydown", (e) => {
    const target = e.target as HTMLElement;
    if (target.closest("input, textarea, select")) return;
    const rowEl = target.closest<HTMLElement>("[data-ik-layer]");
    if (!rowEl) {
      if ((e.key === "n" || e.key === "N") && !e.ctrlKey && !e.metaKey && !e.altKey) { e.preventDefault(); add(); }
      return;
    }
    const i = Number(rowEl.dataset["ikLayer"]);
    const name = rowEl.querySelector(".ik-name")?.textContent ?? "";
    const count = host.querySelectorAll("[data-ik-layer]").length;
    if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      e.preventDefault();
      const dir = e.key === "ArrowUp" ? -1 : 1;
      if (e.altKey) move(i, name, dir);
      else if (i + dir >= 0 && i + dir < count) { select_(i + dir); focusRow(i + dir); }
    } else if (e.key === "Delete" || e.key === "Backspace") {
      e.preventDefault();
      remove(i, name);
    } else if (e.key === " ") {
      e.preventDefault();
      toggle(i, name, !(rowEl.querySelector<HTMLInputElement>("input[type=checkbox]")?.checked ?? true));
    } else if (e.key === "Enter" || e.key === "F2") {
      e.preventDefault();
      const input = host.querySelector<HTMLInputElement>('[data-key="ik-name"]');
      input?.focus();
      if (e.key === "F2") input?.select();
    } else if ((e.key === "n" || e.key === "N") && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      add();
    }
  });

  store.subscribe((change) => {
    // Undo, redo or a new document may take the armed field away: picking stops.
    if (change.text && change.origin !== "edit") links.picking?.cancel();
    if (change.text || change.analysis) render();
    else if (change.selection) {
      // Only the marks of the joint selected in the viewport: no rebuild.
      for (const list of host.querySelectorAll<HTMLSelectElement>("select[data-joint]")) {
        list.classList.toggle("joint-picked", list.dataset["joint"] !== "" && list.dataset["joint"] === store.selection.joint);
      }
    }
  });
  render();
  return {
    get selected() { return selected; },
    setFindings(next) {
      const key = next.filter((d) => d.pointer.startsWith("/ik/")).map((d) => `${d.code}${d.pointer}${d.message}`).join("\n");
      findings = next;
      if (key !== findingsKey) { findingsKey = key; render(); }
    },
    update() {
      for (const out of host.querySelectorAll<HTMLOutputElement>("output[data-ik-live]")) {
        const v = links.paramValue(out.dataset["ikLive"]!);
        const text = v === undefined ? "–" : v.toFixed(3);
        if (out.textContent !== text) out.textContent = text;
      }
    },
  };
}
