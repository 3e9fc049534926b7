// The continuity figure of each transition as the studio plays it (docs/transitions.md): the largest
// joint angular-velocity jump of the output pose, over the joints the transition's layer moves, in its
// first step against the step before. The history keeps every step's jump over the whole body.
import { createContinuityMeter, type CompiledGraph, type ContinuityMeter, type GraphInstance } from "animgraph";

/** Steps of per-step jumps kept for the history plot (the fade panel shows the same span). */
export const JUMP_HISTORY = 240;

export interface ContinuityTracker {
  /** After each step of the playing character: measures its pose and notes the transitions it started. */
  step(instance: GraphInstance, graph: CompiledGraph, dt: number): void;
  /** The last figure measured for transition `transition` of machine `machine` (rad/s), if it has run. */
  jumpOf(machine: number, transition: number): number | undefined;
  /** Per step, oldest first: the jump (rad/s, NaN before two steps) and whether a transition started then. */
  history(): { jump: number; started: boolean }[];
  /** Ring buffers for drawing without allocation: jumps[(head + i) % JUMP_HISTORY], i < filled. */
  readonly jumps: Float32Array;
  readonly starts: Uint8Array;
  readonly head: number;
  readonly filled: number;
}

export function createContinuityTracker(): ContinuityTracker {
  let meter: ContinuityMeter | undefined;
  let meterGraph: CompiledGraph | undefined;
  const figures = new Map<number, number>();
  const jumps = new Float32Array(JUMP_HISTORY);
  const starts = new Uint8Array(JUMP_HISTORY);
  let head = 0, filled = 0;
  return {
    step(instance, graph, dt) {
      if (graph !== meterGraph) {
        // A new graph (or character): fresh figures and history.
        meterGraph = graph;
        meter = createContinuityMeter(graph.skeleton.jointCount);
        figures.clear();
        head = filled = 0;
      }
      const jump = meter!.push(instance.result.pose, dt);
      let started = 0;
      const events = instance.result.events;
      for (let i = 0; i < events.count; i++) {
        const e = events.items[i]!;
        if (e.type !== "transitionStarted" || e.transition < 0) continue;
        started = 1;
        // Over the joints the transition's layer moves, as `animgraph run` reports it.
        const own = meter!.jumpOver(graph.layers[e.layer]!.mask);
        if (!Number.isNaN(own)) figures.set(e.machine * 65536 + e.transition, own);
      }
      const at = (head + filled) % JUMP_HISTORY;
      jumps[at] = jump;
      starts[at] = started;
      if (filled < JUMP_HISTORY) filled++;
      else head = (head + 1) % JUMP_HISTORY;
    },
    jumpOf(machine, transition) {
      return figures.get(machine * 65536 + transition);
    },
    history() {
      return Array.from({ length: filled }, (_, i) => ({ jump: jumps[(head + i) % JUMP_HISTORY]!, started: starts[(head + i) % JUMP_HISTORY] === 1 }));
    },
    jumps, starts,
    get head() { return head; },
    get filled() { return filled; },
  };
}
