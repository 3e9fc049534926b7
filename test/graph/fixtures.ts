// Shared builders for the graph and state-machine tests: specs from plain JSON (through the real
// parser), a two-joint skeleton and constant keyframed clips whose translation x reveals blend weights.
import { createClip, type Clip } from "../../src/clip/clip.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { setParam } from "../../src/graph/commands.ts";
import type { CompiledGraph, RuntimeOptions } from "../../src/graph/compiled-graph.ts";
import { createInstance, type GraphInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import type { MotionSource } from "../../src/graph/motion-source.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { createSkeleton, type Skeleton } from "../../src/skeleton/skeleton.ts";
import type { GraphSpec } from "../../src/spec/graph-spec.ts";
import { parseGraphSpec } from "../../src/spec/parse-graph-spec.ts";

export const SKELETON: Skeleton = createSkeleton({ names: ["root", "child"], parents: [-1, 0] });

/** A clip of `duration` seconds whose root translation x is `value` throughout (two keys). */
export function constClip(name: string, duration: number, value: number, skeleton: Skeleton = SKELETON): Clip {
  return createClip({
    name, skeleton, duration,
    tracks: [{ joint: 0, path: "translation", interpolation: "LINEAR", stride: 3, times: new Float32Array([0, duration]), values: new Float32Array([value, 0, 0, value, 0, 0]) }],
  });
}

/** A clip whose root translation x goes linearly from 0 to `duration` (x = clip time). */
export function rampClip(name: string, duration: number): Clip {
  return createClip({
    name, skeleton: SKELETON, duration,
    tracks: [{ joint: 0, path: "translation", interpolation: "LINEAR", stride: 3, times: new Float32Array([0, duration]), values: new Float32Array([0, 0, 0, duration, 0, 0]) }],
  });
}

/** Parses a spec given as a plain object; throws with the diagnostics if it does not parse. */
export function specOf(json: unknown, file = "test.animgraph.json"): GraphSpec {
  const r = parseGraphSpec(parseJsonText(JSON.stringify(json), file));
  if (!r.spec) throw new Error(`spec does not parse: ${r.diagnostics.map((d) => `${d.pointer} ${d.code} ${d.message}`).join("; ")}`);
  return r.spec;
}

/** Compiles or throws with the diagnostics. */
export function compileOf(json: unknown, clips: readonly MotionSource[], options: RuntimeOptions = {}): CompiledGraph {
  const r = compileGraph(specOf(json), SKELETON, clips, options);
  if (!r.graph) throw new Error(`graph does not compile: ${r.diagnostics.map((d) => `${d.pointer} ${d.code} ${d.message}`).join("; ")}`);
  return r.graph;
}

/** A one-layer spec with the given states (name → clip) and transitions. */
export function machineSpec(
  states: Record<string, unknown>,
  transitions: unknown[],
  parameters: Record<string, unknown> = {},
  entry?: string,
): unknown {
  return {
    animgraph: 1,
    name: "t",
    parameters,
    layers: [{ name: "base", machine: { entry: entry ?? Object.keys(states)[0], states, transitions } }],
  };
}

/** Clips A, B, C, D of 1 s with root x = 1, 2, 3, 4. */
export const ABCD: readonly Clip[] = [constClip("A", 1, 1), constClip("B", 1, 2), constClip("C", 1, 3), constClip("D", 1, 4)];

export function clipStates(...names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((n) => [n, { clip: n }]));
}

/**
 * A → B on `go` (1 s, interruptible from its source state) and A → C on `back` (0.5 s), then `extra`
 * transitions: a transition that interrupts a running fade from the fade's source state.
 */
export function sourceInterruptionSpec(extra: unknown[] = [], extraParams: Record<string, unknown> = {}): unknown {
  return machineSpec(clipStates("A", "B", "C"), [
    { from: "A", to: "B", conditions: [{ param: "go" }], duration: 1, interruption: { source: "source" } },
    { from: "A", to: "C", conditions: [{ param: "back" }], duration: 0.5 },
    ...extra,
  ], { go: { type: "bool" }, back: { type: "bool" }, ...extraParams });
}

/** An instance of a sourceInterruptionSpec graph 0.2 s into A → B with `back` set: its next step fires A → C. */
export function beforeSourceInterruption(g: CompiledGraph): GraphInstance {
  const inst = createInstance(g);
  setParam(inst, "go", true);
  step(g, inst, 0.1);
  step(g, inst, 0.1);
  setParam(inst, "back", true);
  return inst;
}
