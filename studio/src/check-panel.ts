// `animgraph check` in the studio: a button runs the checker on the graph that plays, its findings show
// under the linter's, and each finding's witness loads into the record-and-rewind bar to be watched.
// The check steps at the recorder's STEP (1/60 s), so an imported witness replays exactly as the check
// ran it.
import { checkGraph, formatDiagnostic, type CheckFinding, type CheckReport, type Diagnostic } from "animgraph";
import type { Live } from "./live-graph.ts";
import { STEP } from "./recorder.ts";

export interface CheckPanel {
  /** Checks the graph that plays (null when none), shows the report and returns it. */
  run(): CheckReport | null;
  /** Loads finding i's witness into the timeline; returns its step count, or 0 when it has none. */
  loadWitness(i: number): number;
  /** The graph changed: the shown report no longer applies. */
  clear(): void;
  readonly report: CheckReport | null;
}

export interface CheckPanelHooks {
  getLive(): Live | undefined;
  /** Imports a timeline into the rewind bar (as a file of that name would be). */
  importTimeline(text: string, name: string): void;
  select(d: Diagnostic): void;
  status(text: string): void;
  /** Gives findings the line and column of their JSON pointer in the document (as lint's have). */
  locate(findings: readonly CheckFinding[]): CheckFinding[];
}

export function createCheckPanel(button: HTMLButtonElement, list: HTMLElement, hooks: CheckPanelHooks): CheckPanel {
  let report: CheckReport | null = null;
  const item = (text: string, className: string): HTMLLIElement => {
    const li = document.createElement("li");
    li.className = className;
    li.textContent = text;
    return li;
  };
  const show = (r: CheckReport): void => {
    list.replaceChildren();
    const x = r.exploration;
    const shown = r.findings.filter((f) => f.severity !== "info");
    list.append(item(`Check: ${shown.length === 0 ? "no findings" : `${shown.length} finding${shown.length === 1 ? "" : "s"}`} · ${x.configurations} configurations, depth ${x.depth}, ${x.complete ? "complete" : "bounded"} · ${r.witnesses.reproduced}/${r.witnesses.total} witnesses replayed`, "clean"));
    r.findings.forEach((f: CheckFinding, i) => {
      const li = document.createElement("li");
      li.className = f.severity;
      li.dataset["code"] = f.code;
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = formatDiagnostic(f);
      b.addEventListener("click", () => hooks.select(f));
      li.append(b);
      if (f.witness) {
        const w = document.createElement("button");
        w.type = "button";
        w.className = "load-witness";
        w.textContent = `▶ load witness (${(f.witness.steps * STEP).toFixed(2)} s)`;
        w.title = `${f.witness.shows}; replayed: ${f.witness.replay}`;
        w.addEventListener("click", () => panel.loadWitness(i));
        li.append(" ", w);
      }
      list.append(li);
    });
  };
  const panel: CheckPanel = {
    get report() {
      return report;
    },
    run() {
      const live = hooks.getLive();
      if (!live || live.isDefault) {
        hooks.status("check: load a graph first");
        return null;
      }
      const checked = checkGraph(live.spec, live.graph, { dt: STEP, timeLimit: 20 });
      report = { ...checked, findings: hooks.locate(checked.findings) };
      show(report);
      hooks.status(`check: ${report.exploration.configurations} configurations in ${(report.exploration.elapsedMs / 1000).toFixed(2)} s`);
      return report;
    },
    loadWitness(i) {
      const f = report?.findings[i];
      if (!f?.witness) return 0;
      hooks.importTimeline(JSON.stringify(f.witness.timeline), `${f.code.toLowerCase()}.timeline.json`);
      return f.witness.steps;
    },
    clear() {
      report = null;
      list.replaceChildren();
    },
  };
  button.addEventListener("click", () => {
    button.disabled = true;
    hooks.status("check: exploring…");
    // Let the status paint before the (synchronous) exploration.
    setTimeout(() => {
      try {
        panel.run();
      } finally {
        button.disabled = false;
      }
    }, 0);
  });
  return panel;
}
