import { AnimgraphError } from "../errors/animgraph-error.ts";
import { argumentError, rangeError } from "../errors/check-argument.ts";
import { MAX_TIMELINE_STEPS, type Timeline } from "./timeline.ts";

// Boundary checks of the calls that play a timeline (runTimeline, timelineStepCount, digestRun).

/** A Timeline from parseTimeline or readTimeline: its dt, duration and sorted commands. */
export function expectTimeline(fn: string, timeline: unknown): asserts timeline is Timeline {
  const t = timeline as Partial<Timeline> | null;
  if (typeof t !== "object" || t === null || typeof t.dt !== "number" || typeof t.duration !== "number" || !Array.isArray(t.commands)) {
    throw argumentError(fn, "timeline", "a Timeline (from parseTimeline or readTimeline)", timeline);
  }
}

/** A step length: a finite number > 0; `argument` names where it came from (`dt`, `options.dt`). */
export function expectDt(fn: string, dt: unknown, argument = "dt"): asserts dt is number {
  if (typeof dt !== "number") throw argumentError(fn, argument, "a finite number of seconds > 0", dt);
  if (!(dt > 0 && dt < Infinity)) throw rangeError(fn, argument, "a finite number of seconds > 0", dt);
}

/** A run of `timeline` at `dt` stays within MAX_TIMELINE_STEPS steps (a tiny dt would run for hours). */
export function expectStepLimit(fn: string, timeline: Timeline, dt: number): void {
  const steps = Math.round(timeline.duration / dt);
  if (!(steps <= MAX_TIMELINE_STEPS)) {
    throw new AnimgraphError("ERR_OUT_OF_RANGE", `${fn}: timeline: ${timeline.duration} s at dt ${dt} s is ${steps} steps; the limit is ${MAX_TIMELINE_STEPS} (see timelineLimitProblem)`, { argument: "timeline" });
  }
}
