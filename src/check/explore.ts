import type { CompiledCondition, CompiledGraph, CompiledTransition } from "../graph/compiled-graph.ts";
import { createInstance, type GraphInstance } from "../graph/graph-instance.ts";
import { advanceInstance } from "../graph/step.ts";
import { conditionHolds } from "../state-machine/condition.ts";
import { NONE, pickTransition, type ScanTrace } from "../state-machine/select-transition.ts";
import { exitRegion, isActive, normalizedTime, type CheckModel, type LayerGroup } from "./check-model.ts";
import { restoreSnapshot, saveSnapshot, type SnapshotScope } from "./instance-snapshot.ts";
import { distinguishedValues, timingSlots, type ParamRegions } from "./param-regions.ts";

/** How far the explorer may go. */
export interface ExploreLimits {
  /** Seconds per step (the witnesses' dt). */
  readonly dt: number;
  /** Most input changes along a path (BFS depth). */
  readonly bound: number;
  /** Most configurations kept (memory). */
  readonly maxConfigurations: number;
  /** Longest wait under one input before the explorer gives up on it, in seconds. */
  readonly maxWaitSeconds: number;
  /** Wall-clock time (Date.now()) after which exploration stops. */
  readonly deadline: number;
  /** Whether to keep the configuration graph's edges (the "reachable" properties need them). */
  readonly storeEdges: boolean;
}

/** A state of a machine, named by machine id and state index. */
export interface StateRef {
  readonly machine: number;
  readonly state: number;
}

/** A user property, resolved against the compiled graph. */
export type CompiledProperty =
  | { readonly kind: "never"; readonly index: number; readonly states: readonly StateRef[]; readonly conditions: readonly CompiledCondition[] }
  | { readonly kind: "eventually"; readonly index: number; readonly states: readonly StateRef[]; readonly trigger: number; readonly entering: StateRef | null }
  | { readonly kind: "reachable"; readonly index: number; readonly from: readonly StateRef[]; readonly to: readonly StateRef[] };

/** Parameter values (by slot) and possibly a trigger, set before a step. */
export interface InputAction {
  readonly slots: readonly number[];
  readonly values: readonly number[];
  /** Trigger slot set with the values, or -1. */
  readonly trigger: number;
}

/** Where something happened: `steps` steps after applying input `input` to configuration `config`. */
export interface Location {
  readonly config: number;
  readonly input: number;
  readonly steps: number;
}

/** Evidence of a finding, told apart by kind, each at a location a witness can be built to. */
export type Evidence =
  | { readonly kind: "instantLoop"; readonly at: Location; readonly machine: number; readonly fired: number }
  | { readonly kind: "cycle"; readonly at: Location; readonly cycleSteps: number; readonly machines: readonly number[]; readonly transitions: readonly { machine: number; transition: number }[] }
  | { readonly kind: "stuck"; readonly at: Location; readonly machine: number; readonly state: number }
  | { readonly kind: "exitTime"; readonly at: Location; readonly machine: number; readonly transition: number }
  | { readonly kind: "shadow"; readonly at: Location; readonly machine: number; readonly transition: number; readonly by: number }
  | { readonly kind: "stolen"; readonly at: Location; readonly machine: number; readonly transition: number; readonly trigger: number; readonly byMachine: number; readonly by: number }
  | { readonly kind: "noEffect"; readonly at: Location; readonly machine: number; readonly trigger: number; readonly transition: number }
  | { readonly kind: "never"; readonly at: Location; readonly property: number; readonly ref: StateRef }
  | { readonly kind: "eventually"; readonly at: Location; readonly property: number; readonly loopSteps: number };

/** What exploring one layer group found. */
export interface GroupExploration {
  readonly group: LayerGroup;
  readonly configurations: number;
  readonly maxDepth: number;
  readonly steps: number;
  /** Why the exploration is not complete, or null when every configuration within reach was expanded. */
  readonly incomplete: string | null;
  /** Per machine, per state: first configuration where it is current (-1 never), or -2 when only passed through within a step. */
  readonly reachedIn: readonly Int32Array[];
  /** Per machine, per state: whether a transition ever left it. */
  readonly left: readonly Uint8Array[];
  /** Per machine, per transition: how often it fired. */
  readonly fired: readonly Int32Array[];
  /** Per trigger slot: how often a transition consumed it. */
  readonly consumed: ReadonlyMap<number, number>;
  readonly evidence: readonly Evidence[];
  /** Per configuration: its parent, the input that led to it (-1: the same input held), the steps taken, its key. */
  readonly parent: readonly number[];
  readonly input: readonly number[];
  readonly stepsFrom: readonly number[];
  /** Per configuration: the active machines' current states (for the reachable properties). */
  readonly currents: readonly Int32Array[];
  readonly edges: Int32Array | null;
}

/** Everything the explorer shares between groups. */
export interface ExploreContext {
  readonly model: CheckModel;
  readonly regions: ReadonlyMap<number, ParamRegions>;
  readonly properties: readonly CompiledProperty[];
  readonly inputs: InputAction[];
  readonly inputIds: Map<string, number>;
}

const MAX_INPUT_PRODUCT = 4096;

/** Breadth-first exploration of one group's configurations. */
export function exploreGroup(ctx: ExploreContext, group: LayerGroup, limits: ExploreLimits): GroupExploration {
  return new GroupExplorer(ctx, group, limits).run();
}

class GroupExplorer {
  private readonly graph: CompiledGraph;
  private readonly inst: GraphInstance;
  private readonly scope: SnapshotScope;
  private readonly keys = new Map<string, number>();
  private readonly keyOf: string[] = [];
  private readonly parent: number[] = [];
  private readonly inputOf: number[] = [];
  private readonly stepsFrom: number[] = [];
  private readonly depth: number[] = [];
  private readonly snaps: (Float64Array | null)[] = [];
  private readonly holdDone: boolean[] = [];
  private readonly currents: Int32Array[] = [];
  private readonly edgeList: number[] = [];
  private readonly reachedIn: Int32Array[];
  private readonly left: Uint8Array[];
  private readonly fired: Int32Array[];
  private readonly consumed = new Map<number, number>();
  private readonly evidence: Evidence[] = [];
  private readonly evidenceKeys = new Set<string>();
  private readonly monitors: number[] = [];
  private readonly liveness: Extract<CompiledProperty, { kind: "eventually" }>[];
  private readonly never: Extract<CompiledProperty, { kind: "never" }>[];
  private readonly relevanceCache = new Map<string, number[][]>();
  private readonly speedSlots: Set<number>;
  private readonly blendSlots: Map<number, number[]>;
  private readonly neverSlots: Set<number>;
  private steps = 0;
  private maxDepth = 0;
  private incomplete: string | null = null;
  private stop = false;
  // Per step scratch.
  private readonly traces: Map<number, { t: number; ok: boolean; exit: boolean; self: boolean; chosen: boolean }[]> = new Map();
  private readonly norms: Float64Array;
  private readonly eventNow: Uint8Array;

  constructor(private readonly ctx: ExploreContext, private readonly group: LayerGroup, private readonly limits: ExploreLimits) {
    this.graph = ctx.model.graph;
    this.inst = createInstance(this.graph);
    this.scope = { machines: group.machines, allClocks: this.graph.options.targetTime === "resume" };
    this.reachedIn = this.graph.machines.map((m) => new Int32Array(m.states.length).fill(-1));
    this.left = this.graph.machines.map((m) => new Uint8Array(m.states.length));
    this.fired = this.graph.machines.map((m) => new Int32Array(m.transitions.length));
    const inGroup = (r: StateRef): boolean => group.machines.includes(r.machine);
    this.liveness = ctx.properties.filter((p): p is Extract<CompiledProperty, { kind: "eventually" }> => p.kind === "eventually" && p.states.some(inGroup));
    this.never = ctx.properties.filter((p): p is Extract<CompiledProperty, { kind: "never" }> => p.kind === "never" && p.states.some(inGroup));
    const timing = timingSlots(this.graph);
    this.speedSlots = timing.speed;
    this.blendSlots = timing.blend;
    this.neverSlots = new Set(this.never.flatMap((p) => p.conditions.map((c) => c.slot)));
    this.norms = new Float64Array(this.graph.machines.length);
    this.eventNow = new Uint8Array(this.liveness.length);
    for (let i = 0; i < this.liveness.length; i++) this.monitors.push(0);
  }

  run(): GroupExploration {
    const rootKey = this.computeKey();
    this.register(rootKey, -1, -1, 0, 0);
    this.holdDone[0] = false;
    const queue = [0];
    for (let qi = 0; qi < queue.length && !this.stop; qi++) {
      const c = queue[qi]!;
      if (this.depth[c]! >= this.limits.bound) {
        this.markIncomplete(`the bound: configurations at depth ${this.limits.bound} were not expanded (raise --bound)`);
        continue;
      }
      const before = this.keyOf.length;
      this.expand(c);
      this.snaps[c] = null;
      for (let id = before; id < this.keyOf.length; id++) queue.push(id);
    }
    return {
      group: this.group, configurations: this.keyOf.length, maxDepth: this.maxDepth, steps: this.steps,
      incomplete: this.incomplete, reachedIn: this.reachedIn, left: this.left, fired: this.fired, consumed: this.consumed,
      evidence: this.evidence, parent: this.parent, input: this.inputOf, stepsFrom: this.stepsFrom, currents: this.currents,
      edges: this.limits.storeEdges ? Int32Array.from(this.edgeList) : null,
    };
  }

  private markIncomplete(reason: string): void {
    if (this.incomplete === null) this.incomplete = reason;
  }

  // ---------------------------------------------------------------------------------------------
  // Configurations

  private register(key: string, parent: number, input: number, steps: number, depth: number): number {
    const id = this.keyOf.length;
    this.keys.set(key, id);
    this.keyOf.push(key);
    this.parent.push(parent);
    this.inputOf.push(input);
    this.stepsFrom.push(steps);
    this.depth.push(depth);
    this.holdDone.push(true);
    this.snaps.push(saveSnapshot(this.inst, this.scope, this.monitors));
    if (depth > this.maxDepth) this.maxDepth = depth;
    const cur = new Int32Array(this.graph.machines.length).fill(-1);
    for (const mid of this.group.machines) {
      if (!isActive(this.ctx.model, this.inst, mid)) continue;
      const s = this.inst.machines[mid]!.current;
      cur[mid] = s;
      if (this.reachedIn[mid]![s]! < 0) this.reachedIn[mid]![s] = id;
    }
    this.currents.push(cur);
    if (this.keyOf.length >= this.limits.maxConfigurations) {
      this.markIncomplete(`the configuration cap: ${this.limits.maxConfigurations} configurations kept (raise --max-configurations, or check fewer layers at once)`);
      this.stop = true;
    }
    return id;
  }

  /**
   * The abstract configuration: per machine of the group, whether it runs, its current state, its
   * crossfade stack (transition, from, to per entry) and the exit-phase regions of the states whose
   * exit times the next selection reads; the pending triggers; the property monitors.
   */
  private computeKey(): string {
    const inst = this.inst;
    const parts: number[] = [];
    for (const mid of this.group.machines) {
      if (!isActive(this.ctx.model, inst, mid)) {
        parts.push(-1);
        continue;
      }
      const mi = inst.machines[mid]!;
      parts.push(mi.current, mi.depth);
      for (let i = 0; i < mi.depth; i++) {
        const e = mi.stack[i]!;
        parts.push(e.transition, e.from, e.to);
      }
      const n = normalizedTime(inst, mi, mi.current);
      this.norms[mid] = n;
      parts.push(exitRegion(this.ctx.model, mi, mi.current, n));
      if (mi.depth > 0) {
        const from = mi.stack[mi.depth - 1]!.from;
        if (from >= 0) parts.push(exitRegion(this.ctx.model, mi, from, normalizedTime(inst, mi, from)));
      }
    }
    let bits = 0;
    for (let i = 0; i < this.group.triggers.length; i++) if (inst.params[this.group.triggers[i]!] !== 0) bits |= 1 << (i % 30);
    parts.push(bits, ...this.monitors);
    return parts.join(",");
  }

  // ---------------------------------------------------------------------------------------------
  // Inputs

  /** The parameter vectors worth trying from the restored configuration (see relevantConditions). */
  private inputVectors(): { slots: number[]; vectors: number[][] } {
    const inst = this.inst;
    const conds = new Map<number, CompiledCondition[]>();
    const speed = new Set<number>();
    const blend = new Set<number>();
    const sig: number[] = [];
    const addState = (mid: number, s: number, depth: number, seen: Set<string>): void => {
      const key = `${mid}:${s}`;
      if (seen.has(key) || depth > this.graph.options.maxChain + 1) return;
      seen.add(key);
      const m = this.graph.machines[mid]!;
      const st = m.states[s]!;
      if (st.speedSlot >= 0) speed.add(st.speedSlot);
      const mo = st.motion;
      if (mo.kind === "blend1d" && this.blendSlots.has(mo.slot)) blend.add(mo.slot);
      if (mo.kind === "blend2d") {
        if (this.blendSlots.has(mo.slotX)) blend.add(mo.slotX);
        if (this.blendSlots.has(mo.slotY)) blend.add(mo.slotY);
      }
      // A machine state's nested machine decides in the same step it is entered.
      if (mo.kind === "machine") addState(mo.machine.id, mo.machine.entry, depth + 1, seen);
      for (const ti of m.outgoing[s]!) {
        const t = m.transitions[ti]!;
        for (const c of t.conditions) {
          let list = conds.get(c.slot);
          if (!list) conds.set(c.slot, (list = []));
          if (!list.includes(c)) list.push(c);
        }
        // Instant transitions chain within a step: their targets' conditions are read at once too.
        if (t.duration <= 0 || mo.kind === "machine") addState(mid, t.to, depth + 1, seen);
        else {
          const target = m.states[t.to]!.motion;
          if (target.kind === "machine") addState(target.machine.id, target.machine.entry, depth + 1, seen);
        }
      }
    };
    const seen = new Set<string>();
    for (const mid of this.group.machines) {
      if (!isActive(this.ctx.model, inst, mid)) continue;
      const mi = inst.machines[mid]!;
      sig.push(mid, mi.current, mi.depth > 0 ? mi.stack[mi.depth - 1]!.from : -2);
      addState(mid, mi.current, 0, seen);
      if (mi.depth > 0) {
        const from = mi.stack[mi.depth - 1]!.from;
        if (from >= 0) addState(mid, from, 0, seen);
        for (let i = 0; i < mi.depth; i++) addState(mid, mi.stack[i]!.to, 0, seen);
      }
    }
    const cacheKey = sig.join(",");
    const slots = [...new Set([...conds.keys(), ...speed, ...blend, ...this.neverSlots])]
      .filter((s) => this.ctx.regions.has(s)).sort((a, b) => a - b);
    let vectors = this.relevanceCache.get(cacheKey);
    if (!vectors) {
      const perSlot = slots.map((slot) => distinguishedValues(
        this.ctx.regions.get(slot)!,
        [...(conds.get(slot) ?? []), ...this.never.flatMap((p) => p.conditions.filter((c) => c.slot === slot))],
        speed.has(slot), blend.has(slot) ? this.blendSlots.get(slot) : undefined, this.graph.params.length,
      ));
      vectors = [[]];
      for (const values of perSlot) {
        const next: number[][] = [];
        for (const v of vectors) for (const x of values) next.push([...v, x]);
        vectors = next;
        if (vectors.length > MAX_INPUT_PRODUCT) {
          this.markIncomplete(`the input cap: more than ${MAX_INPUT_PRODUCT} parameter combinations matter in one configuration; some were not tried`);
          vectors = vectors.slice(0, MAX_INPUT_PRODUCT);
        }
      }
      this.relevanceCache.set(cacheKey, vectors);
    }
    return { slots, vectors };
  }

  private internInput(slots: readonly number[], values: readonly number[], trigger: number): number {
    const key = `${slots.join(",")}|${values.join(",")}|${trigger}`;
    let id = this.ctx.inputIds.get(key);
    if (id === undefined) {
      id = this.ctx.inputs.length;
      this.ctx.inputs.push({ slots, values, trigger });
      this.ctx.inputIds.set(key, id);
    }
    return id;
  }

  private expand(c: number): void {
    restoreSnapshot(this.inst, this.scope, this.snaps[c]!, this.monitors);
    const { slots, vectors } = this.inputVectors();
    const params = this.inst.params;
    const pending = this.group.triggers.filter((t) => params[t] !== 0);
    const triggers = [-1, ...this.group.triggers.filter((t) => params[t] === 0)];
    for (const p of this.liveness) if (p.trigger >= 0 && !triggers.includes(p.trigger) && !pending.includes(p.trigger)) triggers.push(p.trigger);
    const actions: number[] = [];
    for (const v of vectors) {
      const same = slots.every((s, i) => params[s] === v[i]);
      for (const t of triggers) {
        if (same && t < 0 && this.holdDone[c]) continue; // the hold continuation was followed when c was found
        actions.push(this.internInput(slots, v, t));
      }
    }
    for (const a of actions) {
      if (this.stop) return;
      restoreSnapshot(this.inst, this.scope, this.snaps[c]!, this.monitors);
      this.chain(c, a);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // One input held: step until the configuration changes to one seen before, settles, or loops

  private chain(c: number, inputId: number): void {
    const inst = this.inst;
    const input = this.ctx.inputs[inputId]!;
    for (let i = 0; i < input.slots.length; i++) inst.params[input.slots[i]!] = input.values[i]!;
    if (input.trigger >= 0) inst.params[input.trigger] = 1;
    const dt = this.limits.dt;
    const cap = Math.max(1, Math.ceil(this.limits.maxWaitSeconds / dt));
    const startKey = this.keyOf[c]!;
    this.computeKey(); // the clocks' positions before the first step (settled() compares against them)
    const seen = new Map<string, number>([[startKey, 0]]);
    let prevKey = startKey;
    let last = c;
    let lastStep = 0;
    const chainFired: { step: number; machine: number; transition: number }[] = [];
    const livenessHit = this.liveness.map(() => -1); // last step at which the property's state was current
    const pre = new Float64Array(this.graph.params.length);
    const preCurrent = new Int32Array(this.graph.machines.length);
    const preDepth = new Int32Array(this.graph.machines.length);
    for (let k = 1; k <= cap; k++) {
      if ((++this.steps & 255) === 0 && Date.now() > this.limits.deadline) {
        this.markIncomplete("the time limit (--time-limit)");
        this.stop = true;
        return;
      }
      pre.set(inst.params);
      this.trace(preCurrent, preDepth);
      const prevNorms = Float64Array.from(this.norms);
      advanceInstance(this.graph, inst, dt);
      this.eventNow.fill(0);
      const firedNow = this.observe({ config: c, input: inputId, steps: k }, pre, preCurrent, preDepth, chainFired, k);
      for (let p = 0; p < this.liveness.length; p++) {
        const prop = this.liveness[p]!;
        if (k === 1 && prop.trigger >= 0 && input.trigger === prop.trigger) this.eventNow[p] = 1;
        if (this.propertyStateCurrent(prop.states)) {
          livenessHit[p] = k;
          this.monitors[p] = 0;
        } else if (this.eventNow[p]) this.monitors[p] = 1;
      }
      const key = this.computeKey();
      if (k === 1 || key !== prevKey) this.checkNever({ config: c, input: inputId, steps: k });
      if (key !== prevKey) {
        let id = this.keys.get(key);
        const fresh = id === undefined;
        if (fresh) id = this.register(key, last, last === c ? inputId : -1, k - lastStep, this.depth[last]! + 1);
        if (this.limits.storeEdges) this.edgeList.push(last, id!);
        const first = seen.get(key);
        if (first !== undefined) {
          this.onCycle({ config: c, input: inputId, steps: k }, k - first, chainFired.filter((f) => f.step > first), livenessHit, first, key);
          return;
        }
        seen.set(key, k);
        prevKey = key;
        last = id!;
        lastStep = k;
        if (!fresh || this.stop) return;
        continue;
      }
      if (firedNow > 0) {
        // Transitions fired and the configuration is the same as before the step: a one-step cycle.
        this.onCycle({ config: c, input: inputId, steps: k }, 1, chainFired.filter((f) => f.step === k), livenessHit, k - 1, key);
        return;
      }
      if (this.settled(prevNorms)) {
        this.onSettle({ config: c, input: inputId, steps: k }, key);
        return;
      }
    }
    this.markIncomplete(`the wait limit: an input held for ${this.limits.maxWaitSeconds} s never let the configuration settle`);
    if (last !== c) this.holdDone[last] = false;
  }

  /** Records, before a step, what each running machine's selection sees (the runtime's own scan, traced). */
  private trace(preCurrent: Int32Array, preDepth: Int32Array): void {
    this.traces.clear();
    for (const mid of this.group.machines) {
      const mi = this.inst.machines[mid]!;
      preCurrent[mid] = mi.current;
      preDepth[mid] = mi.depth;
      if (!isActive(this.ctx.model, this.inst, mid)) {
        preCurrent[mid] = -1;
        continue;
      }
      const visits: { t: number; ok: boolean; exit: boolean; self: boolean; chosen: boolean }[] = [];
      const seen = new Set<number>();
      const tr: ScanTrace = {
        visit(t, self, _position, exit, ok, chosen) {
          if (seen.has(t)) return;
          seen.add(t);
          visits.push({ t, ok, exit, self, chosen });
        },
      };
      pickTransition(this.inst, mi, tr);
      this.traces.set(mid, visits);
    }
  }

  /** Reads a step's events; returns the number of transitions the group's machines fired. */
  private observe(at: Location, pre: Float64Array, preCurrent: Int32Array, preDepth: Int32Array, chainFired: { step: number; machine: number; transition: number }[], k: number): number {
    const inst = this.inst;
    const q = inst.result.events;
    const group = this.group.machines;
    const firstFired = new Map<number, number>();
    const count = new Map<number, number>();
    const consumedBy = new Map<number, { machine: number; transition: number }>();
    let total = 0;
    for (let i = 0; i < q.count; i++) {
      const e = q.items[i]!;
      if (!group.includes(e.machine)) continue;
      if (e.type === "stateEntered") {
        if (this.reachedIn[e.machine]![e.state]! === -1) this.reachedIn[e.machine]![e.state] = -2;
        for (let p = 0; p < this.liveness.length; p++) {
          const en = this.liveness[p]!.entering;
          if (en && en.machine === e.machine && en.state === e.state) this.eventNow[p] = 1;
        }
        continue;
      }
      if (e.type !== "transitionStarted") continue;
      total++;
      count.set(e.machine, (count.get(e.machine) ?? 0) + 1);
      if (e.from >= 0) this.left[e.machine]![e.from] = 1;
      if (e.transition < 0) continue;
      if (!firstFired.has(e.machine)) firstFired.set(e.machine, e.transition);
      this.fired[e.machine]![e.transition]!++;
      chainFired.push({ step: k, machine: e.machine, transition: e.transition });
      const t = this.graph.machines[e.machine]!.transitions[e.transition]!;
      for (const slot of t.triggerSlots) {
        if (pre[slot] === 0 || consumedBy.has(slot)) continue;
        consumedBy.set(slot, { machine: e.machine, transition: e.transition });
        this.consumed.set(slot, (this.consumed.get(slot) ?? 0) + 1);
      }
    }
    for (const [mid, n] of count) {
      if (n >= this.graph.options.maxChain) this.addEvidence(`loop:${mid}`, { kind: "instantLoop", at, machine: mid, fired: n });
    }
    for (const [mid, visits] of this.traces) {
      const m = this.graph.machines[mid]!;
      const chosen = visits.find((v) => v.chosen);
      const actual = firstFired.get(mid);
      if (chosen && actual === chosen.t) {
        for (const v of visits) {
          if (v.chosen || v.self || !v.ok || !v.exit) continue;
          this.addEvidence(`shadow:${mid}:${v.t}`, { kind: "shadow", at, machine: mid, transition: v.t, by: chosen.t });
        }
      }
      if (chosen && actual !== chosen.t) {
        const t = m.transitions[chosen.t]!;
        for (const slot of t.triggerSlots) {
          const by = consumedBy.get(slot);
          if (by && by.machine !== mid) {
            this.addEvidence(`stolen:${mid}:${chosen.t}`, { kind: "stolen", at, machine: mid, transition: chosen.t, trigger: slot, byMachine: by.machine, by: by.transition });
          }
        }
      }
    }
    for (const [slot, by] of consumedBy) {
      const mi = inst.machines[by.machine]!;
      if (preDepth[by.machine] === 0 && mi.depth === 0 && preCurrent[by.machine] === mi.current) {
        const t = this.graph.machines[by.machine]!.transitions[by.transition]!;
        if (!(t.to === t.from || (t.from === -1 && t.to === mi.current && t.canTransitionToSelf && (count.get(by.machine) ?? 0) === 1))) {
          this.addEvidence(`noEffect:${slot}`, { kind: "noEffect", at, machine: by.machine, trigger: slot, transition: by.transition });
        }
      }
    }
    return total;
  }

  private propertyStateCurrent(states: readonly StateRef[]): boolean {
    for (const r of states) {
      if (this.inst.machines[r.machine]!.current === r.state && isActive(this.ctx.model, this.inst, r.machine)) return true;
    }
    return false;
  }

  private checkNever(at: Location): void {
    for (const p of this.never) {
      for (const r of p.states) {
        if (this.inst.machines[r.machine]!.current !== r.state || !isActive(this.ctx.model, this.inst, r.machine)) continue;
        if (p.conditions.every((c) => conditionHolds(this.inst.params, c))) this.addEvidence(`never:${p.index}`, { kind: "never", at, property: p.index, ref: r });
      }
    }
  }

  /** Nothing can change any more under the held input: no crossfade runs and no clock moves toward an exit time. */
  private settled(prevNorms: Float64Array): boolean {
    for (const mid of this.group.machines) {
      if (!isActive(this.ctx.model, this.inst, mid)) continue;
      const mi = this.inst.machines[mid]!;
      if (mi.depth > 0) return false;
      const th = this.ctx.model.thresholds[mid]![mi.current]!;
      const region = exitRegion(this.ctx.model, mi, mi.current, this.norms[mid]!);
      if (region < th.length && this.norms[mid] !== prevNorms[mid]) return false;
    }
    return true;
  }

  private onSettle(at: Location, _key: string): void {
    const inst = this.inst;
    for (const mid of this.group.machines) {
      if (!isActive(this.ctx.model, inst, mid)) continue;
      const mi = inst.machines[mid]!;
      const m = mi.machine;
      const s = mi.current;
      const st = m.states[s]!;
      // Exit times that the held input would let fire, if only the clock got there.
      for (const v of this.traces.get(mid) ?? []) {
        if (v.ok && !v.exit && !v.self) this.addEvidence(`exit:${mid}:${v.t}`, { kind: "exitTime", at, machine: mid, transition: v.t });
      }
      if (st.final || st.loop !== "clamp" || st.motion.kind === "machine" || m.outgoing[s]!.length === 0) continue;
      if (!this.canLeaveWithTriggers(mid, s)) this.addEvidence(`stuck:${mid}:${s}`, { kind: "stuck", at, machine: mid, state: s });
    }
    for (let p = 0; p < this.liveness.length; p++) {
      if (this.monitors[p] === 1) this.addEvidence(`eventually:${this.liveness[p]!.index}`, { kind: "eventually", at, property: this.liveness[p]!.index, loopSteps: 0 });
    }
  }

  /** Whether some transition out of state s holds with the current values and every trigger set. */
  private canLeaveWithTriggers(mid: number, s: number): boolean {
    const m = this.graph.machines[mid]!;
    const probe = Float64Array.from(this.inst.params);
    for (const p of this.graph.params) if (p.type === "trigger") probe[p.slot] = 1;
    for (const ti of m.outgoing[s]!) {
      const t: CompiledTransition = m.transitions[ti]!;
      if (t.to === s && t.from !== t.to && !t.canTransitionToSelf) continue;
      if (t.conditions.every((c) => conditionHolds(probe, c))) return true;
    }
    return false;
  }

  private onCycle(at: Location, cycleSteps: number, fired: { machine: number; transition: number }[], livenessHit: number[], first: number, _key: string): void {
    if (fired.length > 0 && fired.every((f) => this.graph.machines[f.machine]!.transitions[f.transition]!.exitTime < 0)) {
      const machines = [...new Set(fired.map((f) => f.machine))];
      this.addEvidence(`cycle:${machines.join(",")}:${[...new Set(fired.map((f) => `${f.machine}.${f.transition}`))].sort().join(",")}`, {
        kind: "cycle", at, cycleSteps, machines, transitions: fired.map((f) => ({ machine: f.machine, transition: f.transition })),
      });
    }
    for (let p = 0; p < this.liveness.length; p++) {
      if (this.monitors[p] === 1 && livenessHit[p]! <= first) {
        this.addEvidence(`eventually:${this.liveness[p]!.index}`, { kind: "eventually", at, property: this.liveness[p]!.index, loopSteps: cycleSteps });
      }
    }
  }

  private addEvidence(key: string, e: Evidence): void {
    if (this.evidenceKeys.has(key)) return;
    this.evidenceKeys.add(key);
    this.evidence.push(e);
  }
}

export { NONE };
