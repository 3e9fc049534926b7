import assert from "node:assert/strict";
import { platform } from "node:os";
import { test } from "node:test";
import { schedDelta, schedSnapshot, type SchedSnapshot } from "../../bench/measure.ts";
import { idleRounds } from "../../bench/workers.ts";

test("schedDelta: our wait per frame, and the machine's busy time minus ours as other processes' time (never negative)", () => {
  const a: SchedSnapshot = { ownRunMs: 100, ownWaitMs: 10, machineBusyMs: 1000 };
  const b: SchedSnapshot = { ownRunMs: 180, ownWaitMs: 50, machineBusyMs: 1200 };
  assert.deepEqual(schedDelta(a, b, 4), { waitMs: 10, othersMs: 30 });
  // /proc/stat counts 10 ms ticks, our threads ns: a tick short of our own run time reads as 0, not < 0.
  assert.deepEqual(schedDelta(a, { ...b, machineBusyMs: 1070 }, 2), { waitMs: 20, othersMs: 0 });
  assert.equal(schedDelta(null, b, 1), null);
  assert.equal(schedDelta(a, null, 1), null);
});

test("idleRounds: a round is idle only when every batch in it waited at most 5 % of its time", () => {
  const d = (waitMs: number) => ({ waitMs, othersMs: 0 });
  const walls = [[20, 20, 20, 20], [10, 10, 10, 10]];
  const scheds = [[d(0), d(1), d(0.5), d(0)], [d(0.1), d(0), d(0.6), d(0.5)]];
  // Round 1: the first batch waited 1 ms of 20 (5 %: still idle); round 2: the second 0.6 of 10.
  assert.deepEqual(idleRounds(walls, scheds), [0, 1, 3]);
  assert.equal(idleRounds(walls, [scheds[0]!, [d(0), null, d(0), d(0)]]), null);
});

test("schedSnapshot reads this thread's time on a core (Linux), and it grows by the CPU time spent", { skip: platform() !== "linux" && "Linux only (/proc)" }, () => {
  const s0 = schedSnapshot();
  assert.ok(s0, "schedstat is readable");
  const c0 = process.cpuUsage();
  let x = 0;
  while ((process.cpuUsage(c0).user + process.cpuUsage(c0).system) < 30_000) x += Math.sqrt(x + 1);
  const s1 = schedSnapshot()!;
  const cpuMs = (process.cpuUsage(c0).user + process.cpuUsage(c0).system) / 1000;
  const ran = s1.ownRunMs - s0.ownRunMs;
  assert.ok(ran >= 0.8 * 30 && ran <= cpuMs + 20, `ran ${ran} ms for ${cpuMs} ms of CPU`);
  assert.ok(s1.ownWaitMs >= s0.ownWaitMs && s1.machineBusyMs >= s0.machineBusyMs);
  assert.ok(x > 0);
});
