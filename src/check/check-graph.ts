import { childPointer, type Diagnostic, type Severity } from "../diagnostics/diagnostic.ts";
import type { CompiledGraph } from "../graph/compiled-graph.ts";
import { parseDt } from "../graph/timeline.ts";
import { argumentError, expectObject, rangeError } from "../errors/check-argument.ts";
import type { GraphSpec } from "../spec/graph-spec.ts";
import { buildCheckModel, type CheckModel } from "./check-model.ts";
import { exploreGroup, type CompiledProperty, type Evidence, type ExploreContext, type GroupExploration, type InputAction, type Location, type StateRef } from "./explore.ts";
import { paramRegions } from "./param-regions.ts";
import type { CheckProperty } from "./properties.ts";
import { cycleProbe, endProbe, eventuallyProbe, lastStepProbe } from "./replay-probes.ts";
import { buildTimeline, replayWitness, type ReplayProbe, type Segment, type WitnessTimeline } from "./witness.ts";

/** Options of {@link checkGraph}. */
export interface CheckOptions {
  /** Most input changes along an explored path (default 40). */
  readonly bound?: number;
  /** Most configurations kept per layer group (default 100,000): the memory bound. */
  readonly maxConfigurations?: number;
  /** Step length of the exploration and of every witness: seconds or a fraction such as "1/30" (default "1/30"). */
  readonly dt?: number | string;
  /** Wall-clock seconds after which exploration stops, reporting what it covered (default 60). */
  readonly timeLimit?: number;
  /** Longest an input is held waiting for the machine to settle, in seconds (default 60). */
  readonly maxWaitSeconds?: number;
  /** User properties (parseProperties); their file is named in findings as `propertiesFile`. */
  readonly properties?: readonly CheckProperty[];
  readonly propertiesFile?: string;
  /**
   * Whether the graph was compiled with the real clips (true, the default) or stand-ins whose lengths
   * say nothing about the real ones (the CLI without --clips): exit times then are checked against the
   * stand-ins' lengths only, and the report says so.
   */
  readonly clipLengthsKnown?: boolean;
}

/** What a finding is about. */
export type CheckFindingKind =
  | "unreachableState" | "stuckState" | "trapState" | "livelock"
  | "triggerNeverFires" | "triggerStolen" | "triggerWithoutEffect"
  | "shadowedTransition" | "transitionNeverFires" | "exitTimeNeverReached" | "property";

/** A timeline that shows a finding when played with `animgraph run --script`, and what replaying it showed. */
export interface CheckWitness {
  /** The timeline, as the JSON `animgraph run --script` reads. */
  readonly timeline: WitnessTimeline;
  /** Steps the run takes. */
  readonly steps: number;
  /** What the run shows, in words. */
  readonly shows: string;
  /** Whether the checker's own replay (timeline parsed, then played by runTimeline / step on a new instance) showed it. */
  readonly replayed: boolean;
  /** "reproduced", or what the replay showed instead. */
  readonly replay: string;
}

/** One finding: a diagnostic (code, severity, file, JSON pointer, message) with its kind and witness. */
export interface CheckFinding extends Diagnostic {
  readonly kind: CheckFindingKind;
  readonly witness: CheckWitness | null;
}

/** How far the exploration went. */
export interface CheckExploration {
  /** Configurations found, over every layer group. */
  readonly configurations: number;
  /** Deepest path, in input changes. */
  readonly depth: number;
  /** Runtime steps simulated. */
  readonly steps: number;
  /** Layer groups explored separately (layers sharing no trigger cannot affect one another). */
  readonly groups: number;
  /** Whether every configuration within reach was expanded (absence findings are then proofs). */
  readonly complete: boolean;
  /** Why not, when not. */
  readonly limits: readonly string[];
  readonly elapsedMs: number;
}

/** What `checkGraph` returns. */
export interface CheckReport {
  readonly graph: string;
  readonly file: string;
  readonly findings: readonly CheckFinding[];
  readonly exploration: CheckExploration;
  readonly bound: number;
  readonly dt: number;
  readonly clipLengthsKnown: boolean;
  /**
   * Witnesses replayed and how many reproduced their finding; `withdrawn` counts claims that something
   * never happens which their own witness run contradicted (they are not reported).
   */
  readonly witnesses: { readonly total: number; readonly reproduced: number; readonly withdrawn: number };
  /** Each user property and whether it held (false: a finding shows the violation; "unknown": the exploration was bounded). */
  readonly properties: readonly { readonly text: string; readonly line: number; readonly holds: boolean | "unknown" }[];
}

const DEFAULTS = { bound: 40, maxConfigurations: 100_000, dt: "1/30", timeLimit: 60, maxWaitSeconds: 60 } as const;

/**
 * Explores a compiled graph's reachable configurations with the runtime's own step (see docs/check.md)
 * and reports unreachable, stuck and trap states, livelocks, triggers that never fire or are consumed
 * by another machine or to no effect, shadowed and never-firing transitions, exit times never reached,
 * and violations of the user's properties, each with a witness timeline that the check has replayed.
 * `spec` supplies the parameters' declared ranges. Throws an AnimgraphError on invalid arguments (a programmer error); never on graph content.
 */
export function checkGraph(spec: GraphSpec, graph: CompiledGraph, options: CheckOptions = {}): CheckReport {
  const started = Date.now();
  if (!spec || typeof spec !== "object" || !(spec.parameters instanceof Map)) throw argumentError("checkGraph", "spec", "a GraphSpec (parseGraphSpec)", spec);
  if (!graph || typeof graph !== "object" || !Array.isArray(graph.machines) || !Array.isArray(graph.layers)) throw argumentError("checkGraph", "graph", "a CompiledGraph (compileGraph)", graph);
  if (options !== undefined) expectObject("checkGraph", "options", options);
  if (options.properties !== undefined && !Array.isArray(options.properties)) throw argumentError("checkGraph", "options.properties", "an array of CheckProperty (parseProperties)", options.properties);
  const bound = integerOption(options.bound, DEFAULTS.bound, "bound", 1, 10_000);
  const maxConfigurations = integerOption(options.maxConfigurations, DEFAULTS.maxConfigurations, "maxConfigurations", 1, 10_000_000);
  const dtText = options.dt ?? DEFAULTS.dt;
  const dt = parseDt(dtText);
  if (typeof dtText !== "number" && typeof dtText !== "string") throw argumentError("checkGraph", "options.dt", "a number of seconds or a fraction such as \"1/30\"", dtText);
  if (dt === undefined || dt > graph.options.maxSubstep) throw rangeError("checkGraph", "options.dt", `a step > 0 and at most the graph's maxSubstep (${graph.options.maxSubstep} s)`, dtText);
  const timeLimit = numberOption(options.timeLimit, DEFAULTS.timeLimit, "timeLimit");
  const maxWaitSeconds = numberOption(options.maxWaitSeconds, DEFAULTS.maxWaitSeconds, "maxWaitSeconds");
  const properties = options.properties ?? [];
  const propertiesFile = options.propertiesFile ?? "<properties>";
  const clipLengthsKnown = options.clipLengthsKnown ?? true;

  const model = buildCheckModel(graph, properties.map((p) => p.compiled));
  const extraConditions = properties.flatMap((p) => (p.compiled.kind === "never" ? p.compiled.conditions : []));
  const regions = new Map(paramRegions(graph, spec, extraConditions).map((r) => [r.slot, r]));
  const ctx: ExploreContext = { model, regions, properties: properties.map((p) => p.compiled), inputs: [], inputIds: new Map() };
  const storeEdges = properties.some((p) => p.compiled.kind === "reachable");
  const deadline = started + timeLimit * 1000;
  const explorations = model.groups.map((g) => exploreGroup(ctx, g, { dt, bound, maxConfigurations, maxWaitSeconds, deadline, storeEdges }));

  const findings: CheckFinding[] = [];
  const builder = new FindingBuilder(model, ctx.inputs, dtText, dt, graph.file, findings);
  const propertyHolds = properties.map((): boolean | "unknown" => true);
  for (const gx of explorations) {
    builder.group = gx;
    for (const e of gx.evidence) builder.evidence(e, properties, propertiesFile, propertyHolds);
    builder.absences(gx);
    for (const p of properties) {
      if (p.compiled.kind === "reachable") builder.reachable(gx, p, p.compiled, propertiesFile, propertyHolds);
    }
  }
  const complete = explorations.every((g) => g.incomplete === null);
  if (!complete) for (let i = 0; i < propertyHolds.length; i++) if (propertyHolds[i] === true) propertyHolds[i] = "unknown";
  const limits = [...new Set(explorations.map((g) => g.incomplete).filter((r): r is string => r !== null))];
  if (!complete) {
    findings.push({
      code: "I_CHECK_BOUNDED", severity: "info", file: graph.file, pointer: "", kind: "property", witness: null,
      message: `the exploration is bounded, not complete: it stopped at ${limits.join("; ")}. Findings with a witness stand; "never" findings hold only within what was explored`,
    });
  }
  if (!clipLengthsKnown) {
    findings.push({
      code: "I_CHECK_CLIP_LENGTHS", severity: "info", file: graph.file, pointer: "", kind: "exitTimeNeverReached", witness: null,
      message: "clip lengths unknown (no --clips): stand-in clips of 1 s were used, so exit times were checked against those lengths only; give --clips to check them against the real clips",
    });
  }
  const witnesses = findings.filter((f) => f.witness !== null);
  return {
    graph: graph.name, file: graph.file, findings,
    exploration: {
      configurations: explorations.reduce((a, g) => a + g.configurations, 0),
      depth: explorations.reduce((a, g) => Math.max(a, g.maxDepth), 0),
      steps: explorations.reduce((a, g) => a + g.steps, 0),
      groups: explorations.length, complete, limits, elapsedMs: Date.now() - started,
    },
    bound, dt, clipLengthsKnown,
    witnesses: { total: witnesses.length, reproduced: witnesses.filter((f) => f.witness!.replayed).length, withdrawn: builder.withdrawn },
    properties: properties.map((p, i) => ({ text: p.text, line: p.line, holds: propertyHolds[i]! })),
  };
}

function integerOption(v: unknown, fallback: number, name: string, min: number, max: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== "number") throw argumentError("checkGraph", `options.${name}`, "a number", v);
  if (!Number.isInteger(v) || v < min || v > max) throw rangeError("checkGraph", `options.${name}`, `an integer from ${min} to ${max}`, v);
  return v;
}

function numberOption(v: unknown, fallback: number, name: string): number {
  if (v === undefined) return fallback;
  if (typeof v !== "number") throw argumentError("checkGraph", `options.${name}`, "a number of seconds", v);
  if (!(v > 0) || !Number.isFinite(v)) throw rangeError("checkGraph", `options.${name}`, "a finite number of seconds > 0", v);
  return v;
}

/** Turns evidence and what was never seen into findings, building and replaying each witness. */
class FindingBuilder {
  group!: GroupExploration;
  private readonly quietSteps: number;

  constructor(
    private readonly model: CheckModel, private readonly inputs: InputAction[], private readonly dtText: number | string,
    private readonly dt: number, private readonly file: string, private readonly out: CheckFinding[],
  ) {
    this.quietSteps = Math.max(2, Math.ceil(2 / dt));
  }

  private get graph(): CompiledGraph {
    return this.model.graph;
  }

  private path(config: number): Segment[] {
    const segs: Segment[] = [];
    for (let c = config; c > 0; c = this.group.parent[c]!) segs.push({ input: this.group.input[c]!, steps: this.group.stepsFrom[c]! });
    return segs.reverse();
  }

  private at(loc: Location, extra = 0): Segment[] {
    const segs = [...this.path(loc.config), { input: loc.input, steps: loc.steps }];
    if (extra > 0) segs.push({ input: -1, steps: extra });
    return segs;
  }

  private stateName(r: StateRef): string {
    const m = this.graph.machines[r.machine]!;
    return `${m.path}/${m.states[r.state]!.name}`;
  }

  private transitionText(machine: number, t: number): string {
    const m = this.graph.machines[machine]!;
    const tr = m.transitions[t]!;
    return `${tr.from < 0 ? "*" : m.states[tr.from]!.name} → ${m.states[tr.to]!.name}`;
  }

  private inputText(loc: Location): string {
    const inp = this.inputs[loc.input];
    if (!inp) return "";
    const parts = inp.slots.map((s, i) => {
      const p = this.graph.params[s]!;
      return `${p.name} = ${p.type === "bool" ? String(inp.values[i] !== 0) : inp.values[i]}`;
    });
    if (inp.trigger >= 0) parts.push(`${this.graph.params[inp.trigger]!.name} set`);
    return parts.length > 0 ? parts.join(", ") : "the values held";
  }

  /** Absence claims ("never entered", "never left", …) that their own witness run contradicted. */
  withdrawn = 0;

  private emit(kind: CheckFindingKind, code: string, severity: Severity, pointer: string, message: string, segments: Segment[] | null, shows: string, probe: ReplayProbe | null, file = this.file, absence = false): void {
    let witness: CheckWitness | null = null;
    if (segments && probe) {
      const { timeline, steps } = buildTimeline(this.graph, this.inputs, segments, this.dtText, this.dt, shows);
      const problem = steps > 0 ? replayWitness(this.graph, timeline, probe) : "the witness is empty";
      // A claim that something never happens, contradicted by the real run, was wrong: it is dropped
      // (the explorer merges runs by configuration, and a run it merged away can behave otherwise).
      if (problem !== null && absence) {
        this.withdrawn++;
        return;
      }
      witness = { timeline, steps, shows, replayed: problem === null, replay: problem === null ? "reproduced" : problem };
    }
    this.out.push({ code, severity, file, pointer, message, kind, witness });
  }

  evidence(e: Evidence, properties: readonly CheckProperty[], propertiesFile: string, holds: (boolean | "unknown")[]): void {
    const g = this.graph;
    const machines = this.group.group.machines;
    switch (e.kind) {
      case "instantLoop": {
        const m = g.machines[e.machine]!;
        this.emit("livelock", "E_CHECK_LIVELOCK", "error", m.pointer,
          `machine ${m.path} fires ${e.fired} transitions within one step (the maxChain limit) with ${this.inputText(e.at)}: instant transitions loop and the machine never settles`,
          this.at(e.at), `the last step fires ${e.fired} transitions in ${m.path}`, lastStepProbe(g, { instantLoop: { machine: e.machine, count: g.options.maxChain } }, stepsOf(this.at(e.at)) - 1));
        return;
      }
      case "cycle": {
        const first = e.transitions[0]!;
        const route = [...new Set(e.transitions.map((t) => this.transitionText(t.machine, t.transition)))].join(", ");
        const segs = this.at(e.at);
        this.emit("livelock", "E_CHECK_LIVELOCK", "error", g.machines[first.machine]!.transitions[first.transition]!.pointer,
          `with ${this.inputText(e.at)} held, the transitions ${route} repeat every ${fmt(e.cycleSteps * this.dt)} s without end: none waits for an exit time, so the machine flickers and never settles`,
          segs, `the configuration repeats every ${e.cycleSteps} steps`, cycleProbe(g, machines, e.cycleSteps));
        return;
      }
      case "stuck": {
        const st = g.machines[e.machine]!.states[e.state]!;
        const segs = this.at(e.at, this.holdFor(e.at, e.machine, e.state));
        this.emit("stuckState", "W_CHECK_STUCK_STATE", "warning", st.pointer,
          `state ${this.stateName(e)} plays once and then holds its last pose for ever with ${this.inputText(e.at)}: no transition out of it can fire with these values, not even with a trigger set`,
          segs, `${st.name} is still current after its motion ended`,
          endProbe(this.model, { endState: e, endSettled: true, motionEnded: true, quiet: { machines, steps: this.quietSteps } }));
        return;
      }
      case "exitTime": {
        const m = g.machines[e.machine]!;
        const t = m.transitions[e.transition]!;
        const s = t.from >= 0 ? t.from : -1;
        this.emit("exitTimeNeverReached", "W_CHECK_EXIT_TIME_NEVER_REACHED", "warning", t.pointer,
          `the exit time ${t.exitTime} of ${this.transitionText(e.machine, e.transition)} is never reached with ${this.inputText(e.at)}: its conditions hold, but the source's clock stands still (its playback speed is 0, or its cycle has no length)`,
          this.at(e.at, this.quietSteps), `the conditions hold and the exit time never comes`,
          endProbe(this.model, { exitPending: { machine: e.machine, transition: e.transition }, quiet: { machines, steps: this.quietSteps }, ...(s >= 0 ? { endState: { machine: e.machine, state: s } } : {}) }));
        return;
      }
      case "shadow": {
        if (g.machines[e.machine]!.transitions.length === 0 || this.group.fired[e.machine]![e.transition]! > 0) return;
        const t = g.machines[e.machine]!.transitions[e.transition]!;
        const complete = this.group.incomplete === null;
        this.emit("shadowedTransition", "W_CHECK_SHADOWED_TRANSITION", complete ? "warning" : "info", t.pointer,
          `${this.transitionText(e.machine, e.transition)} never fires${complete ? "" : " within the explored bound"}: whenever it could, ${this.transitionText(e.machine, e.by)} (${g.machines[e.machine]!.transitions[e.by]!.pointer}) comes first`,
          this.at(e.at), `the transition could fire, but the earlier one fires`,
          lastStepProbe(g, { shadowed: { machine: e.machine, transition: e.transition, by: e.by } }, stepsOf(this.at(e.at)) - 1));
        return;
      }
      case "stolen": {
        const t = g.machines[e.machine]!.transitions[e.transition]!;
        const trig = g.params[e.trigger]!.name;
        this.emit("triggerStolen", "W_CHECK_TRIGGER_STOLEN", "warning", t.pointer,
          `trigger "${trig}" is consumed by ${g.machines[e.byMachine]!.path}'s ${this.transitionText(e.byMachine, e.by)} before ${g.machines[e.machine]!.path}'s ${this.transitionText(e.machine, e.transition)}, which was ready to fire on it, sees it`,
          this.at(e.at), `the trigger goes to the other machine`,
          lastStepProbe(g, { stolen: { machine: e.machine, transition: e.transition, trigger: e.trigger, byMachine: e.byMachine, by: e.by } }, stepsOf(this.at(e.at)) - 1));
        return;
      }
      case "noEffect": {
        const trig = g.params[e.trigger]!;
        this.emit("triggerWithoutEffect", "W_CHECK_TRIGGER_NO_EFFECT", "warning", childPointer("/parameters", trig.name),
          `trigger "${trig.name}" is consumed by ${this.transitionText(e.machine, e.transition)}, but within the same step instant transitions bring ${g.machines[e.machine]!.path} back to where it was: the trigger has no visible effect`,
          this.at(e.at), `the trigger is consumed and the machine ends the step where it began`,
          lastStepProbe(g, { noEffect: { machine: e.machine, transition: e.transition, trigger: e.trigger } }, stepsOf(this.at(e.at)) - 1));
        return;
      }
      case "never": {
        const p = properties.find((q) => q.compiled.index === e.property)!;
        holds[e.property] = false;
        const conditions = p.compiled.kind === "never" ? p.compiled.conditions : [];
        this.emit("property", "E_CHECK_PROPERTY", "error", `line ${p.line}`,
          `property "${p.text}" is violated: ${this.stateName(e.ref)} is current while the condition holds`,
          this.at(e.at), `${this.stateName(e.ref)} current while the condition holds`,
          endProbe(this.model, { endState: e.ref, conditions }), propertiesFile);
        return;
      }
      case "eventually": {
        const p = properties.find((q) => q.compiled.index === e.property)!;
        if (p.compiled.kind !== "eventually") return;
        holds[e.property] = false;
        const loop = e.loopSteps > 0;
        const segs = this.at(e.at, loop ? 0 : this.quietSteps);
        this.emit("property", "E_CHECK_PROPERTY", "error", `line ${p.line}`,
          `property "${p.text}" is violated: after the event, with ${this.inputText(e.at)} held, the machine ${loop ? "keeps cycling" : "settles"} without ever reaching ${p.compiled.states.map((r) => this.stateName(r)).join(" or ")}`,
          segs, loop ? "the machine cycles without reaching the state" : "the machine settles without reaching the state",
          eventuallyProbe(this.model, p.compiled.states, p.compiled.trigger, p.compiled.entering, machines, loop ? { cycleSteps: e.loopSteps } : { quiet: this.quietSteps }), propertiesFile);
        return;
      }
    }
  }

  /** Steps to hold a stuck state until its motion has played out, plus the quiet window. */
  private holdFor(_loc: Location, _machine: number, _state: number): number {
    return this.quietSteps + Math.ceil(maxClipLength(this.graph) / this.dt);
  }

  /** What was never seen: unreachable and trap states, triggers and transitions that never fire. */
  absences(gx: GroupExploration): void {
    const g = this.graph;
    const complete = gx.incomplete === null;
    const severity: Severity = complete ? "warning" : "info";
    const qualifier = complete ? "" : " within the explored bound";
    const machines = gx.group.machines;
    for (const mid of machines) {
      const m = g.machines[mid]!;
      const reached = gx.reachedIn[mid]!;
      if (!reached.some((r) => r !== -1)) continue; // the machine never ran: its parent state is the finding
      const statically = staticallyReachable(m);
      m.states.forEach((st, s) => {
        if (reached[s] !== -1 || !statically.has(s)) return;
        // Closest approach: a configuration where a state with a transition into s is current.
        const into = m.transitions.filter((t) => t.to === s);
        const pred = into.map((t) => t.from).find((f) => f >= 0 && reached[f]! >= 0);
        const config = pred !== undefined ? reached[pred]! : 0;
        const segs = this.path(config);
        if (segs.length === 0) segs.push({ input: -1, steps: 1 });
        this.emit("unreachableState", "W_CHECK_UNREACHABLE_STATE", severity, st.pointer,
          `state ${this.stateName({ machine: mid, state: s })} is never entered${qualifier}: no input explored makes a transition into it fire${pred !== undefined ? ` (the witness reaches ${m.states[pred]!.name}, from where it is never taken)` : ""}`,
          segs, `${st.name} is never entered`, endProbe(this.model, { neverEntered: { machine: mid, state: s }, ...(pred !== undefined && config > 0 ? { endState: { machine: mid, state: pred } } : {}) }), this.file, true);
      });
      m.states.forEach((st, s) => {
        if (reached[s]! < 0 || gx.left[mid]![s] || st.final || m.outgoing[s]!.length === 0) return;
        this.emit("trapState", "W_CHECK_TRAP_STATE", severity, st.pointer,
          `state ${this.stateName({ machine: mid, state: s })} is entered but never left${qualifier}: none of its ${m.outgoing[s]!.length} transitions out fires under any input explored (mark it "final": true if that is intended)`,
          [...this.path(reached[s]!), { input: -1, steps: this.quietSteps }], `${st.name} is entered and stays`,
          endProbe(this.model, { endState: { machine: mid, state: s } }), this.file, true);
      });
      m.transitions.forEach((t, ti) => {
        if (gx.fired[mid]![ti]! > 0) return;
        const sources = t.from >= 0 ? [t.from] : m.states.map((_, i) => i);
        const src = sources.find((s) => reached[s]! >= 0 && !(t.from < 0 && s === t.to && !t.canTransitionToSelf));
        if (src === undefined) return; // its source is never reached: reported as such
        if (this.out.some((f) => f.pointer === t.pointer && f.kind === "shadowedTransition")) return;
        this.emit("transitionNeverFires", "W_CHECK_TRANSITION_NEVER_FIRES", severity, t.pointer,
          `${this.transitionText(mid, ti)} never fires${qualifier}: its source is reached, but no input explored makes its conditions${t.exitTime >= 0 ? " and exit time" : ""} hold there`,
          [...this.path(reached[src]!), { input: -1, steps: 1 }], `the transition does not fire`,
          endProbe(this.model, { neverFired: { machine: mid, transition: ti } }), this.file, true);
      });
    }
    for (const slot of gx.group.triggers) {
      if ((gx.consumed.get(slot) ?? 0) > 0) continue;
      const p = g.params[slot]!;
      this.emit("triggerNeverFires", "W_CHECK_TRIGGER_NEVER_FIRES", severity, childPointer("/parameters", p.name),
        `trigger "${p.name}" never makes a transition fire${qualifier}: wherever a transition tests it, something else decides first`,
        [{ input: this.triggerInput(slot), steps: this.quietSteps }], `setting the trigger fires nothing`,
        endProbe(this.model, { triggerNeverConsumed: slot }), this.file, true);
    }
  }

  private triggerInput(slot: number): number {
    const existing = this.inputs.findIndex((i) => i.slots.length === 0 && i.trigger === slot);
    if (existing >= 0) return existing;
    this.inputs.push({ slots: [], values: [], trigger: slot });
    return this.inputs.length - 1;
  }

  /** "from A reachable B": every configuration where A is current can still reach one where B is. */
  reachable(gx: GroupExploration, p: CheckProperty, prop: Extract<CompiledProperty, { kind: "reachable" }>, propertiesFile: string, holds: (boolean | "unknown")[]): void {
    const inGroup = (r: StateRef): boolean => gx.group.machines.includes(r.machine);
    if (!prop.from.some(inGroup) || !gx.edges) return;
    const n = gx.currents.length;
    const back: number[][] = Array.from({ length: n }, () => []);
    for (let i = 0; i < gx.edges.length; i += 2) back[gx.edges[i + 1]!]!.push(gx.edges[i]!);
    const good = new Uint8Array(n);
    const queue: number[] = [];
    for (let c = 0; c < n; c++) {
      if (prop.to.some((r) => gx.currents[c]![r.machine] === r.state)) {
        good[c] = 1;
        queue.push(c);
      }
    }
    for (let qi = 0; qi < queue.length; qi++) for (const b of back[queue[qi]!]!) if (!good[b]) { good[b] = 1; queue.push(b); }
    for (let c = 0; c < n; c++) {
      const ref = prop.from.find((r) => gx.currents[c]![r.machine] === r.state);
      if (!ref || good[c]) continue;
      if (gx.incomplete !== null) {
        holds[prop.index] = "unknown";
        return;
      }
      const before = this.withdrawn;
      holds[prop.index] = false;
      this.emit("property", "E_CHECK_PROPERTY", "error", `line ${p.line}`,
        `property "${p.text}" is violated: the witness reaches ${this.stateName(ref)} in a configuration from which no input explored leads to ${prop.to.map((r) => this.stateName(r)).join(" or ")}`,
        c > 0 ? this.path(c) : [{ input: -1, steps: 1 }], `${this.stateName(ref)} is reached`, endProbe(this.model, c > 0 ? { endState: ref } : {}), propertiesFile, true);
      if (this.withdrawn > before) holds[prop.index] = "unknown";
      return;
    }
  }
}

function stepsOf(segs: readonly Segment[]): number {
  return segs.reduce((a, s) => a + s.steps, 0);
}

function fmt(x: number): string {
  return String(Math.round(x * 1000) / 1000);
}

/** The longest finite clip of the graph, seconds (how long a stuck witness waits for a motion to end). */
function maxClipLength(graph: CompiledGraph): number {
  let max = 1;
  for (const m of graph.machines) {
    for (const s of m.states) {
      const mo = s.motion;
      const durations = mo.kind === "clip" ? [mo.source.duration] : mo.kind === "machine" ? [] : [...mo.durations];
      const speed = s.speedSlot >= 0 ? 1 : s.speed;
      for (const d of durations) if (Number.isFinite(d) && speed > 0) max = Math.max(max, d / speed);
    }
  }
  return Math.min(max, 600);
}

/** States reachable from the entry by the transition graph alone (lint's own reachability, which lint reports). */
function staticallyReachable(m: CompiledGraph["machines"][number]): Set<number> {
  const seen = new Set<number>([m.entry]);
  for (const t of m.transitions) if (t.from < 0) seen.add(t.to);
  const queue = [...seen];
  while (queue.length > 0) {
    const s = queue.pop()!;
    for (const ti of m.outgoing[s]!) {
      const to = m.transitions[ti]!.to;
      if (!seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  return seen;
}
