// The performance readout: evaluate, upload and render time per frame (medians over the last 240 frames
// with their IQR; performance.now() is coarsened by browsers, 5 µs here as the page is cross-origin
// isolated), characters, µs per character, and the drawn crowd's counters.
import type { CrowdRenderer } from "./crowd-renderer.ts";
import type { Live } from "./live-graph.ts";

const FRAME_TIMES = 240;

export interface PerfPanel {
  /** Records one frame's phases (ms). */
  record(evaluate: number, upload: number, render: number): void;
  /** Every 15 frames, and at least once a second when frames are slow (a big crowd on a CPU rasteriser). */
  maybeShow(now: number, live: Live | undefined, crowd: CrowdRenderer | null): void;
  readonly frames: number;
  /** The samples of the last frames, ms: evaluate, upload, render. */
  samples(): { evaluate: number[]; upload: number[]; render: number[]; frames: number };
}

function medianAndSpread(values: Float64Array, count: number): { median: number; iqr: number } {
  const sorted = Array.from(values.subarray(0, Math.min(count, values.length))).sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { median: at(0.5), iqr: at(0.75) - at(0.25) };
}

export function createPerfPanel(out: HTMLElement): PerfPanel {
  const evalTimes = new Float64Array(FRAME_TIMES);
  const renderTimes = new Float64Array(FRAME_TIMES);
  const uploadTimes = new Float64Array(FRAME_TIMES);
  let frames = 0;
  let shownAt = 0;
  return {
    get frames() { return frames; },
    record(evaluate, upload, render) {
      const k = frames % FRAME_TIMES;
      evalTimes[k] = evaluate;
      uploadTimes[k] = upload;
      renderTimes[k] = render;
      frames++;
    },
    maybeShow(now, live, crowd) {
      if (!(frames % 15 === 0 || now - shownAt > 1000)) return;
      shownAt = now;
      if (!live) return;
      const e = medianAndSpread(evalTimes, frames), u = medianAndSpread(uploadTimes, frames), r = medianAndSpread(renderTimes, frames);
      const count = 1 + (live.crowd?.count ?? 0);
      const path = live.crowd ? (live.crowd.wasm ? " · crowd on the WebAssembly SIMD kernel" : " · crowd on the JS path") : "";
      const drawn = crowd ? crowd.stats() : null;
      const crowdText = drawn ? ` · crowd drawn: ${drawn.characters} in ${drawn.drawCalls} draw call(s), ${drawn.updated} evaluated this frame${drawn.lod ? " (update-rate LOD)" : ""}` : "";
      out.textContent = `evaluate ${e.median.toFixed(3)} ms (IQR ${e.iqr.toFixed(3)}) · render ${r.median.toFixed(3)} ms (IQR ${r.iqr.toFixed(3)}) · upload ${u.median.toFixed(3)} ms (IQR ${u.iqr.toFixed(3)}) · medians of ${Math.min(frames, FRAME_TIMES)} frames · ${count} character(s) · ${((e.median * 1000) / count).toFixed(1)} µs per character · ${live.graph.skeleton.jointCount} joints${path}${crowdText}`;
    },
    samples: () => ({ evaluate: Array.from(evalTimes), upload: Array.from(uploadTimes), render: Array.from(renderTimes), frames }),
  };
}
