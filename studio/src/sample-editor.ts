// A blend's samples placed by dragging: on a line (1D blend tree) or a plane (2D blend space). The
// parameters' live values are drawn as a cross, and each sample's weight at that point (the runtime's own
// weight functions) as the size of its dot and in its row of the inspector, every frame.
import { blend1DLinearWeights, blendSpace2DWeights, compileBlendSpace2D, type CompiledBlendSpace2D } from "animgraph";

const SVG = "http://www.w3.org/2000/svg";
const W = 240;
const H_1D = 56;
const H_2D = 180;
const PAD = 20;

export interface SampleEditor {
  readonly element: SVGSVGElement;
  /** Draws the live point and weights, and writes each weight into `[data-weight=k]` under `host`. */
  update(host: HTMLElement): void;
}

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

export function createSampleEditor(
  dims: 1 | 2, points: readonly [number, number][], clips: readonly string[], values: () => (number | undefined)[],
  onMove: (index: number, at: number[], done: boolean) => void,
): SampleEditor {
  const height = dims === 1 ? H_1D : H_2D;
  const svg = el("svg", { class: "sample-editor", viewBox: `0 0 ${W} ${height}`, role: "group", "aria-label": dims === 1 ? "Samples on the blend line: drag them, or focus one and use the arrow keys" : "Samples on the blend plane: drag them, or focus one and use the arrow keys" });
  // The axes span the samples (and 0..1 at least), with a margin to drag into.
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const lo = (v: number[]): number => Math.min(0, ...v);
  const hi = (v: number[]): number => Math.max(1, ...v);
  const x0 = lo(xs), x1 = hi(xs), y0 = lo(ys), y1 = hi(ys);
  const toX = (v: number): number => PAD + ((v - x0) / (x1 - x0 || 1)) * (W - 2 * PAD);
  const toY = (v: number): number => (dims === 1 ? height / 2 : height - PAD - ((v - y0) / (y1 - y0 || 1)) * (height - 2 * PAD));
  const fromX = (px: number): number => x0 + ((px - PAD) / (W - 2 * PAD)) * (x1 - x0 || 1);
  const fromY = (py: number): number => y0 + ((height - PAD - py) / (height - 2 * PAD)) * (y1 - y0 || 1);
  if (dims === 1) svg.append(el("line", { class: "axis", x1: PAD, y1: height / 2, x2: W - PAD, y2: height / 2 }));
  else svg.append(el("rect", { class: "axis", x: PAD, y: PAD, width: W - 2 * PAD, height: height - 2 * PAD }));
  const ticks = el("text", { class: "tick", x: PAD, y: height - 4 });
  ticks.textContent = `${+x0.toFixed(2)}`;
  const ticks2 = el("text", { class: "tick", x: W - PAD, y: height - 4, "text-anchor": "end" });
  ticks2.textContent = `${+x1.toFixed(2)}`;
  svg.append(ticks, ticks2);
  const cross = el("path", { class: "live-point", d: "" });
  svg.append(cross);
  const dots = points.map((p, k) => {
    const g = el("g", { class: "sample", tabindex: 0, role: "button", "data-sample": k, "aria-label": `Sample ${k + 1} (${clips[k] ?? ""}) at ${dims === 1 ? p[0] : `${p[0]}, ${p[1]}`}` });
    const c = el("circle", { cx: toX(p[0]), cy: toY(p[1]), r: 6 });
    const t = el("text", { x: toX(p[0]), y: toY(p[1]) - 9 });
    t.textContent = String(k + 1);
    const title = el("title");
    title.textContent = clips[k] ?? "";
    g.append(c, t, title);
    g.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      const m = svg.getScreenCTM();
      if (!m) return;
      const inv = m.inverse();
      const at = (ev: PointerEvent): number[] => {
        const q = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(inv);
        return dims === 1 ? [fromX(q.x)] : [fromX(q.x), fromY(q.y)];
      };
      let moved = false;
      const move = (ev: PointerEvent): void => {
        moved = true;
        // Draw the dot here at once (the inspector rebuilds from the document, which follows).
        const q = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(inv);
        c.setAttribute("cx", String(q.x));
        if (dims === 2) c.setAttribute("cy", String(q.y));
        onMove(k, at(ev), false);
      };
      const up = (ev: PointerEvent): void => {
        window.removeEventListener("pointermove", move);
        window.removeEventListener("pointerup", up);
        if (moved) onMove(k, at(ev), true);
      };
      window.addEventListener("pointermove", move);
      window.addEventListener("pointerup", up);
    });
    g.addEventListener("keydown", (e) => {
      const d: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
      const step = d[e.key];
      if (!step || (dims === 1 && step[0] === 0)) return;
      e.preventDefault();
      const unit = (e.shiftKey ? 0.01 : 0.1);
      onMove(k, dims === 1 ? [p[0] + step[0] * unit] : [p[0] + step[0] * unit, p[1] + step[1] * unit], true);
    });
    svg.append(g);
    return c;
  });
  const weights = new Float64Array(points.length);
  let space: CompiledBlendSpace2D | null = null;
  if (dims === 2 && points.length >= 3) {
    try { space = compileBlendSpace2D(points.map(([x, y]) => ({ x, y }))).compiled; } catch { space = null; }
  }
  const positions = Float64Array.from(xs);
  const sorted = positions.every((v, i) => i === 0 || v > positions[i - 1]!);
  return {
    element: svg,
    update(host) {
      const [vx, vy] = values();
      if (vx === undefined || (dims === 2 && vy === undefined) || points.length === 0) { cross.setAttribute("d", ""); return; }
      weights.fill(0);
      if (dims === 1) {
        if (sorted) blend1DLinearWeights(weights, positions, vx);
      } else if (space) blendSpace2DWeights(weights, space, vx, vy!);
      const px = toX(vx), py = toY(dims === 1 ? 0 : vy!);
      cross.setAttribute("d", `M${px - 6},${py} h12 M${px},${py - 6} v12`);
      for (let k = 0; k < dots.length; k++) {
        dots[k]!.setAttribute("r", String(4 + 6 * weights[k]!));
        const out = host.querySelector<HTMLOutputElement>(`output[data-weight="${k}"]`);
        const text = `w ${weights[k]!.toFixed(2)}`;
        if (out && out.textContent !== text) out.textContent = text;
      }
    },
  };
}
