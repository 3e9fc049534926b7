import { setParam, travel, trigger } from "./commands.ts";
import type { CompiledGraph } from "./compiled-graph.ts";
import type { GraphInstance, StepResult } from "./graph-instance.ts";
import { step } from "./step.ts";
import type { Timeline, TimelineCommand } from "./timeline.ts";
import { expectFunction, expectObject, expectOneOf } from "../errors/check-argument.ts";
import { expectCompiledGraph, expectInstance } from "./check-graph.ts";
import { expectDt, expectStepLimit, expectTimeline } from "./check-timeline.ts";

/** Number of steps a timeline run takes at `dt`: round(duration / dt). */
export function timelineStepCount(timeline: Timeline, dt?: number): number {
  expectTimeline("timelineStepCount", timeline);
  if (dt !== undefined) expectDt("timelineStepCount", dt);
  return stepCount(timeline, dt ?? timeline.dt);
}

function stepCount(timeline: Timeline, dt: number): number {
  return Math.round(timeline.duration / dt);
}


/**
 * Plays a timeline on an instance: before step k (starting at t_k = k · dt, computed by multiplication
 * so no error accumulates), every command with t ≤ t_k (+ 1e-9 · dt) not yet applied is applied in order;
 * then `step(graph, instance, dt)`. `visit` sees each step's result (valid until the next step) and
 * the commands applied before it. `dt` overrides the timeline's own. `before`, when given, sees the
 * instance after the commands and before the step (where `explainStep` looks).
 */
export function runTimeline(
  graph: CompiledGraph,
  instance: GraphInstance,
  timeline: Timeline,
  visit: (k: number, t: number, result: StepResult, applied: readonly TimelineCommand[]) => void,
  dtOverride?: number,
  before?: (k: number, t: number, applied: readonly TimelineCommand[]) => void,
): void {
  const fn = "runTimeline";
  expectCompiledGraph(fn, "graph", graph);
  expectInstance(fn, "instance", instance, graph);
  expectTimeline(fn, timeline);
  expectFunction(fn, "visit", visit);
  if (dtOverride !== undefined) expectDt(fn, dtOverride);
  if (before !== undefined) expectFunction(fn, "before", before);
  const dt = dtOverride ?? timeline.dt;
  expectDt(fn, dt);
  expectStepLimit(fn, timeline, dt);
  const steps = stepCount(timeline, dt);
  const commands = timeline.commands;
  let next = 0;
  const applied: TimelineCommand[] = [];
  for (let k = 0; k < steps; k++) {
    const t = k * dt;
    applied.length = 0;
    while (next < commands.length && commands[next]!.t <= t + 1e-9 * dt) {
      const c = commands[next++]!;
      applyCommandUnchecked(instance, c);
      applied.push(c);
    }
    before?.(k, t, applied);
    visit(k, t, step(graph, instance, dt), applied);
  }
}

/** Applies one timeline command to an instance. */
export function applyCommand(instance: GraphInstance, c: TimelineCommand): void {
  expectInstance("applyCommand", "instance", instance);
  expectObject("applyCommand", "c", c);
  expectOneOf("applyCommand", "c.kind", c.kind, COMMAND_KINDS);
  applyCommandUnchecked(instance, c);
}
const COMMAND_KINDS: readonly TimelineCommand["kind"][] = ["set", "trigger", "travel"];

/** applyCommand for commands of a parsed timeline (setParam, trigger and travel still check their own arguments). */
function applyCommandUnchecked(instance: GraphInstance, c: TimelineCommand): void {
  if (c.kind === "set") setParam(instance, c.param, c.value);
  else if (c.kind === "trigger") trigger(instance, c.param);
  else travel(instance, c.layer, c.state);
}
