// The state-graph panel: states laid out by breadth-first depth from the entry state, edges with their
// conditions, the current state highlighted and a progress bar on each running transition.
import type { CompiledMachine, GraphInstance } from "animgraph";

const SVG = "http://www.w3.org/2000/svg";
const NODE_W = 92;
const NODE_H = 28;

interface Placed { x: number; y: number }

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** Layered layout: column = BFS depth from the entry, rows spread evenly; unreachable states last. */
export function layoutMachine(machine: CompiledMachine, width: number, height: number): Placed[] {
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
  const byColumn: number[][] = Array.from({ length: columns }, () => []);
  depth.forEach((d, i) => byColumn[d]!.push(i));
  const out: Placed[] = [];
  byColumn.forEach((col, c) => {
    col.forEach((s, r) => {
      out[s] = {
        x: ((c + 0.5) / columns) * width,
        y: ((r + 0.5) / col.length) * height,
      };
    });
  });
  return out;
}

export interface GraphView {
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
): GraphView {
  host.replaceChildren();
  const width = 520;
  const height = 250;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "group", "aria-label": "State graph" });
  const defs = el("defs");
  const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" });
  marker.append(el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#889" }));
  defs.append(marker);
  svg.append(defs);
  const pos = layoutMachine(machine, width, height - 30).map((p) => ({ x: p.x, y: p.y + 30 }));
  const hasAny = machine.transitions.some((t) => t.from < 0);
  const ANY_POS = { x: 40, y: 16 };
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
    const ex = b.x - (dx / len) * (NODE_W / 2.2);
    const ey = b.y - (dy / len) * (NODE_H / 1.6);
    g.append(el("path", { d: `M${a.x},${a.y} Q${mx},${my} ${ex},${ey}`, "marker-end": "url(#arrow)" }));
    const label = el("text", { x: mx, y: my - 3 });
    label.textContent = conditionText(machine, t, paramNames);
    // Long condition lists are abbreviated on the edge; the full text is the tooltip.
    const title = el("title");
    title.textContent = `${t.from < 0 ? "any state" : machine.states[t.from]!.name} → ${machine.states[t.to]!.name}: ${label.textContent || "always"} (${t.duration}s ${t.curve})`;
    g.append(title);
    if (label.textContent.length > 22) label.textContent = `${label.textContent.slice(0, 20)}…`;
    g.append(label);
    const bg = el("rect", { class: "bar-bg", x: mx - 20, y: my + 2, width: 40, height: 4, visibility: "hidden" });
    g.append(bg);
    const bar = el("rect", { class: "bar", x: mx - 20, y: my + 2, width: 0, height: 4 });
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
    g.append(el("rect", { x: p.x - NODE_W / 2, y: p.y - NODE_H / 2, width: NODE_W, height: NODE_H, rx: 6 }));
    const text = el("text", { x: p.x, y: p.y });
    text.textContent = s.name;
    g.append(text);
    g.addEventListener("click", () => onTravel(s.name));
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onTravel(s.name); } });
    svg.append(g);
    return g;
  });
  host.append(svg);

  const flash = (node: Element | undefined): void => {
    if (!node) return;
    node.classList.add("flash");
    (node as SVGGElement).scrollIntoView?.({ block: "nearest" });
    setTimeout(() => node.classList.remove("flash"), 1200);
  };
  return {
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
