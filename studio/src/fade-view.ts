// The crossfade panel: the running transition's curve w(s) against linear, the current point on it,
// and each state's weight over the last seconds: P = w₁·P₁ + w₂·P₂, w₁ + w₂ = 1. The history follows
// states, not the roles A and B: when a fade starts, the state that was current keeps its line (at 1,
// falling as w₁) instead of the "B" line dropping from 1 to 0, so the plot is as continuous as the pose.
// The continuity figure rides on the same history: the output's joint angular-velocity jump per step
// (grey, its own scale at the right) with a marker and the figure where a transition started.
import { evaluateCurve, type CompiledMachine, type GraphInstance } from "animgraph";
import { JUMP_HISTORY, type ContinuityTracker } from "./continuity-tracker.ts";

const HISTORY = 240;

export interface FadeView {
  update(instance: GraphInstance, machine: CompiledMachine, continuity?: ContinuityTracker): void;
  /** The plotted history, oldest first: per state, its weight in each of the last frames (for tests). */
  history(): { name: string; weights: number[] }[];
}

const PALETTE = ["#7bd88f", "#ff6b6b", "#4fb3ff", "#ffb547", "#b58cff", "#5fd7d7", "#f78fb3", "#c3e88d"];

export function createFadeView(curveCanvas: HTMLCanvasElement, historyCanvas: HTMLCanvasElement, readout: HTMLElement): FadeView {
  let weights = new Float32Array(0);
  let shownMachine: CompiledMachine | undefined;
  let head = 0;
  /** Samples recorded since the history began (the plot starts there, not at zeros). */
  let filled = 0;
  const ctx = curveCanvas.getContext("2d")!;
  const hctx = historyCanvas.getContext("2d")!;
  const plot = (c: CanvasRenderingContext2D, w: number, h: number, f: (s: number) => number, color: string, dash: number[] = []): void => {
    c.strokeStyle = color;
    c.setLineDash(dash);
    c.beginPath();
    for (let i = 0; i <= 64; i++) {
      const s = i / 64;
      const x = 24 + s * (w - 34);
      const y = h - 14 - f(s) * (h - 26);
      if (i === 0) c.moveTo(x, y); else c.lineTo(x, y);
    }
    c.stroke();
    c.setLineDash([]);
  };
  return {
    update(inst, machine, continuity) {
      const mi = inst.machines[machine.id]!;
      const top = mi.depth > 0 ? mi.stack[mi.depth - 1]! : undefined;
      const t = top && top.transition >= 0 ? machine.transitions[top.transition] : undefined;
      const w = top ? top.weight : 1;
      const S = machine.states.length;
      if (machine !== shownMachine) {
        // Another graph or layer: a fresh history (allocated here only, never per frame).
        shownMachine = machine;
        weights = new Float32Array(HISTORY * S);
        head = 0;
        filled = 0;
      }
      for (let s = 0; s < S; s++) weights[head * S + s] = mi.stateWeight[s]!;
      head = (head + 1) % HISTORY;
      if (filled < HISTORY) filled++;
      const W = curveCanvas.width;
      const H = curveCanvas.height;
      ctx.fillStyle = "#111418";
      ctx.fillRect(0, 0, W, H);
      ctx.fillStyle = "#9aa1b1";
      ctx.font = "10px sans-serif";
      ctx.fillText("w", 6, 14);
      ctx.fillText("s = (t − t₀)/d", W - 80, H - 2);
      plot(ctx, W, H, (s) => s, "#667", [4, 3]);
      plot(ctx, W, H, (s) => evaluateCurve("smoothstep", s), "#4fb3ff");
      if (t && t.curve !== "smoothstep" && t.curve !== "linear") plot(ctx, W, H, (s) => evaluateCurve(t.curve, s), "#b58cff");
      if (top) {
        const x = 24 + top.progress * (W - 34);
        const y = H - 14 - top.weight * (H - 26);
        ctx.fillStyle = "#ffb547";
        ctx.beginPath();
        ctx.arc(x, y, 4, 0, Math.PI * 2);
        ctx.fill();
      }
      ctx.fillStyle = "#9aa1b1";
      ctx.fillText("linear (dashed) · smoothstep s²(3−2s) (blue)", 28, 12);
      const HW = historyCanvas.width;
      const HH = historyCanvas.height;
      hctx.fillStyle = "#111418";
      hctx.fillRect(0, 0, HW, HH);
      let legendX = 6;
      for (let s = 0; s < S; s++) {
        let seen = false;
        for (let i = HISTORY - filled; i < HISTORY && !seen; i++) seen = weights[((head + i) % HISTORY) * S + s]! > 1e-3;
        if (!seen) continue;
        const color = PALETTE[s % PALETTE.length]!;
        hctx.strokeStyle = color;
        hctx.beginPath();
        for (let i = HISTORY - filled; i < HISTORY; i++) {
          const v = weights[((head + i) % HISTORY) * S + s]!;
          const x = (i / (HISTORY - 1)) * HW;
          const y = HH - 6 - v * (HH - 12);
          if (i === HISTORY - filled) hctx.moveTo(x, y); else hctx.lineTo(x, y);
        }
        hctx.stroke();
        hctx.fillStyle = color;
        const label = machine.states[s]!.name;
        hctx.fillText(label, legendX, 12);
        legendX += hctx.measureText(label).width + 10;
      }
      if (continuity && continuity.filled > 1) drawJumps(hctx, HW, HH, continuity);
      if (top && t) {
        const from = top.from >= 0 ? machine.states[top.from]!.name : "(frozen pose)";
        const to = machine.states[top.to]!.name;
        const jump = continuity?.jumpOf(machine.id, t.index);
        readout.textContent = `${from} → ${to} (${t.blendName}): s = ${top.progress.toFixed(2)}, w₂ = ${t.blendName === "inertialize" ? "1 (target + decaying offset)" : `${t.curve}(s) = ${w.toFixed(3)}`}, w₁ = ${(1 - w).toFixed(3)}; stack depth ${mi.depth}${jump === undefined ? "" : `; jump ${jump.toFixed(2)} rad/s`}`;
      } else {
        readout.textContent = "No transition running.";
      }
    },
    history() {
      const S = shownMachine?.states.length ?? 0;
      return Array.from({ length: S }, (_, s) => ({
        name: shownMachine!.states[s]!.name,
        weights: Array.from({ length: filled }, (_, i) => weights[((head + HISTORY - filled + i) % HISTORY) * S + s]!),
      }));
    },
  };
}

/** The per-step velocity jump over the history's span, scaled to its largest value, with transition starts marked. */
function drawJumps(c: CanvasRenderingContext2D, W: number, H: number, k: ContinuityTracker): void {
  let top = 1;
  for (let i = 0; i < k.filled; i++) {
    const v = k.jumps[(k.head + i) % JUMP_HISTORY]!;
    if (v > top) top = v;
  }
  const x0 = (JUMP_HISTORY - k.filled) / (JUMP_HISTORY - 1) * W;
  const xOf = (i: number): number => x0 + (i / (JUMP_HISTORY - 1)) * W;
  const yOf = (v: number): number => H - 6 - (v / top) * (H - 12);
  c.strokeStyle = "rgba(200, 200, 210, 0.45)";
  c.beginPath();
  let open = false;
  for (let i = 0; i < k.filled; i++) {
    const v = k.jumps[(k.head + i) % JUMP_HISTORY]!;
    if (Number.isNaN(v)) { open = false; continue; }
    if (open) c.lineTo(xOf(i), yOf(v)); else c.moveTo(xOf(i), yOf(v));
    open = true;
  }
  c.stroke();
  c.fillStyle = "#ffb547";
  for (let i = 0; i < k.filled; i++) {
    const at = (k.head + i) % JUMP_HISTORY;
    if (k.starts[at] !== 1 || Number.isNaN(k.jumps[at]!)) continue;
    const x = xOf(i), y = yOf(k.jumps[at]!);
    c.fillRect(x - 1, y, 2, H - 6 - y);
    c.fillText(`${k.jumps[at]!.toFixed(2)}`, Math.min(x + 3, W - 30), Math.max(y, 22));
  }
  c.fillStyle = "#9aa1b1";
  c.fillText(`jump ≤ ${top.toFixed(1)} rad/s`, W - 92, H - 2);
}
