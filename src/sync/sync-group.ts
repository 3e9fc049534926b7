import { argumentError, expectNumber, expectNumberArray } from "../errors/check-argument.ts";

// Phase synchronisation of cyclic clips of different lengths (a walk and a run): all clips of a group play
// at one normalised time φ ∈ [0, 1), so their foot contacts line up and a blend between them does not
// slide. The group's cycle lasts the weight-averaged clip length L = Σ ŵ_i·d_i; φ advances by dt / L;
// clip i is sampled at t_i = φ·d_i, i.e. it plays at rate d_i / L.

/** Blended cycle length L = Σ ŵ_i·d_i (seconds) over the contributing weights; 0 when none contributes. */
export function syncedCycleDuration(durations: ArrayLike<number>, weights: ArrayLike<number>): number {
  expectNumberArray("syncedCycleDuration", "durations", durations);
  expectNumberArray("syncedCycleDuration", "weights", weights);
  syncedCycleDurationAt(result, 0, durations, weights);
  return result[0]!;
}
const result = new Float64Array(1);

/**
 * `syncedCycleDuration` written to out[o]: the per-frame form. A double returned from a call V8 does not
 * inline is a new heap number (src/math/quat.ts explains); a Float64Array slot is not.
 */
export function syncedCycleDurationAt(out: Float64Array, o: number, durations: ArrayLike<number>, weights: ArrayLike<number>): void {
  let total = 0, sum = 0;
  const n = Math.min(durations.length, weights.length);
  for (let i = 0; i < n; i++) {
    const w = weights[i]!;
    // contributes(w), written out: a double passed to a call V8 does not inline is boxed.
    if (!(w > 0 && w < Infinity)) continue;
    total += w;
    sum += w * durations[i]!;
  }
  out[o] = total > 0 ? sum / total : 0;
}

/**
 * The phase after `dt` seconds: (φ + dt / L) mod 1 in [0, 1), L = syncedCycleDuration(durations,
 * weights). A zero L (no weight, or zero-length clips) leaves φ unchanged. Negative dt plays backwards.
 */
export function advanceSyncedPhase(phase: number, dt: number, durations: ArrayLike<number>, weights: ArrayLike<number>): number {
  expectNumber("advanceSyncedPhase", "phase", phase);
  expectNumber("advanceSyncedPhase", "dt", dt);
  expectNumberArray("advanceSyncedPhase", "durations", durations);
  expectNumberArray("advanceSyncedPhase", "weights", weights);
  const length = syncedCycleDuration(durations, weights);
  if (!(length > 0)) return phase;
  return wrapPhase(phase + dt / length);
}

/** Clip time for a phase: φ·d (seconds). */
export function phaseToTime(phase: number, duration: number): number {
  return phase * duration;
}

/** φ mod 1 in [0, 1). */
export function wrapPhase(phase: number): number {
  if (!Number.isFinite(phase)) return 0;
  const r = phase - Math.floor(phase);
  return r >= 1 ? 0 : r;
}

/** A synchronisation group's state: plain data, owned by one character. */
export interface SyncGroup {
  /** Normalised time φ ∈ [0, 1). */
  phase: number;
  /** Whole cycles completed (negative when playing backwards): for `clipLooped` events. */
  cycles: number;
}

/** A group at phase 0. */
export function createSyncGroup(): SyncGroup {
  return { phase: 0, cycles: 0 };
}

/**
 * Advances `group` by dt seconds (see `advanceSyncedPhase`) and writes clip i's sample time φ·d_i into
 * `outTimes[i]`. Returns how many cycle boundaries were crossed (signed). No allocation.
 */
export function stepSyncGroup(
  group: SyncGroup,
  outTimes: Float64Array | Float32Array | number[],
  dt: number,
  durations: ArrayLike<number>,
  weights: ArrayLike<number>,
): number {
  const fn = "stepSyncGroup";
  if (typeof group !== "object" || group === null || typeof group.phase !== "number" || typeof group.cycles !== "number") {
    throw argumentError(fn, "group", "a SyncGroup (from createSyncGroup)", group);
  }
  expectNumberArray(fn, "durations", durations);
  expectNumberArray(fn, "weights", weights);
  expectNumberArray(fn, "outTimes", outTimes, durations.length);
  expectNumber(fn, "dt", dt);
  syncedCycleDurationAt(result, 0, durations, weights);
  const length = result[0]!;
  let crossed = 0;
  if (length > 0) {
    const next = group.phase + dt / length;
    crossed = Number.isFinite(next) ? Math.floor(next) : 0;
    group.phase = wrapPhase(next);
    group.cycles += crossed;
  }
  for (let i = 0; i < durations.length; i++) outTimes[i] = group.phase * durations[i]!;
  return crossed;
}
