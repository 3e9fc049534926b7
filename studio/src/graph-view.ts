// The state-graph panel: states laid out by breadth-first depth from the entry state, edges with their
// conditions, the current state highlighted and a progress bar on each running transition.
import type { CompiledMachine, GraphInstance } from "animgraph";

const SVG = "http://www.w3.org/2000/svg";
const NODE_H = 28;
const COLUMN_GAP = 90;
const ROW_H = 74;
const MARGIN = 24;
const TOP = 40; // room for the "any state" node
/** Approximate text widths (px) of the panel's fonts: 12 px state names, 9.5 px edge labels. */
const stateTextWidth = (text: string): number => text.length * 7.2;
const labelTextWidth = (text: string): number => text.length * 5.4;
const LABEL_LINE = 11;
const LABEL_CHARS = 30;

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
 * Layered layout: column = breadth-first depth from the entry, unreachable states last, columns as
 * wide as their widest name. States in `keep` (by name, from the previous layout of this layer) stay
 * where they were, so adding a state or editing a transition does not re-lay out the graph; new
 * states take the first free row of their column.
 */
export function layoutMachine(machine: CompiledMachine, keep: ReadonlyMap<string, Placed> = new Map()): MachineLayout {
  const depth = new Array<number>(machine.states.length).fill(-1);
  depth[machine.entry] = 0;
  const queue = [machine.entry];
  const anyTargets = machine.transitions.filter((t) => t.from < 0).map((t) => t.to);
  while (queue.length) {
    const s = queue.shift()!;
    const next = [...machine.transitions.filter((t) => t.from === s).map((t) => t.to), ...anyTargets];
    for (const n of next) if (depth[n] === -1) { depth[n] = depth[s]! + 1; queue.push(n); }
  }
  const maxDepth = Math.max(0, ...depth);
  for (let i = 0; i < depth.length; i++) if (depth[i] === -1) depth[i] = maxDepth + 1;
  const columns = Math.max(...depth) + 1;
  const columnWidth = Array.from({ length: columns }, (_, c) =>
    Math.max(92, ...machine.states.filter((_, i) => depth[i] === c).map((st) => nodeWidth(st.name))));
  const columnX: number[] = [];
  let x = MARGIN;
  for (let c = 0; c < columns; c++) {
    columnX.push(x + columnWidth[c]! / 2);
    x += columnWidth[c]! + COLUMN_GAP;
  }
  const out: Placed[] = [];
  const boxes: Box[] = [];
  const boxOf = (p: Placed, i: number): Box => {
    const w = nodeWidth(machine.states[i]!.name) + 16;
    return { x0: p.x - w / 2, y0: p.y - NODE_H / 2 - 8, x1: p.x + w / 2, y1: p.y + NODE_H / 2 + 8 };
  };
  machine.states.forEach((st, i) => {
    const kept = keep.get(st.name);
    if (kept) { out[i] = kept; boxes.push(boxOf(kept, i)); }
  });
  machine.states.forEach((_, i) => {
    if (out[i]) return;
    const c = depth[i]!;
    for (let r = 0; ; r++) {
      const p = { x: columnX[c]!, y: TOP + NODE_H / 2 + r * ROW_H };
      const box = boxOf(p, i);
      if (!boxes.some((b) => overlaps(b, box))) { out[i] = p; boxes.push(box); break; }
    }
  });
  const width = Math.max(x - COLUMN_GAP + MARGIN, ...out.map((p, i) => p.x + nodeWidth(machine.states[i]!.name) / 2 + MARGIN));
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

export interface GraphView {
  /** Where each state was drawn, by name (kept by the next layout of this layer). */
  readonly positions: ReadonlyMap<string, Placed>;
  update(instance: GraphInstance): void;
  flashState(name: string): void;
  flashTransition(index: number): void;
}

export function conditionText(machine: CompiledMachine, t: CompiledMachine["transitions"][number], paramNames: readonly string[]): string {
  const ops = [">", ">=", "<", "<=", "==", "!="];
  const parts = t.conditions.map((c) => {
    const name = paramNames[c.slot] ?? "?";
    if (c.type === "trigger") return `${name}!`;
    if (c.type === "bool") return c.op === 4 && c.value === 1 ? name : `${name} ${ops[c.op]} ${c.value === 1}`;
    return `${name} ${ops[c.op]} ${+c.value.toFixed(3)}`;
  });
  if (t.exitTime >= 0) parts.push(`exit ${Math.round(t.exitTime * 100)}%`);
  void machine;
  return parts.join(" ∧ ");
}

export function createGraphView(
  host: HTMLElement,
  machine: CompiledMachine,
  paramNames: readonly string[],
  onTravel: (state: string) => void,
  keep: ReadonlyMap<string, Placed> = new Map(),
  onOpen: (state: number) => void = () => {},
): GraphView {
  host.replaceChildren();
  const layout = layoutMachine(machine, keep);
  const pos = layout.positions;
  const width = Math.max(520, layout.width);
  const height = Math.max(250, layout.height);
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "group", "aria-label": "State graph" });
  host.append(svg); // first, so labels can be measured as they are placed
  const defs = el("defs");
  const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" });
  marker.append(el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#889" }));
  defs.append(marker);
  svg.append(defs);
  // Label placement avoids the nodes and the labels already placed.
  const occupied: Box[] = pos.map((p, i) => {
    const w = nodeWidth(machine.states[i]!.name);
    return { x0: p.x - w / 2, y0: p.y - NODE_H / 2, x1: p.x + w / 2, y1: p.y + NODE_H / 2 };
  });
  const hasAny = machine.transitions.some((t) => t.from < 0);
  const ANY_POS = { x: 40, y: 16 };
  if (hasAny) occupied.push({ x0: ANY_POS.x - 36, y0: ANY_POS.y - 11, x1: ANY_POS.x + 36, y1: ANY_POS.y + 11 });
  const edges: { g: SVGGElement; bar: SVGRectElement; bg: SVGRectElement; index: number }[] = [];
  machine.transitions.forEach((t, index) => {
    const froms = t.from >= 0 ? [t.from] : [];
    const a = t.from >= 0 ? pos[t.from]! : ANY_POS;
    const b = pos[t.to]!;
    void froms;
    const g = el("g", { class: "edge", "data-transition": index });
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len = Math.hypot(dx, dy) || 1;
    // Bend each edge to one side so A→B and B→A do not overlap.
    const mx = (a.x + b.x) / 2 - (dy / len) * 18;
    const my = (a.y + b.y) / 2 + (dx / len) * 18;
    const bw = nodeWidth(machine.states[t.to]!.name);
    // Stop the arrow at the target's box edge.
    const scale = Math.min(Math.abs(dx) > 1e-6 ? (bw / 2 + 2) / Math.abs(dx) : Infinity, Math.abs(dy) > 1e-6 ? (NODE_H / 2 + 2) / Math.abs(dy) : Infinity);
    const ex = b.x - dx * Math.min(1, scale);
    const ey = b.y - dy * Math.min(1, scale);
    g.append(el("path", { d: `M${a.x},${a.y} Q${mx},${my} ${ex},${ey}`, "marker-end": "url(#arrow)" }));
    const full = conditionText(machine, t, paramNames);
    const title = el("title");
    title.textContent = `${t.from < 0 ? "any state" : machine.states[t.from]!.name} → ${machine.states[t.to]!.name}: ${full || "always"} (${t.duration}s ${t.curve})`;
    g.append(title);
    // The whole condition text, wrapped, moved off any node or earlier label it would cover (measured
    // in the page when it is displayed, estimated otherwise).
    const lines = full === "" ? [] : wrapLabel(full);
    let lx = mx;
    let ly = my - 3 - lines.length * LABEL_LINE;
    let lh = lines.length * LABEL_LINE;
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
      svg.append(g);
      const estimate = Math.max(...lines.map(labelTextWidth));
      const boxAt = (cx: number, top: number): Box => {
        place(cx, top);
        const b = label.getBBox();
        return b.width > 0 ? { x0: b.x - 2, y0: b.y - 1, x1: b.x + b.width + 2, y1: b.y + b.height + 7 } : { x0: cx - estimate / 2 - 2, y0: top, x1: cx + estimate / 2 + 2, y1: top + lh + 8 };
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
    g.append(bg);
    const bar = el("rect", { class: "bar", x: lx - 20, y: barY, width: 0, height: 4 });
    g.append(bar);
    svg.append(g);
    edges.push({ g, bar, bg, index });
  });
  if (hasAny) {
    const g = el("g", { class: "state any" });
    g.append(el("rect", { x: ANY_POS.x - 36, y: ANY_POS.y - 11, width: 72, height: 22, rx: 11 }));
    const text = el("text", { x: ANY_POS.x, y: ANY_POS.y });
    text.textContent = "any state";
    g.append(text);
    svg.append(g);
  }
  const nodes: SVGGElement[] = machine.states.map((s, i) => {
    const p = pos[i]!;
    const g = el("g", { class: "state", "data-state": s.name, tabindex: 0, role: "button", "aria-label": `State ${s.name}: press Enter to travel here` });
    const w = nodeWidth(s.name);
    g.append(el("rect", { x: p.x - w / 2, y: p.y - NODE_H / 2, width: w, height: NODE_H, rx: 6 }));
    const text = el("text", { x: p.x, y: p.y });
    text.textContent = s.name;
    g.append(text);
    g.addEventListener("click", () => onTravel(s.name));
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onTravel(s.name); } });
    svg.append(g);
    if (s.motion.kind === "machine") {
      // A nested machine opens in place: a button on the state's corner (or "o" on the focused state).
      g.classList.add("nested");
      g.setAttribute("aria-label", `State ${s.name} (a nested machine): Enter to travel here, O to open it`);
      const open = el("g", { class: "open-nested", tabindex: 0, role: "button", "data-open": s.name, "aria-label": `Open the machine inside ${s.name}` });
      open.append(el("rect", { x: p.x + w / 2 - 18, y: p.y - NODE_H / 2 - 8, width: 22, height: 16, rx: 4 }));
      const icon = el("text", { x: p.x + w / 2 - 7, y: p.y - NODE_H / 2 });
      icon.textContent = "⤵";
      open.append(icon);
      open.addEventListener("click", (e) => { e.stopPropagation(); onOpen(i); });
      open.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); onOpen(i); } });
      g.addEventListener("keydown", (e) => { if (e.key === "o" || e.key === "O") onOpen(i); });
      svg.append(open);
    }
    return g;
  });
  const flash = (node: Element | undefined): void => {
    if (!node) return;
    node.classList.add("flash");
    (node as SVGGElement).scrollIntoView?.({ block: "nearest" });
    setTimeout(() => node.classList.remove("flash"), 1200);
  };
  const positions = new Map(machine.states.map((st, i) => [st.name, pos[i]!] as const));
  return {
    positions,
    update(instance) {
      const mi = instance.machines[machine.id]!;
      nodes.forEach((g, i) => {
        g.classList.toggle("current", i === mi.current);
        g.classList.toggle("target", false);
      });
      const running = new Map<number, number>();
      for (let k = 0; k < mi.depth; k++) {
        const e = mi.stack[k]!;
        if (e.transition >= 0) running.set(e.transition, e.progress);
      }
      for (const e of edges) {
        const p = running.get(e.index);
        e.g.classList.toggle("active", p !== undefined);
        e.bar.setAttribute("width", String(p === undefined ? 0 : 40 * p));
        e.bg.setAttribute("visibility", p === undefined ? "hidden" : "visible");
      }
    },
    flashState(name) {
      flash(nodes[machine.stateIndex.get(name) ?? -1]);
    },
    flashTransition(index) {
      flash(edges[index]?.g);
    },
  };
}
