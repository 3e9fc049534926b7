/** What happened during a step, in order. */
export type GraphEventType =
  | "stateEntered" | "stateExited"
  | "transitionStarted" | "transitionEnded" | "transitionInterrupted"
  | "clipLooped" | "notify";

/**
 * One event. Preallocated and reused: read the fields during the step's aftermath, copy what you keep.
 * Fields that do not apply to a type are -1 (indices) or "" (name).
 */
export interface GraphEvent {
  type: GraphEventType;
  /** Layer index. */
  layer: number;
  /** Machine id (graph.machines; nested machines have their own ids). */
  machine: number;
  /** The state concerned: entered, exited, looped, notifying; for transitions, the target. */
  state: number;
  /** Transition events: source state index (the state that was current) and transition index. */
  from: number;
  transition: number;
  /** notify: the event name; other types: "". */
  name: string;
  /** When, in seconds since the start of the step. */
  time: number;
}

/**
 * The per-step event queue: `items[0 .. count − 1]` are this step's events, in order. Capacity is fixed
 * (RuntimeOptions.eventCapacity); events past it are counted in `dropped`, never stored. Event objects
 * are made the first time the queue grows that deep and reused ever after, so a character that never
 * has more than k events in a step holds k of them, not `capacity` (a crowd of 10,000 saves ~100 bytes
 * per unused slot per character), and steady-state steps still allocate nothing.
 */
export interface EventQueue {
  readonly items: readonly GraphEvent[];
  readonly capacity: number;
  count: number;
  dropped: number;
}

export function createEventQueue(capacity: number): EventQueue {
  return { items: [], capacity, count: 0, dropped: 0 };
}

/** Appends an event (no allocation). */
export function pushEvent(
  q: EventQueue, type: GraphEventType, layer: number, machine: number, state: number,
  from: number, transition: number, name: string, time: number,
): void {
  const e = queueEvent(q, type, layer, machine, state, from, transition, name);
  if (e) e.time = time;
}

/**
 * Appends an event whose time the caller then stores (`e.time = …`), or returns null when the queue is
 * full (counted in `dropped`). No allocation. `step` uses this form: the time is a double computed per
 * event, and passing it to a call V8 does not inline would box it into a new heap number, as would
 * storing it here while this function, called only when something happens, is still interpreted.
 */
export function queueEvent(
  q: EventQueue, type: GraphEventType, layer: number, machine: number, state: number,
  from: number, transition: number, name: string,
): GraphEvent | null {
  if (q.count >= q.capacity) {
    q.dropped++;
    return null;
  }
  const items = q.items as GraphEvent[];
  if (q.count === items.length) items.push({ type: "notify", layer: -1, machine: -1, state: -1, from: -1, transition: -1, name: "", time: 0 });
  const e = items[q.count++]!;
  e.type = type;
  e.layer = layer;
  e.machine = machine;
  e.state = state;
  e.from = from;
  e.transition = transition;
  e.name = name;
  return e;
}
