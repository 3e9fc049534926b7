import { argumentError, expectObject, rangeError } from "../errors/check-argument.ts";
import { createRadixScratch, radixSortPairs } from "./radix-sort.ts";

/** Options of `createBudgetScheduler`. */
export interface BudgetSchedulerOptions {
  /** Most characters the scheduler handles (its arrays are allocated once for this many). */
  readonly capacity: number;
  /** Joint-samples allowed per frame (B): the sum of the scheduled characters' joint counts. ≥ 1. */
  readonly budget: number;
  /**
   * Age (frames since a character's last update) from which it is overdue and served before every
   * nearer character, oldest first. Default 8. ≥ 1.
   */
  readonly overdueAge?: number;
}

/**
 * A per-frame animation budget: which characters sample their animation this frame. Rules
 * (docs/compression.md, "Budgets"):
 * 1. Overdue characters (age ≥ `overdueAge`, age = frames since the last update; a character never
 *    updated counts as overdue) come first, oldest first, ties nearest first (distances compared at
 *    float32 precision, then by index). They are taken in that
 *    order while they fit in the remaining budget; the first that does not fit stops this phase (a
 *    smaller one behind it may not jump the queue).
 * 2. Then everyone else, nearest first, each taken if it fits in what is left (first fit).
 * 3. The one documented overrun: a character whose joint count alone exceeds the budget is taken
 *    by itself when it is the first overdue character, or when nothing else fitted — so a single huge
 *    character cannot freeze forever. No other frame ever exceeds the budget.
 * Starvation bound: with N characters, the largest joint count J_max and m = max(1, ⌊B / J_max⌋), no
 * character waits more than `overdueAge` + ⌈N / m⌉ − 1 frames between updates (`starvationBound`; the
 * argument is in the docs and test/lod/budget-scheduler.test.ts checks it), for a fixed set of
 * characters (a slot given to a new character should be `resetCharacter`ed; it then jumps the queue).
 */
export interface BudgetScheduler {
  readonly capacity: number;
  readonly budget: number;
  readonly overdueAge: number;
  /** Frame of each character's last update; −2^31 before the first. */
  readonly lastUpdate: Int32Array;
  /**
   * Marks `out[i]` = 1 for the characters to update on `frame` (0 otherwise) and records them as
   * updated. `distances[i]` (NaN = farthest) and `jointCounts[i]` (≥ 0) describe character i; the count
   * of characters is `distances.length` (≤ capacity). `frame` must increase by one per call (or more
   * when frames are skipped). Returns the joint-samples scheduled. Allocates nothing.
   */
  schedule(out: Uint8Array | Int32Array, distances: ArrayLike<number>, jointCounts: ArrayLike<number>, frame: number): number;
  /** Forgets all history (every character becomes overdue). */
  reset(): void;
  /** Forgets one slot's history (when a new character takes slot `i`). */
  resetCharacter(i: number): void;
}

const NEVER = -0x80000000;
/** Most characters one scheduler handles. */
export const MAX_CAPACITY = 1 << 24;
/** Ages are capped here (a never-updated character has this age). */
const AGE_CAP = 0x7fffffff;

/** The worst wait between two updates of one character that the rules guarantee (frames). */
export function starvationBound(characters: number, maxJointCount: number, budget: number, overdueAge: number): number {
  const m = Math.max(1, Math.floor(budget / Math.max(1, maxJointCount)));
  return overdueAge + Math.ceil(characters / m) - 1;
}

/**
 * Creates a budget scheduler with its arrays allocated for `options.capacity` characters. Throws on a
 * capacity that is not an integer in 0…2^24, a budget below 1 or an overdue age that is not an integer ≥ 1.
 */
export function createBudgetScheduler(options: BudgetSchedulerOptions): BudgetScheduler {
  const fn = "createBudgetScheduler";
  expectObject(fn, "options", options);
  const capacity = options.capacity;
  const budget = options.budget;
  const overdueAge = options.overdueAge ?? 8;
  if (typeof capacity !== "number" || !Number.isInteger(capacity)) throw argumentError(fn, "options.capacity", "an integer", capacity);
  if (typeof budget !== "number" || Number.isNaN(budget)) throw argumentError(fn, "options.budget", "a number of joints ≥ 1", budget);
  if (typeof overdueAge !== "number" || !Number.isInteger(overdueAge)) throw argumentError(fn, "options.overdueAge", "an integer", overdueAge);
  if (!(capacity >= 0 && capacity <= MAX_CAPACITY)) throw rangeError(fn, "options.capacity", `an integer in [0, ${MAX_CAPACITY}]`, capacity);
  if (!(budget >= 1)) throw rangeError(fn, "options.budget", "a number ≥ 1", budget);
  if (!(overdueAge >= 1)) throw rangeError(fn, "options.overdueAge", "an integer ≥ 1", overdueAge);
  const lastUpdate = new Int32Array(capacity).fill(NEVER);
  // Orders come from a stable radix sort on 32-bit keys (no comparator, no allocation, O(n)).
  const sortKeys = new Uint32Array(capacity);
  const order = new Int32Array(capacity); // characters by distance (ties: index)
  const overdueOrder = new Int32Array(capacity); // overdue characters by age (oldest first), then distance
  const isOverdue = new Uint8Array(capacity);
  const scratch = createRadixScratch(capacity);
  const f32 = new Float32Array(1);
  const bits = new Uint32Array(f32.buffer);

  return {
    capacity,
    budget,
    overdueAge,
    lastUpdate,
    schedule(out, distances, jointCounts, frame) {
      const n = distances.length;
      if (n > capacity || jointCounts.length < n || out.length < n) {
        throw new RangeError(`schedule: ${n} characters for a capacity of ${capacity} (and out / jointCounts of at least that length)`);
      }
      // Nearest first: the float32 bit pattern of a distance ≥ 0 orders like the distance.
      for (let i = 0; i < n; i++) {
        const d = distances[i]!;
        f32[0] = d > 0 ? d : Number.isNaN(d) ? Infinity : 0;
        sortKeys[i] = bits[0]!;
        order[i] = i;
        out[i] = 0;
      }
      radixSortPairs(sortKeys, order, n, scratch);
      // Overdue, collected nearest first, then stably sorted oldest first.
      let overdueCount = 0;
      for (let k = 0; k < n; k++) {
        const i = order[k]!;
        const last = lastUpdate[i]!;
        const age = last === NEVER ? AGE_CAP : Math.min(AGE_CAP, frame - last);
        isOverdue[i] = age >= overdueAge ? 1 : 0;
        if (isOverdue[i]) {
          sortKeys[overdueCount] = AGE_CAP - age;
          overdueOrder[overdueCount++] = i;
        }
      }
      radixSortPairs(sortKeys, overdueOrder, overdueCount, scratch);
      let left = budget;
      let used = 0;
      // 1. Overdue, strictly in order; the first that does not fit ends the phase.
      for (let q = 0; q < overdueCount; q++) {
        const i = overdueOrder[q]!;
        const cost = jointCounts[i]!;
        if (cost > left) {
          // The documented overrun: the oldest overdue character alone exceeds the whole budget.
          if (used === 0 && cost > budget) {
            out[i] = 1;
            used = cost;
            left = 0;
          }
          break;
        }
        out[i] = 1;
        left -= cost;
        used += cost;
      }
      // 2. Everyone else, nearest first, first fit.
      for (let k = 0; k < n && left > 0; k++) {
        const i = order[k]!;
        if (isOverdue[i]) continue;
        const cost = jointCounts[i]!;
        if (cost <= left) {
          out[i] = 1;
          left -= cost;
          used += cost;
        }
      }
      // 3. The documented overrun when nothing fitted: the first character in priority order
      // (overdue ones first) that exceeds the budget is taken alone.
      if (used === 0) {
        let pick = -1;
        for (let q = 0; q < overdueCount && pick < 0; q++) {
          const i = overdueOrder[q]!;
          if (jointCounts[i]! > budget) pick = i;
        }
        for (let k = 0; k < n && pick < 0; k++) {
          const i = order[k]!;
          if (!isOverdue[i] && jointCounts[i]! > budget) pick = i;
        }
        if (pick >= 0) {
          out[pick] = 1;
          used = jointCounts[pick]!;
        }
      }
      for (let i = 0; i < n; i++) if (out[i]) lastUpdate[i] = frame;
      return used;
    },
    reset() {
      lastUpdate.fill(NEVER);
    },
    resetCharacter(i) {
      lastUpdate[i] = NEVER;
    },
  };
}
