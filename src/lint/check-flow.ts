import { ANY_STATE } from "../spec/spec-keys.ts";
import { clip } from "../spec/spec-reader.ts";
import { ALWAYS, conjoin, contradiction, type ConditionSet } from "./condition-set.ts";
import { isCandidate } from "./check-transitions.ts";
import type { LintSink } from "./lint-sink.ts";
import type { LintMachine, LintTransition } from "./machine-model.ts";

/** DFS steps allowed per machine when enumerating zero-duration cycles. */
const CYCLE_STEP_BUDGET = 50_000;
/** Edges that instant "*" transitions may add (one per state each) before the cycle search gives up. */
const MAX_STAR_EDGES = 250_000;

/**
 * Flow through a machine: states the entry cannot reach (W_UNREACHABLE_STATE), states with no way
 * out (W_DEAD_END_STATE) and cycles of instant transitions (E_ZERO_DURATION_CYCLE). `dead` are the
 * transitions known never to fire; they neither lead anywhere nor out of anything.
 */
export function checkFlow(m: LintMachine, dead: ReadonlySet<LintTransition>, sink: LintSink, seedFormat = false): void {
  const live = m.transitions.filter((t) => !dead.has(t) && m.states.has(t.to) && (t.from === ANY_STATE || m.states.has(t.from)));
  checkReachability(m, live, sink);
  checkDeadEnds(m, live, sink, seedFormat ? "" : ` (mark it "final": true if that is intended)`);
  // The seed format states no conditions, so whether instant transitions could chain is unknown.
  if (!seedFormat) checkZeroDurationCycles(m, live, sink);
}

function checkReachability(m: LintMachine, live: readonly LintTransition[], sink: LintSink): void {
  if (!m.states.has(m.entry)) return; // reported as an unknown state
  const reached = new Set<string>([m.entry]);
  const queue = [m.entry];
  const bySource = new Map<string, LintTransition[]>();
  for (const t of live) {
    let list = bySource.get(t.from);
    if (!list) bySource.set(t.from, (list = []));
    list.push(t);
  }
  const reach = (s: string): void => {
    if (!reached.has(s)) {
      reached.add(s);
      queue.push(s);
    }
  };
  // A "*" transition's target is always reachable: from the entry state, or it is the entry state.
  for (const t of bySource.get(ANY_STATE) ?? []) reach(t.to);
  while (queue.length > 0) {
    for (const t of bySource.get(queue.pop()!) ?? []) reach(t.to);
  }
  for (const st of m.states.values()) {
    if (!reached.has(st.name)) {
      sink.add("W_UNREACHABLE_STATE", st.pointer, `state "${clip(st.name)}" cannot be reached from the entry state "${clip(m.entry)}" by any transition`);
    }
  }
}

function checkDeadEnds(m: LintMachine, live: readonly LintTransition[], sink: LintSink, hint: string): void {
  // A machine with a single state has nowhere else to go: that is its design, not a dead end.
  if (m.states.size < 2) return;
  const hasStarOut = new Set<string>();
  const stars = live.filter((t) => t.from === ANY_STATE);
  const starTargets = new Set(stars.map((t) => t.to));
  const exits = new Set<string>();
  for (const t of live) if (t.from !== ANY_STATE && t.to !== t.from) exits.add(t.from);
  for (const st of m.states.values()) {
    // A "*" transition is a way out of every state but its own target.
    if (stars.length > 0 && (starTargets.size > 1 || !starTargets.has(st.name))) hasStarOut.add(st.name);
  }
  for (const st of m.states.values()) {
    if (st.final || exits.has(st.name) || hasStarOut.has(st.name)) continue;
    sink.add("W_DEAD_END_STATE", st.pointer, `state "${clip(st.name)}" has no transition out of it${hint}`);
  }
}

interface Edge {
  readonly to: number;
  readonly t: LintTransition;
}

function checkZeroDurationCycles(m: LintMachine, live: readonly LintTransition[], sink: LintSink): void {
  const names = [...m.states.keys()];
  const index = new Map(names.map((n, i) => [n, i]));
  const edges: Edge[][] = names.map(() => []);
  // Instant transitions that could fire again at once: no crossfade, no exit time to wait for, no
  // trigger (a trigger is consumed when its transition fires) and conditions that are stated.
  const instant = live.filter((t) => t.duration === 0 && !t.exitTime && t.conditions !== undefined && !t.conditions.usesTrigger);
  if (instant.length === 0) return;
  const starEdges = instant.filter((t) => t.from === ANY_STATE).length * names.length;
  if (starEdges > MAX_STAR_EDGES) {
    sink.add("I_LINT_SKIPPED", m.pointer, "too many instant \"*\" transitions to look for zero-duration cycles");
    return;
  }
  for (const t of instant) {
    const to = index.get(t.to)!;
    if (t.from === ANY_STATE) names.forEach((s, i) => isCandidate(t, s) && edges[i]!.push({ to, t }));
    else edges[index.get(t.from)!]!.push({ to, t });
  }
  const comp = stronglyConnected(edges);
  const reportedComponents = new Set<number>();
  let steps = CYCLE_STEP_BUDGET;
  for (let start = 0; start < names.length && steps > 0; start++) {
    const c = comp[start]!;
    if (reportedComponents.has(c)) continue;
    // Simple cycles through `start` over nodes of its component with a larger index (each cycle once).
    const path: Edge[] = [];
    const onPath = new Set<number>([start]);
    const found = ((): Edge[] | undefined => {
      const dfs = (v: number, cond: ConditionSet): Edge[] | undefined => {
        for (const e of edges[v]!) {
          if (--steps < 0) return undefined;
          if (comp[e.to] !== c || e.to < start) continue;
          const next = conjoin(cond, e.t.conditions!);
          if (contradiction(next) !== undefined) continue;
          if (e.to === start) return [...path, e];
          if (onPath.has(e.to)) continue;
          onPath.add(e.to);
          path.push(e);
          const r = dfs(e.to, next);
          path.pop();
          onPath.delete(e.to);
          if (r) return r;
        }
        return undefined;
      };
      return dfs(start, ALWAYS);
    })();
    if (!found) continue;
    reportedComponents.add(c);
    const route = [names[start]!, ...found.map((e) => names[e.to]!)].map((n) => `"${clip(n)}"`).join(" -> ");
    sink.add(
      "E_ZERO_DURATION_CYCLE",
      found[0]!.t.pointer,
      `instant transitions (duration 0, no exit time) form a cycle ${route} whose conditions can all hold at once: the machine could loop without end within one step`,
    );
  }
  if (steps < 0) sink.add("I_LINT_SKIPPED", m.pointer, "too many instant transitions to look for every zero-duration cycle");
}

/** Tarjan's strongly connected components, iterative (no recursion depth limit): component id per node. */
function stronglyConnected(edges: readonly (readonly Edge[])[]): Int32Array {
  const n = edges.length;
  const idx = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const comp = new Int32Array(n).fill(-1);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  let counter = 0;
  let comps = 0;
  for (let root = 0; root < n; root++) {
    if (idx[root] !== -1) continue;
    const work: { v: number; i: number }[] = [{ v: root, i: 0 }];
    idx[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const out = edges[top.v]!;
      if (top.i < out.length) {
        const w = out[top.i++]!.to;
        if (idx[w] === -1) {
          idx[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          work.push({ v: w, i: 0 });
        } else if (onStack[w]) low[top.v] = Math.min(low[top.v]!, idx[w]!);
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low[parent.v] = Math.min(low[parent.v]!, low[top.v]!);
      if (low[top.v] === idx[top.v]) {
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          comp[w] = comps;
        } while (w !== top.v);
        comps++;
      }
    }
  }
  return comp;
}
