// The state graph, drawn from the document (machine-model.ts) and edited in place: states where their
// `x-pos` puts them (else laid out by depth from the entry, kept across edits), transitions with their
// conditions, the entry marked, lint findings marked with their messages on hover, the selection, and
// the live run on top (current state, progress on running transitions). The view only reports what the
// user did (select, drag, connect, travel, open…); the panel turns that into store edits. It is rebuilt
// on every change of the document or the selection (a few dozen elements), keeping the keyboard focus.
import type { CompiledMachine, GraphInstance } from "animgraph";
import type { MachineModel, ModelFinding } from "./machine-model.ts";

const SVG = "http://www.w3.org/2000/svg";
export const NODE_H = 28;
const COLUMN_GAP = 90;
const ROW_H = 74;
const MARGIN = 24;
/** Room at the top for the "any state" node. */
export const TOP = 40;
/** Approximate text widths (px) of the panel's fonts: 12 px state names, 9.5 px edge labels. */
const stateTextWidth = (text: string): number => text.length * 7.2;
const labelTextWidth = (text: string): number => text.length * 5.4;
const LABEL_LINE = 11;
const LABEL_CHARS = 30;
export const ANY_POS = { x: 48, y: 16 } as const;

export interface Placed { x: number; y: number }
interface Box { x0: number; y0: number; x1: number; y1: number }
const overlaps = (a: Box, b: Box): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** A node wide enough for its whole name (nothing is cut). */
export const nodeWidth = (name: string): number => Math.max(92, stateTextWidth(name) + 20);

export interface MachineLayout {
  readonly positions: Placed[];
  readonly width: number;
  readonly height: number;
}

/**
 * Where each state goes: its `x-pos`; else where it was last drawn (`keep`, by name); else a layered
 * layout (column = breadth-first depth from the entry, unreachable states last) in the first free row of
 * its column, so adding a state or editing a transition does not move the others.
 */
export function layoutMachine(model: MachineModel, keep: ReadonlyMap<string, Placed> = new Map()): MachineLayout {
  const index = new Map(model.states.map((s, i) => [s.name, i] as const));
  const depth = new Array<number>(model.states.length).fill(-1);
  const entry = index.get(model.entry);
  const queue: number[] = [];
  if (entry !== undefined) { depth[entry] = 0; queue.push(entry); }
  const anyTargets = model.transitions.filter((t) => t.from === "*").map((t) => index.get(t.to) ?? -1).filter((i) => i >= 0);
  while (queue.length) {
    const s = queue.shift()!;
    const name = model.states[s]!.name;
    const next = [...model.transitions.filter((t) => t.from === name).map((t) => index.get(t.to) ?? -1), ...anyTargets];
    for (const n of next) if (n >= 0 && depth[n] === -1) { depth[n] = depth[s]! + 1; queue.push(n); }
  }
  const maxDepth = Math.max(0, ...depth);
  for (let i = 0; i < depth.length; i++) if (depth[i] === -1) depth[i] = entry === undefined ? 0 : maxDepth + 1;
  const columns = Math.max(0, ...depth) + 1;
  const columnWidth = Array.from({ length: columns }, (_, c) =>
    Math.max(92, ...model.states.filter((_, i) => depth[i] === c).map((st) => nodeWidth(st.name))));
  const columnX: number[] = [];
  let x = MARGIN;
  for (let c = 0; c < columns; c++) {
    columnX.push(x + columnWidth[c]! / 2);
    x += columnWidth[c]! + COLUMN_GAP;
  }
  const out: Placed[] = [];
  const boxes: Box[] = [];
  const boxOf = (p: Placed, i: number): Box => {
    const w = nodeWidth(model.states[i]!.name) + 16;
    return { x0: p.x - w / 2, y0: p.y - NODE_H / 2 - 8, x1: p.x + w / 2, y1: p.y + NODE_H / 2 + 8 };
  };
  model.states.forEach((st, i) => {
    const fixed = st.pos ?? keep.get(st.name);
    if (fixed) { out[i] = { x: fixed.x, y: fixed.y }; boxes.push(boxOf(out[i]!, i)); }
  });
  model.states.forEach((_, i) => {
    if (out[i]) return;
    const c = depth[i]!;
    for (let r = 0; ; r++) {
      const p = { x: columnX[c]!, y: TOP + NODE_H / 2 + r * ROW_H };
      const box = boxOf(p, i);
      if (!boxes.some((b) => overlaps(b, box))) { out[i] = p; boxes.push(box); break; }
    }
  });
  const width = Math.max(x - COLUMN_GAP + MARGIN, ...out.map((p, i) => p.x + nodeWidth(model.states[i]!.name) / 2 + MARGIN));
  const height = Math.max(...out.map((p) => p.y + NODE_H / 2 + MARGIN + 20), 160);
  return { positions: out, width, height };
}

/** Splits a condition text into lines of at most LABEL_CHARS, at the ∧ between conditions where it can. */
export function wrapLabel(text: string): string[] {
  const parts = text.split(" ∧ ");
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 3 + part.length <= LABEL_CHARS) lines[lines.length - 1] = `${last} ∧ ${part}`;
    else lines.push(part);
  }
  return lines;
}

/** What the user did on the graph; the panel makes store edits of it. */
export interface GraphActions {
  /** Select these (replacing the selection, or toggled into it with `toggle`). */
  select(states: readonly string[], transitions: readonly number[], toggle: boolean): void;
  travel(state: string): void;
  open(state: string): void;
  /** States dragged (or moved by arrow keys) to these places; `done` at the end of a drag. */
  move(places: ReadonlyMap<string, readonly [number, number]>, done: boolean): void;
  /** A transition drawn from a state (or "*", any state) to another. */
  connect(from: string, to: string): void;
  /** Keyboard on a focused state or transition: Delete, F2 (rename), E (entry), C (connect), N (new state). */
  command(name: "delete" | "rename" | "entry" | "connect" | "add", target: { state?: string; transition?: number }): void;
  /** Double-click on the background: a new state there. */
  addAt(x: number, y: number): void;
}

export interface GraphViewOptions {
  readonly keep?: ReadonlyMap<string, Placed>;
  readonly selectedStates?: readonly string[];
  readonly selectedTransitions?: readonly number[];
  /** A connection being made from the keyboard: the source ("*" for any state). */
  readonly connectFrom?: string | undefined;
  /** The graph can be edited (the machine is the document's, not a stale compiled one). */
  readonly editable?: boolean;
}

export interface GraphView {
  /** Where each state was drawn, by name (kept by the next layout of this machine). */
  readonly positions: ReadonlyMap<string, Placed>;
  /** The live run: the current state and the running transitions of the compiled machine shown. */
  update(instance: GraphInstance, machine: CompiledMachine): void;
  flashState(name: string): void;
  flashTransition(index: number): void;
}

const findingClass = (findings: readonly ModelFinding[]): string =>
  findings.some((f) => f.severity === "error") ? "finding-error" : findings.length > 0 ? "finding-warning" : "";

/** The `<svg>` point of a pointer event (the graph is scaled to fit its panel). */
function svgPoint(svg: SVGSVGElement, clientX: number, clientY: number): Placed {
  const m = svg.getScreenCTM();
  if (!m) return { x: clientX, y: clientY };
  const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
  return { x: p.x, y: p.y };
}

export function createGraphView(host: HTMLElement, model: MachineModel, actions: GraphActions, options: GraphViewOptions = {}): GraphView {
  // The focused element survives the rebuild (keyboard users keep their place).
  const focused = document.activeElement instanceof Element && host.contains(document.activeElement)
    ? document.activeElement.closest("[data-state], [data-transition], [data-any]") : null;
  const focusKey = focused ? (focused.getAttribute("data-state") !== null ? `s:${focused.getAttribute("data-state")}` : focused.getAttribute("data-transition") !== null ? `t:${focused.getAttribute("data-transition")}` : "any") : "";
  const scroll = { left: host.scrollLeft, top: host.scrollTop };
  host.replaceChildren();
  const editable = options.editable ?? true;
  const selectedStates = new Set(options.selectedStates ?? []);
  const selectedTransitions = new Set(options.selectedTransitions ?? []);
  const layout = layoutMachine(model, options.keep);
  const pos = layout.positions;
  const width = Math.max(520, layout.width);
  const height = Math.max(250, layout.height);
  // Drawn at one graph unit per pixel (the panel scrolls): a drag moves a state exactly with the pointer.
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "group", "aria-label": `State graph: ${model.states.length} state(s), ${model.transitions.length} transition(s)` });
  if (options.connectFrom !== undefined) svg.classList.add("connecting");
  host.append(svg); // first, so labels can be measured as they are placed
  host.scrollLeft = scroll.left;
  host.scrollTop = scroll.top;
  const defs = el("defs");
  const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" });
  marker.append(el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#889" }));
  defs.append(marker);
  svg.append(defs);
  const background = el("rect", { class: "background", x: 0, y: 0, width, height });
  svg.append(background);
  const index = new Map(model.states.map((s, i) => [s.name, i] as const));
  // Label placement avoids the nodes and the labels already placed.
  const occupied: Box[] = pos.map((p, i) => {
    const w = nodeWidth(model.states[i]!.name);
    return { x0: p.x - w / 2, y0: p.y - NODE_H / 2, x1: p.x + w / 2, y1: p.y + NODE_H / 2 };
  });
  occupied.push({ x0: ANY_POS.x - 40, y0: ANY_POS.y - 11, x1: ANY_POS.x + 40, y1: ANY_POS.y + 11 });

  const edges: { g: SVGGElement; bar: SVGRectElement; bg: SVGRectElement; index: number; from: string; to: string }[] = [];
  for (const t of model.transitions) {
    const fromIndex = t.from === "*" ? -1 : index.get(t.from);
    const toIndex = index.get(t.to);
    if (fromIndex === undefined || toIndex === undefined) continue; // a dangling name: the finding lists it
    const a = fromIndex < 0 ? ANY_POS : pos[fromIndex]!;
    const b = pos[toIndex]!;
    const g = el("g", { class: `edge ${findingClass(t.findings)}`, "data-transition": t.index, tabindex: 0, role: "button" });
    if (selectedTransitions.has(t.index)) g.classList.add("selected");
    let d: string;
    let mx: number, my: number;
    if (fromIndex === toIndex) {
      // A transition to itself: a loop over the node.
      const w = nodeWidth(t.to);
      d = `M${b.x - w / 4},${b.y - NODE_H / 2} C${b.x - w / 4},${b.y - NODE_H * 1.8} ${b.x + w / 4},${b.y - NODE_H * 1.8} ${b.x + w / 4},${b.y - NODE_H / 2 - 2}`;
      mx = b.x; my = b.y - NODE_H * 1.6;
    } else {
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const len = Math.hypot(dx, dy) || 1;
      // Bend each edge to one side so A→B and B→A do not overlap.
      mx = (a.x + b.x) / 2 - (dy / len) * 18;
      my = (a.y + b.y) / 2 + (dx / len) * 18;
      const bw = nodeWidth(t.to);
      // Stop the arrow at the target's box edge.
      const scale = Math.min(Math.abs(dx) > 1e-6 ? (bw / 2 + 2) / Math.abs(dx) : Infinity, Math.abs(dy) > 1e-6 ? (NODE_H / 2 + 2) / Math.abs(dy) : Infinity);
      d = `M${a.x},${a.y} Q${mx},${my} ${b.x - dx * Math.min(1, scale)},${b.y - dy * Math.min(1, scale)}`;
    }
    g.append(el("path", { class: "hit", d }), el("path", { class: "line", d, "marker-end": "url(#arrow)" }));
    const fromName = t.from === "*" ? "any state" : t.from;
    const summary = `${fromName} → ${t.to}: ${t.label || "always"}${t.duration !== undefined ? ` (${t.duration}s)` : ""}`;
    g.setAttribute("aria-label", `Transition ${summary}${t.findings.length ? `; ${t.findings.map((f) => f.message).join("; ")}` : ""}`);
    const title = el("title");
    title.textContent = [summary, ...t.findings.map((f) => `${f.severity}: ${f.message}`)].join("\n");
    g.append(title);
    const lines = t.label === "" ? [] : wrapLabel(t.label);
    let lx = mx;
    let ly = my - 3 - lines.length * LABEL_LINE;
    let lh = lines.length * LABEL_LINE;
    svg.append(g);
    if (lines.length > 0) {
      const label = el("text", {});
      const place = (cx: number, top: number): void => {
        label.setAttribute("x", String(cx));
        label.setAttribute("y", String(top + LABEL_LINE - 2));
        for (const span of label.children) span.setAttribute("x", String(cx));
      };
      lines.forEach((line, i) => {
        const span = el("tspan", { dy: i === 0 ? 0 : LABEL_LINE });
        span.textContent = line;
        label.append(span);
      });
      g.append(label);
      const estimate = Math.max(...lines.map(labelTextWidth));
      const boxAt = (cx: number, top: number): Box => {
        place(cx, top);
        const bb = label.getBBox();
        return bb.width > 0 ? { x0: bb.x - 2, y0: bb.y - 1, x1: bb.x + bb.width + 2, y1: bb.y + bb.height + 7 } : { x0: cx - estimate / 2 - 2, y0: top, x1: cx + estimate / 2 + 2, y1: top + lh + 8 };
      };
      let box = boxAt(lx, ly);
      for (let k = 0; k < 40 && occupied.some((o) => overlaps(o, box)); k++) {
        // Above and below the curve alternately, further each time; then also sideways.
        ly = my - 3 - lh + Math.ceil((k + 1) / 2) * 8 * (k % 2 === 0 ? -1 : 1);
        lx = k >= 24 ? mx + (k % 2 === 0 ? -1 : 1) * (k - 22) * 14 : mx;
        box = boxAt(lx, ly);
      }
      occupied.push(box);
      lh = box.y1 - box.y0 - 8;
      ly = box.y0 + 1;
    }
    const barY = lines.length > 0 ? ly + lh + 2 : my + 2;
    const bg = el("rect", { class: "bar-bg", x: lx - 20, y: barY, width: 40, height: 4, visibility: "hidden" });
    const bar = el("rect", { class: "bar", x: lx - 20, y: barY, width: 0, height: 4 });
    g.append(bg, bar);
    const pick = (toggle: boolean): void => actions.select([], [t.index], toggle);
    g.addEventListener("click", (e) => { e.stopPropagation(); pick(e.shiftKey || e.ctrlKey || e.metaKey); });
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(e.shiftKey); }
      else if ((e.key === "Delete" || e.key === "Backspace") && editable) { e.preventDefault(); actions.command("delete", { transition: t.index }); }
    });
    edges.push({ g, bar, bg, index: t.index, from: t.from, to: t.to });
  }

  // "Any state": always there while editing, the source of transitions that fire from every state.
  const any = el("g", { class: "state any", "data-any": "*", tabindex: 0, role: "button", "aria-label": "Any state: press C, then a target state, to add a transition from any state" });
  any.append(el("rect", { x: ANY_POS.x - 40, y: ANY_POS.y - 11, width: 80, height: 22, rx: 11 }));
  const anyText = el("text", { x: ANY_POS.x, y: ANY_POS.y });
  anyText.textContent = "any state";
  any.append(anyText);
  svg.append(any);
  if (editable) any.append(connector(ANY_POS.x + 40, ANY_POS.y, "*"));
  any.addEventListener("keydown", (e) => { if ((e.key === "c" || e.key === "C") && editable) { e.preventDefault(); actions.command("connect", { state: "*" }); } });
  if (options.connectFrom === "*") any.classList.add("connect-source");

  const nodes: SVGGElement[] = model.states.map((s, i) => {
    const p = pos[i]!;
    const w = nodeWidth(s.name);
    const isEntry = s.name === model.entry;
    const g = el("g", { class: `state ${findingClass(s.findings)}`, "data-state": s.name, tabindex: 0, role: "button" });
    if (selectedStates.has(s.name)) g.classList.add("selected");
    if (isEntry) g.classList.add("entry");
    if (options.connectFrom === s.name) g.classList.add("connect-source");
    const kind = s.kind === "blend1d" ? "1D blend" : s.kind === "blend2d" ? "2D blend" : s.kind === "machine" ? "nested machine" : s.kind === "clip" ? (s.mirror ? "clip, mirrored" : "clip") : "no motion";
    g.setAttribute("aria-label", `State ${s.name} (${kind}${isEntry ? ", entry" : ""})${s.findings.length ? `; ${s.findings.map((f) => f.message).join("; ")}` : ""}. `
      + "Enter selects, T travels there, Delete deletes, F2 renames, E makes it the entry, C starts a transition, arrow keys move it");
    g.append(el("rect", { class: "body", x: p.x - w / 2, y: p.y - NODE_H / 2, width: w, height: NODE_H, rx: 6 }));
    const text = el("text", { x: p.x, y: p.y });
    text.textContent = s.name;
    g.append(text);
    if (isEntry) g.append(el("path", { class: "entry-mark", d: `M${p.x - w / 2 - 12},${p.y - 6} L${p.x - w / 2 - 3},${p.y} L${p.x - w / 2 - 12},${p.y + 6} z` }));
    if (s.kind !== "clip" && s.kind !== "machine" && s.kind !== undefined) {
      const badge = el("text", { class: "kind", x: p.x - w / 2 + 4, y: p.y - NODE_H / 2 + 7 });
      badge.textContent = s.kind === "blend1d" ? "1D" : "2D";
      g.append(badge);
    }
    if (s.kind === "clip" && s.mirror) {
      // It plays its clip's mirror image (the graph compiles the mirrored clip once).
      g.classList.add("mirrored");
      const badge = el("text", { class: "kind mirror-badge", x: p.x - w / 2 + 4, y: p.y - NODE_H / 2 + 7 });
      badge.textContent = "⇋";
      g.append(badge);
    }
    if (s.findings.length > 0) {
      const title = el("title");
      title.textContent = [`${s.name} (${kind})`, ...s.findings.map((f) => `${f.severity}: ${f.message}`)].join("\n");
      g.append(title);
      const mark = el("circle", { class: "finding-mark", cx: p.x + w / 2 - 2, cy: p.y + NODE_H / 2 - 2, r: 6 });
      const bang = el("text", { class: "finding-bang", x: p.x + w / 2 - 2, y: p.y + NODE_H / 2 - 2 });
      bang.textContent = "!";
      g.append(mark, bang);
    }
    if (editable) g.append(connector(p.x + w / 2, p.y, s.name));
    g.addEventListener("pointerdown", (e) => startDrag(e, s.name));
    g.addEventListener("dblclick", (e) => { e.stopPropagation(); actions.travel(s.name); });
    g.addEventListener("keydown", (e) => keyOnState(e, s.name));
    svg.append(g);
    if (s.kind === "machine") {
      // A nested machine opens in place: a button on the state's corner (or "o" on the focused state).
      g.classList.add("nested");
      const open = el("g", { class: "open-nested", tabindex: 0, role: "button", "data-open": s.name, "aria-label": `Open the machine inside ${s.name}` });
      open.append(el("rect", { x: p.x + w / 2 - 18, y: p.y - NODE_H / 2 - 8, width: 22, height: 16, rx: 4 }));
      const icon = el("text", { x: p.x + w / 2 - 7, y: p.y - NODE_H / 2 });
      icon.textContent = "⤵";
      open.append(icon);
      open.addEventListener("pointerdown", (e) => e.stopPropagation());
      open.addEventListener("click", (e) => { e.stopPropagation(); actions.open(s.name); });
      open.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); actions.open(s.name); } });
      svg.append(open);
    }
    return g;
  });

  function connector(x: number, y: number, from: string): SVGCircleElement {
    const c = el("circle", { class: "connector", cx: x, cy: y, r: 5, "data-connect": from });
    const title = el("title");
    title.textContent = "Drag to a state to add a transition";
    c.append(title);
    c.addEventListener("pointerdown", (e) => startConnect(e, from, x, y));
    return c;
  }

  function keyOnState(e: KeyboardEvent, name: string): void {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const key = e.key;
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (key === "Enter" || key === " ") {
      e.preventDefault();
      if (options.connectFrom !== undefined && editable) actions.connect(options.connectFrom, name);
      else actions.select([name], [], e.shiftKey);
    } else if (key === "t" || key === "T") { e.preventDefault(); actions.travel(name); }
    else if (key === "o" || key === "O") { if (model.states[index.get(name)!]?.kind === "machine") { e.preventDefault(); actions.open(name); } }
    else if (!editable) return;
    else if (key === "Delete" || key === "Backspace") { e.preventDefault(); actions.command("delete", { state: name }); }
    else if (key === "F2") { e.preventDefault(); actions.command("rename", { state: name }); }
    else if (key === "e" || key === "E") { e.preventDefault(); actions.command("entry", { state: name }); }
    else if (key === "c" || key === "C") { e.preventDefault(); actions.command("connect", { state: name }); }
    else if (arrows[key]) {
      e.preventDefault();
      const step = e.shiftKey ? 1 : 10;
      const moving = selectedStates.has(name) ? [...selectedStates] : [name];
      actions.move(new Map(moving.map((n) => {
        const p = pos[index.get(n) ?? -1];
        return [n, [(p?.x ?? 0) + arrows[key]![0] * step, (p?.y ?? 0) + arrows[key]![1] * step] as const];
      })), true);
    }
  }

  /** Press on a state: select it (Shift/Ctrl: toggle), and drag it — with the rest of the selection — when the pointer moves. */
  function startDrag(e: PointerEvent, name: string): void {
    if (e.button !== 0 || (e.target as Element).closest(".connector, .open-nested")) return;
    e.preventDefault();
    (e.currentTarget as SVGGElement).focus({ preventScroll: true });
    const toggle = e.shiftKey || e.ctrlKey || e.metaKey;
    if (options.connectFrom !== undefined && editable) { actions.connect(options.connectFrom, name); return; }
    const moving = selectedStates.has(name) && !toggle ? [...selectedStates] : [name];
    // Measured before selecting: the selection rebuilds the graph, and this svg leaves the page.
    const start = svgPoint(svg, e.clientX, e.clientY);
    if (!selectedStates.has(name) || toggle) actions.select([name], [], toggle);
    if (!editable || toggle) return;
    const origin = new Map(moving.map((n) => [n, pos[index.get(n) ?? -1] ?? { x: 0, y: 0 }] as const));
    let moved = false;
    const places = (ev: PointerEvent): Map<string, readonly [number, number]> => {
      // The graph may have been rebuilt (and rescaled) since: measure on the svg now in the host.
      const now = host.querySelector("svg");
      const p = now ? svgPoint(now, ev.clientX, ev.clientY) : start;
      return new Map([...origin].map(([n, o]) => [n, [Math.max(nodeWidth(n) / 2 + 4, o.x + p.x - start.x), Math.max(TOP + NODE_H / 2, o.y + p.y - start.y)] as const]));
    };
    const onMove = (ev: PointerEvent): void => {
      if (!moved && Math.hypot(ev.clientX - e.clientX, ev.clientY - e.clientY) < 3) return;
      moved = true;
      actions.move(places(ev), false);
    };
    const onUp = (ev: PointerEvent): void => {
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", onUp);
      if (moved) actions.move(places(ev), true);
    };
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", onUp);
  }

  /** Drag from a state's connector (or any state's) to another state: a transition. */
  function startConnect(e: PointerEvent, from: string, x: number, y: number): void {
    if (e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    const line = el("line", { class: "rubber", x1: x, y1: y, x2: x, y2: y });
    svg.append(line);
    const onMove = (ev: PointerEvent): void => {
      const now = host.querySelector("svg");
      if (!now || !line.isConnected) return;
      const p = svgPoint(now, ev.clientX, ev.clientY);
      line.setAttribute("x2", String(p.x));
      line.setAttribute("y2", String(p.y));
    };
    const onUp = (ev: PointerEvent): void => {
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", onUp);
      line.remove();
      const target = document.elementFromPoint(ev.clientX, ev.clientY)?.closest("[data-state]");
      const to = target?.getAttribute("data-state");
      if (to) actions.connect(from, to);
    };
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", onUp);
  }

  background.addEventListener("pointerdown", (e) => {
    if (e.button === 0 && !e.shiftKey && !e.ctrlKey) actions.select([], [], false);
  });
  background.addEventListener("dblclick", (e) => {
    if (!editable) return;
    const p = svgPoint(svg, e.clientX, e.clientY);
    actions.addAt(p.x, p.y);
  });

  if (focusKey) {
    const again = focusKey === "any" ? any : focusKey.startsWith("s:") ? nodes[index.get(focusKey.slice(2)) ?? -1] : edges.find((x) => `t:${x.index}` === focusKey)?.g;
    again?.focus({ preventScroll: true });
  }

  const flash = (node: Element | undefined): void => {
    if (!node) return;
    node.classList.add("flash");
    (node as SVGGElement).scrollIntoView?.({ block: "nearest" });
    setTimeout(() => node.classList.remove("flash"), 1200);
  };
  const positions = new Map(model.states.map((st, i) => [st.name, pos[i]!] as const));
  return {
    positions,
    update(instance, machine) {
      const mi = instance.machines[machine.id];
      if (!mi) return;
      const current = machine.states[mi.current]?.name;
      nodes.forEach((g, i) => g.classList.toggle("current", model.states[i]!.name === current));
      const running = new Map<number, number>();
      for (let k = 0; k < mi.depth; k++) {
        const e = mi.stack[k]!;
        if (e.transition < 0) continue;
        const t = machine.transitions[e.transition];
        if (!t) continue;
        const from = t.from < 0 ? "*" : machine.states[t.from]!.name;
        const to = machine.states[t.to]!.name;
        // The compiled transition is the document's when the names agree (an edit may not be compiled yet).
        const match = edges.find((x) => x.index === e.transition && x.from === from && x.to === to);
        if (match) running.set(match.index, e.progress);
      }
      for (const e of edges) {
        const p = running.get(e.index);
        e.g.classList.toggle("active", p !== undefined);
        e.bar.setAttribute("width", String(p === undefined ? 0 : 40 * p));
        e.bg.setAttribute("visibility", p === undefined ? "hidden" : "visible");
      }
    },
    flashState(name) {
      flash(nodes[index.get(name) ?? -1]);
    },
    flashTransition(i) {
      flash(edges.find((x) => x.index === i)?.g);
    },
  };
}
