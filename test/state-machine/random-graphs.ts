// Random graphs and parameter streams for property tests (invariants, explainStep agreement).
import fc from "fast-check";
import { setParam, travel, trigger } from "../../src/graph/commands.ts";
import type { GraphInstance } from "../../src/graph/graph-instance.ts";
import { ABCD, rampClip } from "../graph/fixtures.ts";

export const CLIPS = [...ABCD, rampClip("R", 0.7)];
const CLIP_NAMES = CLIPS.map((c) => c.name);
const PARAMS = { f: { type: "float", default: 0 }, i: { type: "int", default: 0 }, b: { type: "bool" }, t: { type: "trigger" } };

const condition = fc.oneof(
  fc.record({ param: fc.constant("f"), op: fc.constantFrom(">", ">=", "<", "<=", "==", "!="), value: fc.double({ min: -2, max: 2, noNaN: true }) }),
  fc.record({ param: fc.constant("i"), op: fc.constantFrom(">", "<", "==", "!="), value: fc.integer({ min: -2, max: 2 }) }),
  fc.record({ param: fc.constant("b"), value: fc.boolean() }),
  fc.record({ param: fc.constant("t") }),
);

const motion = fc.oneof(
  fc.record({ clip: fc.constantFrom(...CLIP_NAMES) }),
  fc.record({ blend1d: fc.record({ param: fc.constant("f"), weighting: fc.constantFrom("linear", "inverseDistance"), sync: fc.boolean(),
    children: fc.constant([{ at: -1, clip: "A" }, { at: 0, clip: "R" }, { at: 1.5, clip: "C" }]) }) }),
);

/** A random valid graph: 2–5 states, up to 10 transitions; zero durations only forward (no cycles). */
export const graphArb = fc.integer({ min: 2, max: 5 }).chain((n) => {
  const names = Array.from({ length: n }, (_, k) => `S${k}`);
  const state = fc.record({
    motion, loop: fc.constantFrom("loop", "clamp", "pingpong"), speed: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 3, noNaN: true }), fc.constant({ param: "f" })),
    events: fc.array(fc.record({ name: fc.constantFrom("e1", "e2"), time: fc.double({ min: 0, max: 1.2, noNaN: true }) }), { maxLength: 2 }),
  });
  const transition = fc.record({
    from: fc.integer({ min: -1, max: n - 1 }), to: fc.integer({ min: 0, max: n - 1 }),
    conditions: fc.array(condition, { maxLength: 2 }),
    duration: fc.constantFrom(0, 0.05, 0.2, 0.7),
    curve: fc.constantFrom("linear", "smoothstep", "smootherstep", "easeIn", "easeOut"),
    exitTime: fc.option(fc.double({ min: 0, max: 1.5, noNaN: true }), { nil: undefined }),
    offset: fc.double({ min: 0, max: 0.5, noNaN: true }),
    source: fc.constantFrom("none", "source", "target", "sourceThenTarget", "targetThenSource"),
    freeze: fc.boolean(), self: fc.boolean(),
  });
  return fc.record({
    states: fc.array(state, { minLength: n, maxLength: n }),
    transitions: fc.array(transition, { maxLength: 10 }),
    depth: fc.integer({ min: 1, max: 8 }),
    cut: fc.boolean(),
    freezeSource: fc.boolean(),
    twoLayers: fc.boolean(),
  }).map((g) => {
    const states = Object.fromEntries(g.states.map((s, k) => [names[k], { ...s.motion, loop: s.loop, speed: s.speed, events: s.events }]));
    const transitions = g.transitions
      .map((t) => ({ ...t, duration: t.duration === 0 && !(t.from >= 0 && t.from < t.to) ? 0.05 : t.duration }))
      .map((t) => ({
        from: t.from < 0 ? "*" : names[t.from], to: names[t.to], conditions: t.conditions, duration: t.duration, curve: t.curve,
        ...(t.exitTime === undefined ? {} : { exitTime: t.exitTime }), offset: t.offset,
        interruption: { source: t.source, freeze: t.freeze }, canTransitionToSelf: t.self && t.duration > 0,
      }));
    const machine = { entry: names[0], states, transitions };
    const layers: unknown[] = [{ name: "base", machine }];
    if (g.twoLayers) layers.push({ name: "add", mode: "additive", weight: 0.5, machine });
    return {
      json: { animgraph: 1, parameters: PARAMS, layers },
      options: { maxStackDepth: g.depth, interruptMode: g.cut ? "cut" as const : "stack" as const, sourceTime: g.freezeSource ? "freeze" as const : "advance" as const },
      names,
    };
  });
});

export const command = fc.oneof(
  fc.record({ kind: fc.constant("f"), v: fc.double({ min: -2, max: 2, noNaN: true }) }),
  fc.record({ kind: fc.constant("i"), v: fc.integer({ min: -2, max: 2 }) }),
  fc.record({ kind: fc.constant("b"), v: fc.boolean() }),
  fc.record({ kind: fc.constant("t"), v: fc.constant(0) }),
  fc.record({ kind: fc.constant("travel"), v: fc.integer({ min: 0, max: 4 }) }),
);
export const frame = fc.record({ dt: fc.constantFrom(0, 1 / 60, 1 / 30, 0.1, 0.25, 1.0, 2.5), commands: fc.array(command, { maxLength: 2 }) });


/** Applies one frame's generated commands to an instance (travel on layer 0, by state index). */
export function applyCommands(inst: GraphInstance, commands: readonly { kind: string; v: number | boolean }[], names: readonly string[]): void {
  for (const c of commands) {
    if (c.kind === "t") trigger(inst, "t");
    else if (c.kind === "travel") travel(inst, 0, names[(c.v as number) % names.length]!);
    else setParam(inst, c.kind, c.v);
  }
}
