import assert from "node:assert/strict";
import { test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createCrowd, evaluateCrowd, type Crowd } from "../../src/crowd/index.ts";
import { setParam, trigger } from "../../src/graph/commands.ts";
import type { CompiledGraph } from "../../src/graph/compiled-graph.ts";
import { createInstance, type GraphInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { localToModel } from "../../src/pose/local-to-model.ts";
import { robotGraph } from "./robot-graph.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const graph = await robotGraph();
const J = graph.skeleton.jointCount;

/** A script exercising blends, transitions, interruptions, triggers and the additive layer, per character. */
function drive(inst: GraphInstance, i: number, k: number): void {
  setParam(inst, "speed", ((k + 37 * i) % 240) / 40);
  if ((k + i) % 97 === 0) trigger(inst, "jump");
  if ((k + 3 * i) % 131 === 0) trigger(inst, "punch");
  if ((k + i) % 50 === 0) setParam(inst, "emote", ((k + i) / 50) % 4);
}

function dtOf(k: number): number {
  return k % 150 === 149 ? 0.35 : 1 / 60;
}

function assertSame(a: Float32Array, b: Float32Array, what: string): void {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let x = 0; x < a.length; x++) {
    if (!Object.is(a[x], b[x])) assert.fail(`${what}: element ${x} differs: ${a[x]} vs ${b[x]}`);
  }
}

test("evaluateCrowd equals per-instance step + localToModel, bit for bit (poses and model matrices)", () => {
  const n = 6;
  const crowd = createCrowd(graph, n);
  const refs = Array.from({ length: n }, () => createInstance(graph));
  const refModel = new Float32Array(16 * J);
  for (let k = 0; k < 400; k++) {
    for (let i = 0; i < n; i++) {
      drive(crowd.instances[i]!, i, k);
      drive(refs[i]!, i, k);
    }
    evaluateCrowd(crowd, dtOf(k));
    for (let i = 0; i < n; i++) {
      const res = step(graph, refs[i]!, dtOf(k));
      if (k % 20 !== 0) continue;
      const pose = crowd.poses[i]!;
      assertSame(pose.t, res.pose.t, `frame ${k} char ${i} t`);
      assertSame(pose.r, res.pose.r, `frame ${k} char ${i} r`);
      assertSame(pose.s, res.pose.s, `frame ${k} char ${i} s`);
      localToModel(refModel, graph.skeleton, res.pose);
      assertSame(crowd.model.subarray(16 * J * i, 16 * J * (i + 1)), refModel, `frame ${k} char ${i} model`);
      assert.deepEqual([...crowd.instances[i]!.result.rootDelta], [...res.rootDelta]);
      assert.equal(crowd.instances[i]!.result.events.count, res.events.count);
    }
  }
});

test("the crowd's poses are views into one contiguous buffer", () => {
  const crowd = createCrowd(graph, 3);
  assert.equal(crowd.poseBuffer.length, 3 * 10 * J);
  assert.equal(crowd.model.length, 3 * 16 * J);
  for (let i = 0; i < 3; i++) {
    const p = crowd.poses[i]!;
    assert.equal(p.t.buffer, crowd.poseBuffer.buffer);
    assert.equal(p.t.byteOffset, 4 * 10 * J * i);
    assert.equal(p.r.byteOffset, 4 * (10 * J * i + 3 * J));
    assert.equal(p.s.byteOffset, 4 * (10 * J * i + 7 * J));
    assert.equal(crowd.instances[i]!.result.pose, p);
  }
});

function runBoth(share: boolean, frames: number): Crowd {
  const crowd = createCrowd(graph, 8, { share });
  for (let k = 0; k < frames; k++) {
    // Characters in pairs drive identically, so pairs sample the same clips at the same times.
    for (let i = 0; i < 8; i++) drive(crowd.instances[i]!, i >> 1, k);
    evaluateCrowd(crowd, dtOf(k));
  }
  return crowd;
}

test("shared sampling gives the same poses as unshared sampling, and is actually shared", () => {
  const shared = runBoth(true, 300);
  const unshared = runBoth(false, 300);
  assertSame(shared.poseBuffer, unshared.poseBuffer, "poses");
  assertSame(shared.model, unshared.model, "model");
  assert.ok(shared.cache.hits > 300, `cache hits: ${shared.cache.hits}`);
  assert.equal(unshared.cache.hits, 0);
});

function steadyGraphCrowd(g: CompiledGraph): Crowd {
  const crowd = createCrowd(g, 40);
  for (let i = 0; i < 40; i++) setParam(crowd.instances[i]!, "speed", (i % 7) * 0.8);
  return crowd;
}

test("evaluateCrowd retains nothing: the heap stays flat over many frames", () => {
  const crowd = steadyGraphCrowd(graph);
  let k = 0;
  const frame = (): void => {
    for (let i = 0; i < crowd.count; i++) drive(crowd.instances[i]!, i, k);
    evaluateCrowd(crowd, dtOf(k++));
  };
  for (let f = 0; f < 600; f++) frame();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let f = 0; f < 2000; f++) frame(); // 80,000 character steps
  gc();
  const growth = process.memoryUsage().heapUsed - before;
  // Retaining even 2 bytes per character step would be 160 kB; what remains is GC noise (cf. test/graph/heap.test.ts).
  assert.ok(growth < 96 * 1024, `heap grew by ${growth} bytes over 2,000 frames`);
});

test("per-character state: contiguous pose bytes, frozen poses only once a transition freezes, retained heap per character", async () => {
  const g = await robotGraph({ eventCapacity: 16, maxStackDepth: 4 });
  gc();
  const h0 = process.memoryUsage().heapUsed;
  const crowd = createCrowd(g, 300);
  evaluateCrowd(crowd, 1 / 60);
  gc();
  const heapPerChar = (process.memoryUsage().heapUsed - h0) / 300;
  const bufferPerChar = (crowd.poseBuffer.byteLength + crowd.model.byteLength) / 300;
  // Typed-array storage: local pose 10·J floats and model matrices 16·J; frozen poses are made on demand.
  assert.equal(bufferPerChar, 4 * (10 * J + 16 * J));
  // Objects (instances, machine state, cursors hints are shared): measured ≈ 12 KiB; guard against regressions.
  assert.ok(heapPerChar < 16 * 1024, `retained heap per character: ${heapPerChar} bytes`);
  process.stdout.write(`# robot graph: ${Math.round(heapPerChar)} B heap + ${4 * 10 * J} B pose per character (+ ${64 * J} B model matrices)\n`);
});

test("quantised sharing: out-of-phase characters share samples, poses within the q/2 time error", () => {
  const q = 1 / 60;
  const n = 96;
  const exact = createCrowd(graph, n, { share: false });
  const quant = createCrowd(graph, n, { timeQuantum: q });
  for (const c of [exact, quant]) {
    for (let i = 0; i < n; i++) {
      setParam(c.instances[i]!, "speed", 4);
      step(graph, c.instances[i]!, 0.0371 * i); // out of phase: 96 start times over 3.5 s
    }
  }
  let maxDiff = 0;
  for (let k = 0; k < 60; k++) {
    evaluateCrowd(exact, 1 / 60);
    evaluateCrowd(quant, 1 / 60);
    for (let i = 0; i < n; i++) {
      const a = exact.poses[i]!.r, b = quant.poses[i]!.r;
      for (let j = 0; j < J; j++) {
        const d = Math.abs(a[4 * j]! * b[4 * j]! + a[4 * j + 1]! * b[4 * j + 1]! + a[4 * j + 2]! * b[4 * j + 2]! + a[4 * j + 3]! * b[4 * j + 3]!);
        maxDiff = Math.max(maxDiff, (2 * Math.acos(Math.min(1, d)) * 180) / Math.PI);
      }
    }
  }
  // Sharing happened across phases (stores are the distinct grid samples actually evaluated)...
  assert.ok(quant.cache.hits > quant.cache.stores, `hits ${quant.cache.hits}, stores ${quant.cache.stores}`);
  // ...and the poses are those of a time at most q/2 = 8.3 ms away: joint rotations differ by a few
  // degrees at most (the robot's fastest joints turn ~1,000°/s while running), never bit-identical.
  assert.ok(maxDiff > 0 && maxDiff < 12, `max joint rotation difference ${maxDiff}°`);
  process.stdout.write(`# quantised sharing (q = 1/60 s): max joint rotation difference ${maxDiff.toFixed(2)}°\n`);
});

test("deterministic graphs (fastSlerp) also match step bit for bit", async () => {
  const g = await robotGraph({ deterministic: true });
  const crowd = createCrowd(g, 3);
  const refs = [createInstance(g), createInstance(g), createInstance(g)];
  for (let k = 0; k < 200; k++) {
    for (let i = 0; i < 3; i++) {
      drive(crowd.instances[i]!, i, k);
      drive(refs[i]!, i, k);
    }
    evaluateCrowd(crowd, dtOf(k));
    for (let i = 0; i < 3; i++) {
      const res = step(g, refs[i]!, dtOf(k));
      assertSame(crowd.poses[i]!.r, res.pose.r, `frame ${k} char ${i} r`);
      assertSame(crowd.poses[i]!.t, res.pose.t, `frame ${k} char ${i} t`);
    }
  }
});
