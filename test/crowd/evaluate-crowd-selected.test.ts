// evaluateCrowdSelected (the update-rate LOD's evaluation): a chosen subset of characters, each with its
// own time step, must be exactly what stepping those characters alone gives, and leave the others alone.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { createCrowd, evaluateCrowdSelected } from "../../src/crowd/index.ts";
import { loadCrowdKernelSync } from "../../src/crowd/wasm/kernel.ts";
import { setParam } from "../../src/graph/commands.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { localToModel } from "../../src/pose/local-to-model.ts";
import { robotGraph } from "./robot-graph.ts";

const graph = await robotGraph();
const J = graph.skeleton.jointCount;
const N = 7;

/** Frames of (which characters update, with which dt): each frame a subset and per-character dts. */
const frames = fc.array(
  fc.record({ mask: fc.array(fc.boolean(), { minLength: N, maxLength: N }), dt: fc.array(fc.integer({ min: 1, max: 8 }), { minLength: N, maxLength: N }) }),
  { minLength: 1, maxLength: 25 },
);

test("a selected subset with per-character dts equals stepping those characters alone; the rest keep their matrices (bit for bit)", () => {
  fc.assert(fc.property(frames, (script) => {
    const crowd = createCrowd(graph, N);
    const refs = Array.from({ length: N }, () => createInstance(graph));
    const refModel = new Float32Array(16 * J * N);
    const selected = new Int32Array(N);
    const dts = new Float64Array(N);
    for (let i = 0; i < N; i++) {
      setParam(crowd.instances[i]!, "speed", i * 0.4);
      setParam(refs[i]!, "speed", i * 0.4);
    }
    for (const f of script) {
      let n = 0;
      // Reverse order on purpose: indices need not be sorted.
      for (let i = N - 1; i >= 0; i--) {
        dts[i] = f.dt[i]! / 60;
        if (!f.mask[i]) continue;
        selected[n++] = i;
        const res = step(graph, refs[i]!, dts[i]!);
        localToModel(refModel.subarray(16 * J * i, 16 * J * (i + 1)), graph.skeleton, res.pose);
      }
      const before = crowd.model.slice();
      evaluateCrowdSelected(crowd, selected, n, dts);
      for (let i = 0; i < N; i++) {
        const got = crowd.model.subarray(16 * J * i, 16 * J * (i + 1));
        const want = f.mask[i] ? refModel.subarray(16 * J * i, 16 * J * (i + 1)) : before.subarray(16 * J * i, 16 * J * (i + 1));
        for (let x = 0; x < got.length; x++) if (!Object.is(got[x], want[x])) return false;
      }
    }
    return true;
  }), { numRuns: 40 });
});

test("the kernel path agrees with the JS path on a selected subset (float32 rounding) and touches only the selected characters", () => {
  const kernel = loadCrowdKernelSync();
  const js = createCrowd(graph, N), wasm = createCrowd(graph, N, { kernel });
  const selected = Int32Array.from([5, 1, 3]);
  const dts = Float32Array.from({ length: N }, (_, i) => (i + 1) / 60);
  for (let i = 0; i < N; i++) {
    setParam(js.instances[i]!, "speed", i * 0.5);
    setParam(wasm.instances[i]!, "speed", i * 0.5);
  }
  for (let k = 0; k < 60; k++) {
    const before = wasm.model.slice();
    evaluateCrowdSelected(js, selected, 3, dts);
    evaluateCrowdSelected(wasm, selected, 3, dts);
    let worst = 0;
    for (let x = 0; x < js.model.length; x++) worst = Math.max(worst, Math.abs(js.model[x]! - wasm.model[x]!));
    assert.ok(worst <= 1e-5, `frame ${k}: largest difference ${worst}`);
    for (const i of [0, 2, 4, 6]) {
      for (let x = 16 * J * i; x < 16 * J * (i + 1); x++) assert.ok(Object.is(before[x], wasm.model[x]), `character ${i} changed`);
    }
  }
});

test("bad arguments are programmer errors that name the problem", () => {
  const crowd = createCrowd(graph, 3);
  assert.throws(() => evaluateCrowdSelected(crowd, new Int32Array(2), 3, new Float64Array(3)), { name: "AnimgraphError", code: "ERR_OUT_OF_RANGE", message: /^evaluateCrowdSelected: selectedCount must be an integer in \[0, 2\]; got the number 3$/ });
  assert.throws(() => evaluateCrowdSelected(crowd, new Int32Array(2), 1, new Float64Array(2)), { name: "AnimgraphError", code: "ERR_OUT_OF_RANGE", message: /^evaluateCrowdSelected: dts must be a Float32Array or Float64Array of at least 3 steps \(one per character\); got a Float64Array of length 2$/ });
});
