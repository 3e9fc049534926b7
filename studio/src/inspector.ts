// The inspector: a form for what is selected on the graph. A state: its name (a rename takes its
// references along), what it plays (a clip, a 1D or 2D blend with its samples placed by dragging, a nested
// machine), speed, loop, entry, and a transition to another state. A transition: duration, curve, blend
// mode, exit time, its conditions (built over the declared parameters, with the operators each type
// allows), interruption source, and its priority among the transitions from the same state. Every change
// is one store edit; the form is rebuilt from the document after each, keeping the focus.
import { CURVE_NAMES, SPEC_ENUMS } from "animgraph";
import type { DocumentEditor } from "./document-edit.ts";
import { button, field, h, rebuildKeepingFocus, row, select } from "./dom.ts";
import {
  addCondition, addSample, addTransition, declaredParams, deleteStates, deleteTransitions, isObject, machineAt, moveTransition, MOTION_KINDS,
  motionKind, operatorsFor, parseDocument, removeCondition, removeSample, renameState, setBlendParam, setCondition, setEntry, setInterruption,
  setMotion, setSample, setStateField, setTransitionField, type JsonObject, type MotionKind,
} from "./graph-edits.ts";
import { createSampleEditor } from "./sample-editor.ts";
import type { StudioStore } from "./store.ts";

export interface InspectorLinks {
  readonly editor: DocumentEditor;
  /** The character's clip names. */
  clips(): readonly string[];
  /** A parameter's live value (for the blend samples' weights), when a graph plays. */
  paramValue(name: string): number | undefined;
  travel(state: string): void;
  open(state: string): void;
  /** Starts drawing a transition from this state on the graph. */
  connect(from: string): void;
}

export interface Inspector {
  /** Focuses the selected state's name field (F2 on the graph). */
  focusName(): void;
  /** Every frame: the live weights of the samples shown. */
  update(): void;
}

const KIND_LABELS: Record<MotionKind, string> = { clip: "Clip", blend1d: "1D blend tree", blend2d: "2D blend space", machine: "Nested machine" };
/** How a transition blends (the spec's `blend`; the first is the default). */
const BLEND_MODES: readonly string[] = SPEC_ENUMS.transitionBlend;

const num = (v: string): number | undefined => (v.trim() === "" || !Number.isFinite(Number(v)) ? undefined : Number(v));

export function createInspector(host: HTMLElement, store: StudioStore, links: InspectorLinks): Inspector {
  const { editor } = links;
  let samples: ReturnType<typeof createSampleEditor> | undefined;

  const render = (): void => rebuildKeepingFocus(host, () => {
    samples = undefined;
    let doc: JsonObject;
    try { doc = parseDocument(store.text); } catch { return [h("p", { class: "hint", text: "The JSON does not parse: fix it in the editor to edit the graph." })]; }
    let machine: JsonObject;
    try { machine = machineAt(doc, editor.location()); } catch { return [h("p", { class: "hint", text: "This machine is not in the document." })]; }
    const s = store.selection;
    const states = isObject(machine["states"]) ? machine["states"] : {};
    const transitions = Array.isArray(machine["transitions"]) ? machine["transitions"] : [];
    if (s.states.length === 1 && s.transitions.length === 0 && isObject(states[s.states[0]!])) return stateForm(doc, machine, s.states[0]!, states[s.states[0]!] as JsonObject);
    if (s.transitions.length === 1 && s.states.length === 0 && isObject(transitions[s.transitions[0]!])) return transitionForm(doc, machine, s.transitions[0]!, transitions[s.transitions[0]!] as JsonObject);
    if (s.states.length + s.transitions.length > 1) {
      return [
        h("h3", { text: `${s.states.length} state(s), ${s.transitions.length} transition(s) selected` }),
        h("p", { class: "hint", text: "Drag one of them to move the states together; Delete removes them all." }),
        button("Delete selected", "delete-selection", () => editor.apply("Delete the selection", (d, loc) => { deleteTransitions(d, loc, s.transitions); deleteStates(d, loc, s.states); }, { select: () => ({ states: [], transitions: [] }) })),
      ];
    }
    return [
      h("h3", { text: `Machine: ${Object.keys(states).length} state(s), ${transitions.length} transition(s)` }),
      h("p", { class: "hint", text: "Add a state with the toolbar (or N on the graph, or double-click its background). Click a state or a transition to edit it; Shift+click adds to the selection. Drag a state's right-hand dot onto another state (or press C, then pick the target) to connect them." }),
    ];
  });

  const clipOptions = (): [string, string][] => links.clips().map((c) => [c, c]);

  function stateForm(doc: JsonObject, machine: JsonObject, name: string, state: JsonObject): Node[] {
    const kind = motionKind(state) ?? "clip";
    const isEntry = machine["entry"] === name;
    const out: Node[] = [h("h3", { text: `State ${name}${isEntry ? " (entry)" : ""}` })];
    out.push(row("Name", field(`State name`, "state-name", name, (v) => {
      editor.apply(`Rename state ${name} to ${v}`, (d, loc) => renameState(d, loc, name, v), { select: () => ({ states: [v] }), source: "inspector" });
    })));
    out.push(row("Motion", select("Motion kind", "state-kind", MOTION_KINDS.map((k) => [k, KIND_LABELS[k]] as const), kind, (v) => {
      editor.apply(`Make ${name} a ${KIND_LABELS[v as MotionKind]}`, (d, loc) => setMotion(d, loc, name, v as MotionKind), { source: "inspector" });
    })));
    if (kind === "clip") {
      out.push(row("Clip", select("Clip", "state-clip", clipOptions(), typeof state["clip"] === "string" ? state["clip"] : "", (v) => {
        editor.apply(`Play ${v} in ${name}`, (d, loc) => setMotion(d, loc, name, "clip", v), { source: "inspector" });
      })));
      const mirror = h("input", { type: "checkbox", "data-key": "state-mirror", "aria-label": "Play the clip mirrored (left and right swapped)" });
      mirror.checked = state["mirror"] === true;
      mirror.addEventListener("change", () => editor.apply(`${mirror.checked ? "Mirror" : "Unmirror"} ${name}`, (d, loc) => setStateField(d, loc, name, "mirror", mirror.checked ? true : undefined), { source: "inspector" }));
      out.push(row("Mirror", mirror));
    } else if (kind === "blend1d" || kind === "blend2d") {
      out.push(...blendForm(doc, name, state, kind));
    } else {
      out.push(button(`Open the machine inside ${name}`, "state-open", () => links.open(name)));
    }
    const speed = state["speed"];
    const params = declaredParams(doc).filter((p) => p.type === "float" || p.type === "int");
    const speedParam = isObject(speed) && typeof speed["param"] === "string" ? speed["param"] : "";
    out.push(row("Speed",
      field("Speed (playback rate)", "state-speed", typeof speed === "number" ? String(speed) : speedParam ? "" : "1", (v) => {
        const n = num(v);
        editor.apply(`Set ${name}'s speed`, (d, loc) => setStateField(d, loc, name, "speed", n === undefined || n === 1 ? undefined : n), { source: "inspector" });
      }, "number", { step: "0.1", min: "0" }),
      select("Speed from a parameter", "state-speed-param", [["", "constant"], ...params.map((p) => [p.name, `× ${p.name}`] as [string, string])], speedParam, (v) => {
        editor.apply(`Set ${name}'s speed`, (d, loc) => setStateField(d, loc, name, "speed", v === "" ? undefined : { param: v }), { source: "inspector" });
      })));
    out.push(row("Loop", select("Loop mode", "state-loop", [["", "loop (default)"], ...SPEC_ENUMS.loop.filter((l) => l !== "loop").map((l) => [l, l] as [string, string])],
      typeof state["loop"] === "string" && state["loop"] !== "loop" ? state["loop"] : "", (v) => {
        editor.apply(`Set ${name}'s loop mode`, (d, loc) => setStateField(d, loc, name, "loop", v === "" ? undefined : v), { source: "inspector" });
      })));
    const final = h("input", { type: "checkbox", "data-key": "state-final", "aria-label": "Final: the machine may stop here (no way out is intended)" });
    final.checked = state["final"] === true;
    final.addEventListener("change", () => editor.apply(`${final.checked ? "Mark" : "Unmark"} ${name} final`, (d, loc) => setStateField(d, loc, name, "final", final.checked ? true : undefined), { source: "inspector" }));
    out.push(row("Final", final));
    const others = Object.keys(isObject(machine["states"]) ? machine["states"] : {});
    const target = select("Target of a new transition", "new-transition-target", others.map((o) => [o, o] as const), others.find((o) => o !== name) ?? name, () => {});
    out.push(row("Transition to", target, button("Add", "add-transition", () => {
      const to = target.value;
      editor.apply(`Add transition ${name} → ${to}`, (d, loc) => addTransition(d, loc, name, to), { select: (i) => ({ states: [], transitions: [i] }), source: "inspector" });
    }, `Add a transition from ${name} to the chosen state`), button("Draw…", "draw-transition", () => links.connect(name), "Draw a transition from this state on the graph")));
    out.push(h("div", { class: "actions" },
      isEntry ? h("span", { class: "hint", text: "The machine starts here." }) : button("Make entry", "make-entry", () => editor.apply(`Make ${name} the entry`, (d, loc) => setEntry(d, loc, name), { source: "inspector" })),
      button("Travel here", "travel", () => links.travel(name), `Travel the running character to ${name}`),
      button("Delete state", "delete-state", () => editor.apply(`Delete state ${name}`, (d, loc) => deleteStates(d, loc, [name]), { select: () => ({ states: [] }), source: "inspector" }))));
    return out;
  }

  function blendForm(doc: JsonObject, name: string, state: JsonObject, kind: "blend1d" | "blend2d"): Node[] {
    const blend = state[kind] as JsonObject;
    const params = declaredParams(doc).filter((p) => p.type === "float" || p.type === "int").map((p) => [p.name, p.name] as [string, string]);
    const out: Node[] = [];
    const axes = kind === "blend1d" ? [typeof blend["param"] === "string" ? blend["param"] : ""] : Array.isArray(blend["params"]) ? blend["params"].map((p) => (typeof p === "string" ? p : "")) : ["", ""];
    axes.forEach((axis, k) => out.push(row(kind === "blend1d" ? "Parameter" : k === 0 ? "X parameter" : "Y parameter", select(kind === "blend1d" ? "Blend parameter" : `Blend ${k === 0 ? "x" : "y"} parameter`, `blend-param-${k}`, params, axis, (v) => {
      editor.apply(`Blend ${name} on ${v}`, (d, loc) => setBlendParam(d, loc, name, k as 0 | 1, v), { source: "inspector" });
    }))));
    const list = (kind === "blend1d" ? blend["children"] : blend["samples"]);
    const items = Array.isArray(list) ? list.filter(isObject) : [];
    samples = createSampleEditor(kind === "blend1d" ? 1 : 2, items.map((it) => kind === "blend1d" ? [Number(it["at"]) || 0, 0] as [number, number] : [Number(it["x"]) || 0, Number(it["y"]) || 0] as [number, number]),
      items.map((it) => String(it["clip"] ?? "")), () => axes.map((a) => links.paramValue(a)),
      (k, at, done) => {
        editor.apply(`Move ${name}'s sample ${k + 1}`, (d, loc) => setSample(d, loc, name, k, { at }), { coalesce: `sample:${name}:${k}`, source: "inspector" });
        if (done) store.seal();
      });
    out.push(samples.element);
    const table = h("ol", { class: "samples", "aria-label": `${name}'s samples` });
    items.forEach((it, k) => {
      const coords = kind === "blend1d"
        ? [field(`Sample ${k + 1} position`, `sample-at-${k}`, String(it["at"] ?? 0), (v) => { const n = num(v); if (n !== undefined) editor.apply(`Place ${name}'s sample ${k + 1}`, (d, loc) => setSample(d, loc, name, k, { at: [n] }), { source: "inspector" }); }, "number", { step: "0.1" })]
        : (["x", "y"] as const).map((c, ci) => field(`Sample ${k + 1} ${c}`, `sample-${c}-${k}`, String(it[c] ?? 0), (v) => {
          const n = num(v);
          if (n === undefined) return;
          const other = Number(it[ci === 0 ? "y" : "x"]) || 0;
          editor.apply(`Place ${name}'s sample ${k + 1}`, (d, loc) => setSample(d, loc, name, k, { at: ci === 0 ? [n, other] : [other, n] }), { source: "inspector" });
        }, "number", { step: "0.1" }));
      table.append(h("li", { "data-sample": String(k) }, ...coords,
        select(`Sample ${k + 1} clip`, `sample-clip-${k}`, clipOptions(), String(it["clip"] ?? ""), (v) => editor.apply(`Set ${name}'s sample ${k + 1} clip`, (d, loc) => setSample(d, loc, name, k, { clip: v }), { source: "inspector" })),
        h("output", { class: "weight", "data-weight": String(k), "aria-label": `Sample ${k + 1} weight` }),
        button("✕", `sample-remove-${k}`, () => editor.apply(`Remove ${name}'s sample ${k + 1}`, (d, loc) => removeSample(d, loc, name, k), { source: "inspector" }), `Remove sample ${k + 1}`)));
    });
    out.push(table, button("Add sample", "sample-add", () => editor.apply(`Add a sample to ${name}`, (d, loc) => addSample(d, loc, name), { source: "inspector" })));
    return out;
  }

  function transitionForm(doc: JsonObject, machine: JsonObject, index: number, t: JsonObject): Node[] {
    const from = String(t["from"]);
    const to = String(t["to"]);
    const title = `${from === "*" ? "Any state" : from} → ${to}`;
    const list = (machine["transitions"] as JsonObject[]);
    const siblings = list.map((x, i) => [x, i] as const).filter(([x]) => isObject(x) && x["from"] === from).map(([, i]) => i);
    const rank = siblings.indexOf(index);
    const out: Node[] = [h("h3", { text: `Transition ${title}` })];
    const set = (label: string, key: string, value: JsonObject[string] | undefined): void => {
      editor.apply(`${label} of ${title}`, (d, loc) => setTransitionField(d, loc, index, key, value), { source: "inspector" });
    };
    out.push(row("Duration (s)", field("Duration in seconds", "t-duration", typeof t["duration"] === "number" ? String(t["duration"]) : "", (v) => set("Duration", "duration", num(v)), "number", { step: "0.05", min: "0" })));
    out.push(row("Curve", select("Curve", "t-curve", CURVE_NAMES.map((c) => [c, c === "smoothstep" ? "smoothstep (default)" : c] as const), typeof t["curve"] === "string" ? t["curve"] : "smoothstep", (v) => set("Curve", "curve", v === "smoothstep" ? undefined : v))));
    out.push(row("Blend mode", select("Blend mode", "t-blend", BLEND_MODES.map((m) => [m, m === BLEND_MODES[0] ? `${m} (default)` : m] as const), typeof t["blend"] === "string" ? t["blend"] : BLEND_MODES[0]!, (v) => set("Blend mode", "blend", v === BLEND_MODES[0] ? undefined : v))));
    const hasExit = typeof t["exitTime"] === "number";
    const exitBox = h("input", { type: "checkbox", "data-key": "t-has-exit", "aria-label": "Has exit time" });
    exitBox.checked = hasExit;
    exitBox.addEventListener("change", () => set(exitBox.checked ? "Exit time" : "No exit time", "exitTime", exitBox.checked ? 0.75 : undefined));
    out.push(row("Exit time", exitBox, ...(hasExit ? [field("Exit time (fraction of the source's cycle)", "t-exit", String(t["exitTime"]), (v) => set("Exit time", "exitTime", num(v)), "number", { step: "0.05", min: "0" })] : [])));
    // Conditions: all must hold.
    const params = declaredParams(doc);
    const types = new Map(params.map((p) => [p.name, p.type] as const));
    const conditions = Array.isArray(t["conditions"]) ? t["conditions"] : [];
    const ul = h("ul", { class: "conditions", "aria-label": "Conditions (all must hold)" });
    conditions.forEach((c, k) => {
      if (!isObject(c)) return;
      const param = typeof c["param"] === "string" ? c["param"] : "";
      const type = types.get(param) ?? "float";
      const li = h("li", { "data-condition": String(k) },
        select(`Condition ${k + 1} parameter`, `c-param-${k}`, params.map((p) => [p.name, `${p.name} (${p.type})`] as const), param, (v) => editor.apply(`Condition on ${v}`, (d, loc) => setCondition(d, loc, index, k, { param: v }), { source: "inspector" })));
      const ops = operatorsFor(type);
      if (type === "bool") {
        const truth = (c["value"] === undefined || c["value"] === true) !== (c["op"] === "!=");
        li.append(select(`Condition ${k + 1} value`, `c-value-${k}`, [["true", "is true"], ["false", "is false"]], String(truth), (v) => editor.apply(`Condition on ${param}`, (d, loc) => setCondition(d, loc, index, k, { op: "==", value: v === "true" }), { source: "inspector" })));
      } else if (ops.length > 0) {
        li.append(
          select(`Condition ${k + 1} operator`, `c-op-${k}`, ops.map((o) => [o, o] as const), typeof c["op"] === "string" ? c["op"] : "==", (v) => editor.apply(`Condition on ${param}`, (d, loc) => setCondition(d, loc, index, k, { op: v }), { source: "inspector" })),
          field(`Condition ${k + 1} value`, `c-value-${k}`, String(c["value"] ?? 0), (v) => { const n = num(v); if (n !== undefined) editor.apply(`Condition on ${param}`, (d, loc) => setCondition(d, loc, index, k, { value: n }), { source: "inspector" }); }, "number", { step: type === "int" ? "1" : "0.1" }));
      } else {
        li.append(h("span", { class: "hint", text: "is triggered" }));
      }
      li.append(button("✕", `c-remove-${k}`, () => editor.apply(`Remove a condition of ${title}`, (d, loc) => removeCondition(d, loc, index, k), { source: "inspector" }), `Remove condition ${k + 1}`));
      ul.append(li);
    });
    out.push(h("div", { class: "row" }, h("span", { class: "row-label", text: "Conditions" }), ul));
    out.push(button("Add condition", "c-add", () => editor.apply(`Add a condition to ${title}`, (d, loc) => addCondition(d, loc, index), { source: "inspector" }), "Add a condition over a declared parameter"));
    const interruption = isObject(t["interruption"]) && typeof t["interruption"]["source"] === "string" ? t["interruption"]["source"] : "none";
    out.push(row("Interruption", select("Interruption source", "t-interruption", SPEC_ENUMS.interruptionSource.map((v) => [v, v] as const), interruption, (v) => {
      editor.apply(`Interruption of ${title}`, (d, loc) => setInterruption(d, loc, index, v), { source: "inspector" });
    })));
    const move = (dir: -1 | 1): void => {
      editor.apply(`${dir < 0 ? "Raise" : "Lower"} the priority of ${title}`, (d, loc) => moveTransition(d, loc, index, dir), { select: (i) => ({ transitions: [i] }), source: "inspector" });
    };
    out.push(row("Priority", h("span", { class: "hint", text: `${rank + 1} of ${siblings.length} from ${from === "*" ? "any state" : from}` }),
      button("↑", "t-up", () => move(-1), "Raise priority (checked earlier)"), button("↓", "t-down", () => move(1), "Lower priority (checked later)")));
    out.push(h("div", { class: "actions" }, button("Delete transition", "delete-transition", () => editor.apply(`Delete transition ${title}`, (d, loc) => deleteTransitions(d, loc, [index]), { select: () => ({ transitions: [] }), source: "inspector" }))));
    return out;
  }

  store.subscribe((change) => { if (change.text || change.selection || change.origin === "context") render(); });
  render();
  return {
    focusName() {
      const input = host.querySelector<HTMLInputElement>('[data-key="state-name"]');
      input?.focus();
      input?.select();
    },
    update() {
      samples?.update(host);
    },
  };
}
