// The crossfade panel: the running transition's curve w(s) against linear, the current point on it,
// and the A (outgoing) and B (incoming) weights over the last seconds: P = w₁·P₁ + w₂·P₂, w₁ + w₂ = 1.
import { evaluateCurve, type CompiledMachine, type GraphInstance } from "animgraph";

const HISTORY = 240;

export interface FadeView {
  update(instance: GraphInstance, machine: CompiledMachine): void;
}

export function createFadeView(curveCanvas: HTMLCanvasElement, historyCanvas: HTMLCanvasElement, readout: HTMLElement): FadeView {
  const a = new Float32Array(HISTORY).fill(1);
  const b = new Float32Array(HISTORY);
  let head = 0;
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
    update(inst, machine) {
      const mi = inst.machines[machine.id]!;
      const top = mi.depth > 0 ? mi.stack[mi.depth - 1]! : undefined;
      const t = top && top.transition >= 0 ? machine.transitions[top.transition] : undefined;
      const w = top ? top.weight : 1;
      a[head] = top ? 1 - w : 0;
      b[head] = top ? w : 1;
      head = (head + 1) % HISTORY;
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
      const line = (arr: Float32Array, color: string): void => {
        hctx.strokeStyle = color;
        hctx.beginPath();
        for (let i = 0; i < HISTORY; i++) {
          const v = arr[(head + i) % HISTORY]!;
          const x = (i / (HISTORY - 1)) * HW;
          const y = HH - 6 - v * (HH - 12);
          if (i === 0) hctx.moveTo(x, y); else hctx.lineTo(x, y);
        }
        hctx.stroke();
      };
      line(a, "#ff6b6b");
      line(b, "#7bd88f");
      hctx.fillStyle = "#ff6b6b";
      hctx.fillText("w₁ (A, outgoing)", 6, 12);
      hctx.fillStyle = "#7bd88f";
      hctx.fillText("w₂ (B, incoming)", 110, 12);
      if (top && t) {
        const from = top.from >= 0 ? machine.states[top.from]!.name : "(frozen pose)";
        const to = machine.states[top.to]!.name;
        readout.textContent = `${from} → ${to}: s = ${top.progress.toFixed(2)}, w₂ = ${t.curve}(s) = ${w.toFixed(3)}, w₁ = ${(1 - w).toFixed(3)}; stack depth ${mi.depth}`;
      } else {
        readout.textContent = "No transition running.";
      }
    },
  };
}
