// Property tests on random machines: every witness the checker gives replays (its timeline, parsed
// and played by the runtime, shows the finding); and a 50-state machine is checked in under 30 s.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { check } from "./check-fixtures.ts";
import { randomMachineDoc } from "./random-graph.ts";

function compiles(doc: object): boolean {
  try {
    check(doc, { bound: 1, maxConfigurations: 1 });
    return true;
  } catch {
    return false; // lint refused it (an instant cycle, say): the runtime would too
  }
}

test("every witness on random machines replays through the runtime", () => {
  let findings = 0;
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 2, max: 8 }), fc.boolean(), fc.integer({ min: 1, max: 2 }), (seed, states, instant, layers) => {
      const doc = randomMachineDoc(seed, states, { instant, layers });
      if (!compiles(doc)) return;
      const props = "never S1 while speed > 2\nalways eventually S0 after jump\nfrom S1 reachable S0\n";
      const r = check(doc, { clipLengthsKnown: false, timeLimit: 20, ...(layers === 1 ? { props } : {}) });
      for (const f of r.findings) {
        findings++;
        if (f.witness) assert.equal(f.witness.replay, "reproduced", `seed ${seed}, ${states} states: ${f.code} ${f.pointer}: ${f.message}`);
        else assert.equal(f.severity, "info", `${f.code} without a witness is only an info`);
      }
    }),
    { numRuns: 25 },
  );
  assert.ok(findings > 0, "random machines have findings to replay");
});

test("a 50-state random machine is checked in under 30 s", () => {
  for (const seed of [11, 12]) {
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    const r = check(randomMachineDoc(seed, 50), { clipLengthsKnown: false });
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1e6;
    console.log(`50 states (seed ${seed}): ${r.exploration.configurations} configurations, depth ${r.exploration.depth}, ${r.exploration.steps} steps, ${cpu.toFixed(2)} s CPU, ${((performance.now() - w0) / 1000).toFixed(2)} s wall, complete ${r.exploration.complete}, ${r.findings.length} findings`);
    assert.ok(cpu < 30, `${cpu.toFixed(1)} s of CPU time`);
    for (const f of r.findings) if (f.witness) assert.equal(f.witness.replay, "reproduced", `${f.code} ${f.pointer}`);
  }
});
