// The blend-space panel: the samples, the triangulation (2D) or the axis (1D), a draggable current
// point, and each sample's weight drawn live (circle size) and listed.
import {
  blend1DInverseDistanceWeights, blend1DLinearWeights, blendSpace2DWeights, gridBlendWeights, getParam, setParam,
  type CompiledGraph, type CompiledState, type GraphInstance,
} from "animgraph";

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 200;
const PAD = 18;

export interface BlendView {
  update(instance: GraphInstance): void;
  /** Current weights as shown (for tests and the crossfade panel). */
  readonly weights: Float64Array;
}

/** The first blend2d state of the graph (any layer, any depth), else the first blend1d state. */
export function findBlendState(graph: CompiledGraph): CompiledState | undefined {
  const all = graph.machines.flatMap((m) => m.states);
  return all.find((s) => s.motion.kind === "blend2d") ?? all.find((s) => s.motion.kind === "blend1d");
}

export function createBlendView(
  host: HTMLElement, list: HTMLElement, sumOut: HTMLElement, graph: CompiledGraph, getInstance: () => GraphInstance, onChange: () => void,
  blendState?: CompiledState,
): BlendView | undefined {
  host.replaceChildren();
  list.replaceChildren();
  const state = blendState ?? findBlendState(graph);
  if (!state || (state.motion.kind !== "blend1d" && state.motion.kind !== "blend2d")) {
    host.textContent = "This graph has no blend tree or blend space.";
    sumOut.textContent = "–";
    return undefined;
  }
  const motion = state.motion;
  const names = motion.sources.map((s) => s.name);
  const n = names.length;
  const weights = new Float64Array(n);
  // Grid spaces weigh cells; their weights are folded onto samples (allocated once, reused per frame).
  const cells = new Float64Array(motion.kind === "blend2d" && motion.grid ? motion.grid.cellSample.length : 0);
  const paramX = graph.params[motion.kind === "blend1d" ? motion.slot : motion.slotX]!;
  const paramY = motion.kind === "blend2d" ? graph.params[motion.slotY]! : undefined;
  // Sample coordinates.
  const xs: number[] = [];
  const ys: number[] = [];
  if (motion.kind === "blend1d") for (const p of motion.positions) { xs.push(p); ys.push(0); }
  else if (motion.space) for (let i = 0; i < n; i++) { xs.push(motion.space.coords[2 * i]!); ys.push(motion.space.coords[2 * i + 1]!); }
  else if (motion.grid) {
    const g = motion.grid;
    for (let i = 0; i < n; i++) {
      const cell = Array.from(g.cellSample).indexOf(i);
      xs.push(g.xs[cell % g.xs.length]!);
      ys.push(g.ys[Math.floor(cell / g.xs.length)]!);
    }
  }
  const minX = Math.min(...xs); const maxX = Math.max(...xs);
  const minY = Math.min(...ys); const maxY = Math.max(...ys);
  const spanX = maxX - minX || 1;
  const spanY = maxY - minY || 1;
  const toScreen = (x: number, y: number): [number, number] => [
    PAD + ((x - minX) / spanX) * (SIZE - 2 * PAD),
    motion.kind === "blend1d" ? SIZE / 2 : SIZE - PAD - ((y - minY) / spanY) * (SIZE - 2 * PAD),
  ];
  const fromScreen = (sx: number, sy: number): [number, number] => [
    minX + ((sx - PAD) / (SIZE - 2 * PAD)) * spanX,
    minY + ((SIZE - PAD - sy) / (SIZE - 2 * PAD)) * spanY,
  ];
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${SIZE} ${SIZE}`);
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", `Blend space of state ${state.name}`);
  const mk = (tag: string, attrs: Record<string, string | number>): SVGElement => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    svg.append(e);
    return e;
  };
  mk("rect", { x: 0, y: 0, width: SIZE, height: SIZE, fill: "#111418" });
  if (motion.kind === "blend2d" && motion.space) {
    const t = motion.space.triangles;
    for (let i = 0; i < t.length; i += 3) {
      const pts = [t[i]!, t[i + 1]!, t[i + 2]!].map((s) => toScreen(xs[s]!, ys[s]!).join(",")).join(" ");
      mk("polygon", { points: pts, fill: "none", stroke: "#3b4250" });
    }
  } else {
    const [x0, y0] = toScreen(minX, minY);
    const [x1, y1] = toScreen(maxX, minY);
    mk("line", { x1: x0, y1: y0, x2: x1, y2: y1, stroke: "#3b4250" });
  }
  const dots = names.map((_, i) => {
    const [sx, sy] = toScreen(xs[i]!, ys[i]!);
    mk("circle", { cx: sx, cy: sy, r: 3, fill: "#667" });
    return mk("circle", { cx: sx, cy: sy, r: 0, fill: "rgba(255,181,71,0.55)" });
  });
  names.forEach((name, i) => {
    const [sx, sy] = toScreen(xs[i]!, ys[i]!);
    const label = mk("text", { x: sx, y: sy - 7, "font-size": 9, fill: "#9aa1b1", "text-anchor": "middle" });
    label.textContent = name;
  });
  const point = mk("circle", { r: 6, fill: "#4fb3ff", stroke: "#fff", "stroke-width": 1.5, tabindex: 0, role: "slider", class: "blend-point",
    "aria-label": `Blend point (${paramX.name}${paramY ? ` × ${paramY.name}` : ""}); arrow keys move it`,
    "aria-valuemin": minX, "aria-valuemax": maxX });
  host.append(svg);
  const items = names.map((name) => {
    const li = document.createElement("li");
    li.dataset["sample"] = name;
    list.append(li);
    return li;
  });

  const set = (x: number, y: number): void => {
    const inst = getInstance();
    const clampX = Math.min(maxX, Math.max(minX, x));
    setParam(inst, paramX.name, paramX.type === "int" ? Math.round(clampX) : clampX);
    if (paramY) {
      const clampY = Math.min(maxY, Math.max(minY, y));
      setParam(inst, paramY.name, paramY.type === "int" ? Math.round(clampY) : clampY);
    }
    onChange();
  };
  let dragging = false;
  const fromEvent = (e: PointerEvent): void => {
    const r = svg.getBoundingClientRect();
    const [x, y] = fromScreen(((e.clientX - r.left) / r.width) * SIZE, ((e.clientY - r.top) / r.height) * SIZE);
    set(x, y);
  };
  svg.addEventListener("pointerdown", (e) => { dragging = true; svg.setPointerCapture(e.pointerId); fromEvent(e); });
  svg.addEventListener("pointermove", (e) => { if (dragging) fromEvent(e); });
  svg.addEventListener("pointerup", () => { dragging = false; });
  point.addEventListener("keydown", (e: Event) => {
    const k = (e as KeyboardEvent).key;
    const inst = getInstance();
    const x = Number(getParam(inst, paramX.name));
    const y = paramY ? Number(getParam(inst, paramY.name)) : 0;
    const step = 0.05;
    if (k === "ArrowRight") set(x + step * spanX, y);
    else if (k === "ArrowLeft") set(x - step * spanX, y);
    else if (k === "ArrowUp") set(x, y + step * spanY);
    else if (k === "ArrowDown") set(x, y - step * spanY);
    else return;
    e.preventDefault();
  });

  const view: BlendView = {
    weights,
    update(inst) {
      const x = Number(getParam(inst, paramX.name));
      const y = paramY ? Number(getParam(inst, paramY.name)) : 0;
      if (motion.kind === "blend1d") {
        if (motion.weighting === "linear") blend1DLinearWeights(weights, motion.positions, x);
        else blend1DInverseDistanceWeights(weights, motion.positions, x);
      } else if (motion.space) blendSpace2DWeights(weights, motion.space, x, y);
      else if (motion.grid) {
        // Grid weights are per cell; fold them onto samples.
        gridBlendWeights(cells, { xs: motion.grid.xs, ys: motion.grid.ys }, x, y);
        weights.fill(0);
        motion.grid.cellSample.forEach((s, c) => { weights[s] = weights[s]! + cells[c]!; });
      }
      const [sx, sy] = toScreen(Math.min(maxX, Math.max(minX, x)), Math.min(maxY, Math.max(minY, y)));
      point.setAttribute("cx", String(sx));
      point.setAttribute("cy", String(sy));
      point.setAttribute("aria-valuenow", String(x));
      let sum = 0;
      for (let i = 0; i < n; i++) {
        const w = weights[i]!;
        sum += w;
        dots[i]!.setAttribute("r", String(3 + 14 * Math.sqrt(w)));
        items[i]!.textContent = `${names[i]}: ${w.toFixed(3)}`;
        items[i]!.dataset["weight"] = String(w);
      }
      sumOut.textContent = sum.toFixed(3);
    },
  };
  return view;
}
