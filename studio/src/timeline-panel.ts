// Record and rewind, the bar under the viewport: scrub, step, play the recording back at any speed, back
// to live, export and import `animgraph run` timelines. The step shown is the store's `selection.step`
// (null: live); the instance shown at that step is replayed from the recording here.
import { hasErrors, parseJsonText, parseTimeline, type Diagnostic, type GraphInstance } from "animgraph";
import type { Live } from "./live-graph.ts";
import { fromTimeline, MAX_RECORDED_STEPS, replay, replayStep, STEP, toTimelineJson } from "./recorder.ts";
import type { StudioStore } from "./store.ts";

export interface TimelinePanel {
  /** The instance to show: the replayed one while rewound, else the live one. */
  instance(live: Live): GraphInstance;
  /** Shows recorded step k (clamped). */
  showStep(k: number): void;
  /** Back to the live simulation (any parameter change or travel does this). */
  goLive(): void;
  /** Every frame: advances a playback by `real` seconds and refreshes the slider and its label. */
  update(real: number): void;
  /** Imports an `animgraph run` timeline: the recording becomes what running it gives, shown from step 0. */
  importTimeline(text: string, name: string): { ok: true; steps: number } | { ok: false; diagnostics: readonly Diagnostic[] };
  exportTimeline(): void;
}

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

export function createTimelinePanel(store: StudioStore, getLive: () => Live | undefined): TimelinePanel {
  let shown: GraphInstance | undefined;
  let shownAt: number | null = null;
  let shownRecording: unknown;
  let playbackSpeed = 0;
  let playbackAccumulator = 0;
  const shownStep = (): number | null => store.selection.step;

  const panel: TimelinePanel = {
    instance(live) {
      const step = shownStep();
      if (step === null) return live.instance;
      // Replay to the step (forward from the last one shown when it can; else from the start).
      if (!shown || shownRecording !== live.recording || shownAt === null || step < shownAt) {
        shown = replay(live.recording, step);
      } else {
        for (let s = shownAt; s < step; s++) replayStep(live.recording, shown, s);
      }
      shownAt = step;
      shownRecording = live.recording;
      return shown;
    },
    showStep(k) {
      const live = getLive();
      if (!live) return;
      const n = live.recording.params.length;
      store.select({ step: Math.max(0, Math.min(n, Math.round(k))) }, "timeline");
      document.body.dataset["mode"] = "rewind";
    },
    goLive() {
      playbackSpeed = 0;
      if (shownStep() === null) return;
      store.select({ step: null }, "timeline");
      shown = undefined;
      shownAt = null;
      document.body.dataset["mode"] = "live";
    },
    update(real) {
      const live = getLive();
      const step = shownStep();
      if (live && step !== null && playbackSpeed !== 0) {
        playbackAccumulator += real * playbackSpeed;
        const advance = Math.trunc(playbackAccumulator / STEP);
        if (advance !== 0) {
          playbackAccumulator -= advance * STEP;
          panel.showStep(step + advance);
          const now = shownStep();
          if (now === live.recording.params.length || now === 0) playbackSpeed = 0;
        }
      }
      const slider = $<HTMLInputElement>("timeline");
      const n = live?.recording.params.length ?? 0;
      const at = shownStep() ?? n;
      if (slider.max !== String(n)) slider.max = String(n);
      if (document.activeElement !== slider || shownStep() === null) slider.value = String(at);
      const full = n >= MAX_RECORDED_STEPS ? " (recording full)" : "";
      const text = `${shownStep() === null ? "live" : playbackSpeed !== 0 ? `playing ${playbackSpeed}×` : "rewound"} · step ${at} / ${n} · t ${(at * STEP).toFixed(2)} s${full}`;
      const label = $("timeline-label");
      if (label.textContent !== text) label.textContent = text;
    },
    importTimeline(text, name) {
      const live = getLive();
      if (!live) return { ok: false, diagnostics: [] };
      const parsed = parseTimeline(parseJsonText(text, name), live.graph);
      if (!parsed.timeline || hasErrors(parsed.diagnostics)) return { ok: false, diagnostics: parsed.diagnostics };
      live.recording = fromTimeline(live.graph, parsed.timeline);
      live.instance = replay(live.recording, live.recording.params.length);
      panel.showStep(0);
      return { ok: true, steps: live.recording.params.length };
    },
    exportTimeline() {
      const live = getLive();
      if (!live) return;
      const blob = new Blob([toTimelineJson(live.recording)], { type: "application/json" });
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = `${live.file.replace(/\.json$/i, "")}.recording.timeline.json`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    },
  };

  // The bar's controls.
  const from = (): number => shownStep() ?? getLive()?.recording.params.length ?? 0;
  $<HTMLInputElement>("timeline").addEventListener("input", (e) => { playbackSpeed = 0; panel.showStep(Number((e.target as HTMLInputElement).value)); });
  $("step-back").addEventListener("click", () => { playbackSpeed = 0; panel.showStep(from() - 1); });
  $("step-forward").addEventListener("click", () => { playbackSpeed = 0; panel.showStep(from() + 1); });
  $("play-back").addEventListener("click", () => {
    const live = getLive();
    if (!live) return;
    const step = shownStep();
    if (step === null || step >= live.recording.params.length) panel.showStep(0);
    playbackSpeed = Number($<HTMLSelectElement>("playback-speed").value);
    playbackAccumulator = 0;
  });
  $("go-live").addEventListener("click", () => panel.goLive());
  $("export-recording").addEventListener("click", () => panel.exportTimeline());
  document.addEventListener("keydown", (e) => {
    if ((e.target as HTMLElement).closest("input, textarea, select, .cm-editor")) return;
    if (e.key === "," || e.key === ".") panel.showStep(from() + (e.key === "," ? -1 : 1));
  });
  return panel;
}
