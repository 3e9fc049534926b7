import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { advanceSyncedPhase, createSyncGroup, phaseToTime, stepSyncGroup, syncedCycleDuration, wrapPhase } from "../../src/sync/sync-group.ts";

test("the blended cycle is the weight-averaged length; phase advances by dt / L", () => {
  const durations = [0.7083, 1.1583];
  assert.equal(syncedCycleDuration(durations, [1, 0]), 0.7083);
  assert.ok(Math.abs(syncedCycleDuration(durations, [1, 1]) - 0.9333) < 1e-12);
  assert.ok(Math.abs(advanceSyncedPhase(0, 0.9333 / 4, durations, [1, 1]) - 0.25) < 1e-12);
  assert.equal(advanceSyncedPhase(0.4, 1, durations, [0, 0]), 0.4);
  assert.equal(phaseToTime(0.5, 1.1583), 0.57915);
  assert.equal(wrapPhase(-0.25), 0.75);
});

test("stepSyncGroup counts cycles and gives each clip its time at the shared phase", () => {
  const g = createSyncGroup();
  const times = new Float64Array(2);
  let crossed = 0;
  for (let f = 0; f < 120; f++) crossed += stepSyncGroup(g, times, 1 / 60, [1, 2], [1, 1]);
  // 2 s at a 1.5 s blended cycle: 1 cycle and a third.
  assert.equal(crossed, 1);
  assert.equal(g.cycles, 1);
  assert.ok(Math.abs(g.phase - 1 / 3) < 1e-9);
  assert.ok(Math.abs(times[0]! - 1 / 3) < 1e-9 && Math.abs(times[1]! - 2 / 3) < 1e-9);
});

test("property: phase stays in [0, 1); all clips wrap together", () => {
  fc.assert(
    fc.property(fc.double({ min: 0, max: 0.999, noNaN: true }), fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: 0.01, max: 1, noNaN: true }), (phase, dt, w) => {
      const p = advanceSyncedPhase(phase, dt, [0.7, 1.2], [w, 1 - w]);
      assert.ok(p >= 0 && p < 1);
    }),
  );
});
