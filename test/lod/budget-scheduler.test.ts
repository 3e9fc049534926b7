import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createBudgetScheduler, starvationBound } from "../../src/lod/budget-scheduler.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const scenario = fc.record({
  n: fc.integer({ min: 1, max: 40 }),
  maxJoints: fc.integer({ min: 1, max: 80 }),
  budget: fc.integer({ min: 1, max: 400 }),
  overdueAge: fc.integer({ min: 1, max: 12 }),
  seed: fc.integer(),
});

/** Runs `frames` frames with distances that change every frame; returns per-frame checks' data. */
function simulate(s: { n: number; maxJoints: number; budget: number; overdueAge: number; seed: number }, frames: number) {
  let a = s.seed >>> 0;
  const rnd = (): number => {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    return a / 4294967296;
  };
  const joints = Int32Array.from({ length: s.n }, () => 1 + Math.floor(rnd() * s.maxJoints));
  joints[0] = s.maxJoints; // someone has the largest count
  const scheduler = createBudgetScheduler({ capacity: s.n, budget: s.budget, overdueAge: s.overdueAge });
  const out = new Uint8Array(s.n);
  const distances = new Float64Array(s.n);
  const last = new Int32Array(s.n).fill(-1);
  let worstGap = 0;
  let worstFirst = 0;
  for (let f = 0; f < frames; f++) {
    for (let i = 0; i < s.n; i++) distances[i] = rnd() * 100;
    const used = scheduler.schedule(out, distances, joints, f);
    let sum = 0;
    let count = 0;
    for (let i = 0; i < s.n; i++) {
      if (!out[i]) continue;
      sum += joints[i]!;
      count++;
      if (last[i]! >= 0) worstGap = Math.max(worstGap, f - last[i]!);
      else worstFirst = Math.max(worstFirst, f);
      last[i] = f;
    }
    assert.equal(used, sum);
    // Never over budget, except one character alone that exceeds it by itself.
    if (sum > s.budget) {
      assert.equal(count, 1, `frame ${f}: ${count} characters, ${sum} joints for a budget of ${s.budget}`);
      assert.ok(sum > s.budget);
    }
    assert.ok(count >= 1, "every frame updates someone");
  }
  return { worstGap, worstFirst, last, joints };
}

test("the budget is never exceeded, except by one character that alone exceeds it (property)", () => {
  fc.assert(fc.property(scenario, (s) => void simulate(s, 60)), { numRuns: 150 });
});

test("starvation bound: no character waits longer than overdueAge + ⌈N / ⌊B / J_max⌋⌉ − 1 frames (property)", () => {
  fc.assert(
    fc.property(scenario, (s) => {
      const bound = starvationBound(s.n, s.maxJoints, s.budget, s.overdueAge);
      const { worstGap, worstFirst, last } = simulate(s, 4 * bound + 40);
      assert.ok(worstGap <= bound, `gap ${worstGap} > bound ${bound} for ${JSON.stringify(s)}`);
      // The first updates, everyone starting overdue: within ⌈N / m⌉ frames.
      const m = Math.max(1, Math.floor(s.budget / s.maxJoints));
      assert.ok(worstFirst <= Math.ceil(s.n / m) - 1);
      assert.ok(last.every((f) => f >= 0));
    }),
    { numRuns: 150 },
  );
});

test("the bound is tight enough to matter: a budget of one character per frame serves N characters round-robin", () => {
  const n = 10;
  const scheduler = createBudgetScheduler({ capacity: n, budget: 30, overdueAge: 1 });
  const out = new Uint8Array(n);
  const joints = new Int32Array(n).fill(30);
  const distances = Float64Array.from({ length: n }, (_, i) => i);
  const order: number[] = [];
  for (let f = 0; f < 3 * n; f++) {
    scheduler.schedule(out, distances, joints, f);
    order.push(out.indexOf(1));
  }
  // Nearest first at the start, then strictly oldest first: a fixed rotation of period N.
  assert.deepEqual(order.slice(0, n), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(order.slice(n, 2 * n), order.slice(0, n));
  assert.equal(starvationBound(n, 30, 30, 1), n);
});

test("nearest first: with no one overdue the budget goes to the nearest characters", () => {
  const n = 20;
  const scheduler = createBudgetScheduler({ capacity: n, budget: 5 * 10, overdueAge: 1000 });
  const out = new Uint8Array(n);
  const joints = new Int32Array(n).fill(10);
  const distances = Float64Array.from({ length: n }, (_, i) => (i * 7919) % 23);
  // Let everyone get a first update (never-updated characters count as overdue).
  for (let f = 0; f < 4; f++) scheduler.schedule(out, distances, joints, f);
  for (let f = 4; f < 30; f++) {
    scheduler.schedule(out, distances, joints, f);
    const chosen = [...out.keys()].filter((i) => out[i]).map((i) => distances[i]!).sort((a, b) => a - b);
    const nearest = [...distances].sort((a, b) => a - b).slice(0, 5);
    assert.deepEqual(chosen, nearest);
  }
});

test("first fit fills the budget with smaller characters after a large one does not fit", () => {
  const scheduler = createBudgetScheduler({ capacity: 3, budget: 50, overdueAge: 100 });
  const out = new Uint8Array(3);
  scheduler.schedule(out, [1, 2, 3], [40, 30, 10], 0); // all overdue (never updated): 40 fits, 30 does not → stop
  assert.deepEqual([...out], [1, 0, 0]);
  scheduler.schedule(out, [1, 2, 3], [40, 30, 10], 1); // the other two are still overdue: 30 + 10
  assert.deepEqual([...out], [0, 1, 1]);
  scheduler.schedule(out, [1, 2, 3], [40, 30, 10], 2); // nobody overdue: nearest (40), then 10 fits, 30 does not
  assert.deepEqual([...out], [1, 0, 1]);
});

test("a character larger than the whole budget is updated alone (the documented overrun)", () => {
  const scheduler = createBudgetScheduler({ capacity: 2, budget: 10, overdueAge: 2 });
  const out = new Uint8Array(2);
  const used = scheduler.schedule(out, [5, 1], [100, 5], 0);
  assert.equal(used, 5); // both never updated (overdue): the nearer one (index 1) fits, then 100 does not
  assert.deepEqual([...out], [0, 1]);
  const used2 = scheduler.schedule(out, [5, 1], [100, 5], 1);
  assert.equal(used2, 100);
  assert.deepEqual([...out], [1, 0]);
});

test("bad options throw; reset and resetCharacter make characters overdue again", () => {
  assert.throws(() => createBudgetScheduler({ capacity: -1, budget: 10 }));
  assert.throws(() => createBudgetScheduler({ capacity: 1, budget: 0 }));
  assert.throws(() => createBudgetScheduler({ capacity: 1, budget: 1, overdueAge: 0 }));
  const s = createBudgetScheduler({ capacity: 2, budget: 10, overdueAge: 50 });
  const out = new Uint8Array(2);
  assert.throws(() => s.schedule(out, [1, 2, 3], [1, 1, 1], 0));
  s.schedule(out, [1, 2], [10, 10], 0);
  s.schedule(out, [1, 2], [10, 10], 1);
  s.resetCharacter(0);
  s.schedule(out, [1, 0.5], [10, 10], 2);
  assert.deepEqual([...out], [1, 0], "a reset slot is overdue and beats a nearer character");
  s.reset();
  assert.ok(s.lastUpdate.every((v) => v === -0x80000000));
});

test("schedule allocates nothing: 10,000 characters for 200 frames leave the heap flat", () => {
  const n = 10_000;
  const s = createBudgetScheduler({ capacity: n, budget: 20_000, overdueAge: 8 });
  const out = new Uint8Array(n);
  const joints = Int32Array.from({ length: n }, (_, i) => 20 + (i % 50));
  const distances = new Float64Array(n);
  const frame = (f: number): void => {
    for (let i = 0; i < n; i++) distances[i] = ((i * 2654435761 + f * 40503) % 100000) / 100;
    s.schedule(out, distances, joints, f);
  };
  for (let f = 0; f < 50; f++) frame(f);
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let f = 50; f < 250; f++) frame(f);
  gc();
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  assert.ok(grown < 256 * 1024, `heap grew by ${grown} bytes`);
});
