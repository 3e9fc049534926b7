// The event log (state entered, transition started, clip looped, notifies) and the linter's findings,
// each finding clickable to the state or transition its JSON pointer names.
import { formatDiagnostic, type CompiledGraph, type Diagnostic, type GraphInstance } from "animgraph";

const MAX_EVENTS = 200;

export interface LogView {
  showFindings(diagnostics: readonly Diagnostic[], onSelect: (d: Diagnostic) => void): void;
  pushEvents(instance: GraphInstance, graph: CompiledGraph): void;
  note(text: string): void;
}

export function createLogView(findings: HTMLElement, events: HTMLElement): LogView {
  const add = (text: string, type: string): void => {
    const li = document.createElement("li");
    li.textContent = text;
    li.dataset["type"] = type;
    events.prepend(li);
    while (events.childElementCount > MAX_EVENTS) events.lastElementChild!.remove();
  };
  return {
    showFindings(diagnostics, onSelect) {
      findings.replaceChildren();
      if (diagnostics.length === 0) {
        const li = document.createElement("li");
        li.textContent = "Linter: no findings.";
        li.className = "clean";
        findings.append(li);
        return;
      }
      for (const d of diagnostics) {
        const li = document.createElement("li");
        li.className = d.severity;
        const b = document.createElement("button");
        b.type = "button";
        // Line and column first, as an editor's problem list shows them (the JSON pointer stays in the text).
        b.textContent = d.line !== undefined ? `${d.line}:${d.column ?? 1} ${formatDiagnostic(d)}` : formatDiagnostic(d);
        if (d.line !== undefined) b.dataset["line"] = String(d.line);
        b.addEventListener("click", () => onSelect(d));
        li.append(b);
        findings.append(li);
      }
    },
    pushEvents(inst, graph) {
      const q = inst.result.events;
      for (let i = 0; i < q.count; i++) {
        const e = q.items[i]!;
        const m = graph.machines[e.machine];
        const name = (s: number): string => (m && s >= 0 ? m.states[s]!.name : "?");
        const t = inst.time.toFixed(2);
        switch (e.type) {
          case "stateEntered": add(`${t}s entered ${name(e.state)}`, e.type); break;
          case "stateExited": add(`${t}s exited ${name(e.state)}`, e.type); break;
          case "transitionStarted": add(`${t}s transition ${name(e.from)} → ${name(e.state)} started`, e.type); break;
          case "transitionEnded": add(`${t}s transition ${name(e.from)} → ${name(e.state)} ended`, e.type); break;
          case "transitionInterrupted": add(`${t}s transition ${name(e.from)} → ${name(e.state)} interrupted`, e.type); break;
          case "clipLooped": add(`${t}s ${name(e.state)} looped`, e.type); break;
          case "notify": add(`${t}s notify "${e.name}" (${name(e.state)})`, e.type); break;
        }
      }
    },
    note(text) {
      add(text, "note");
    },
  };
}
