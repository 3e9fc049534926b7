// The crowd's WebAssembly SIMD kernel against the JS path it must agree with "within float tolerance":
// whole graphs on the real example characters, each kernel operation on random poses, clip packing,
// worker threads, and the committed binary against a fresh compile of assembly/crowd-kernel.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { crossfade } from "../../src/blend/crossfade.ts";
import { applyLayer } from "../../src/blend/apply-layer.ts";
import { createClip } from "../../src/clip/clip.ts";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { createCrowd, evaluateCrowd, type Crowd } from "../../src/crowd/index.ts";
import { createCrowdWorkers } from "../../src/crowd/crowd-workers.ts";
import { CROWD_KERNEL_WASM_BASE64 } from "../../src/crowd/wasm/kernel-binary.ts";
import { crowdKernelSupported, loadCrowdKernel, loadCrowdKernelSync } from "../../src/crowd/wasm/kernel.ts";
import { HEADER_SCALES_UNIT, SCALES_MOVE, SCALES_UNIT, TRANSLATIONS_MOVE, packClip, packedClipBytes, packedTimeline, seriesDegree } from "../../src/crowd/wasm/pack-clip.ts";
import { vectorBytes } from "../../src/crowd/wasm/kernel-poses.ts";
import { readSlot, slotBytes, writeSlot } from "../../src/crowd/wasm/slot-layout.ts";
import { OP, createWasmCrowd, type WasmCrowd } from "../../src/crowd/wasm/wasm-crowd.ts";
import { setParam, trigger } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { parseGraphSpec } from "../../src/spec/index.ts";
import type { CompiledGraph } from "../../src/graph/compiled-graph.ts";
import { step } from "../../src/graph/step.ts";
import { quatNormalize } from "../../src/math/quat.ts";
import { createPose, type Pose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";
import { robotGraph } from "./robot-graph.ts";
import { foxGraph } from "./fox-graph.ts";

const kernel = loadCrowdKernelSync();

/** Largest |a − b| over two float arrays. */
function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    if (!(d <= m)) m = Number.isNaN(d) ? Infinity : d;
  }
  return m;
}

/** Runs the same script on a JS crowd and a kernel crowd; returns the largest differences seen. */
function compareCrowds(graph: CompiledGraph, n: number, frames: number, drive: (c: Crowd, i: number, k: number) => void): { r: number; t: number; s: number; model: number; root: number } {
  const js = createCrowd(graph, n);
  const wasm = createCrowd(graph, n, { kernel });
  const worst = { r: 0, t: 0, s: 0, model: 0, root: 0 };
  for (let k = 0; k < frames; k++) {
    for (let i = 0; i < n; i++) {
      drive(js, i, k);
      drive(wasm, i, k);
    }
    const dt = k % 150 === 149 ? 0.35 : 1 / 60;
    evaluateCrowd(js, dt);
    evaluateCrowd(wasm, dt);
    for (let i = 0; i < n; i++) {
      const a = js.poses[i]!, b = wasm.poses[i]!;
      worst.r = Math.max(worst.r, maxDiff(a.r, b.r));
      worst.t = Math.max(worst.t, maxDiff(a.t, b.t));
      worst.s = Math.max(worst.s, maxDiff(a.s, b.s));
      worst.root = Math.max(worst.root, maxDiff(js.instances[i]!.result.rootDelta, wasm.instances[i]!.result.rootDelta));
      assert.equal(wasm.instances[i]!.result.events.count, js.instances[i]!.result.events.count);
    }
    worst.model = Math.max(worst.model, maxDiff(js.model, wasm.model));
  }
  return worst;
}

test("the kernel is available here (WebAssembly SIMD) and loads synchronously and asynchronously", async () => {
  assert.equal(crowdKernelSupported(), true);
  const again = await loadCrowdKernel();
  assert.equal(again.module, kernel.module);
  assert.ok(kernel.heapBase > 0 && kernel.heapBase % 4 === 0, `heap base ${kernel.heapBase}`);
});

test("robot example: a kernel crowd matches the JS crowd within float32 rounding through transitions, interruptions, the masked additive layer and frame spikes", async () => {
  const graph = await robotGraph();
  const drive = (c: Crowd, i: number, k: number): void => {
    const inst = c.instances[i]!;
    setParam(inst, "speed", ((k + 37 * i) % 240) / 40);
    if ((k + i) % 97 === 0) trigger(inst, "jump");
    if ((k + 3 * i) % 131 === 0) trigger(inst, "punch");
    if ((k + i) % 50 === 0) setParam(inst, "emote", ((k + i) / 50) % 4);
  };
  const worst = compareCrowds(graph, 6, 500, drive);
  console.log(`robot: max |Δ| rotation ${worst.r.toExponential(2)}, translation ${worst.t.toExponential(2)}, scale ${worst.s.toExponential(2)}, model ${worst.model.toExponential(2)}`);
  assert.ok(worst.r <= 2e-6, `rotation ${worst.r}`);
  assert.ok(worst.t <= 1e-5, `translation ${worst.t}`);
  assert.ok(worst.s <= 2e-6, `scale ${worst.s}`);
  assert.ok(worst.model <= 1e-5, `model ${worst.model}`);
  assert.equal(worst.root, 0, "root motion comes from the JS graph logic in both paths");
});

test("fox example: synchronised gait blend with root motion removed by the kernel's STRIP command", async () => {
  const graph = await foxGraph();
  const drive = (c: Crowd, i: number, k: number): void => setParam(c.instances[i]!, "speed", ((k * 3 + 50 * i) % 400) / 100);
  const worst = compareCrowds(graph, 4, 400, drive);
  console.log(`fox: max |Δ| rotation ${worst.r.toExponential(2)}, translation ${worst.t.toExponential(2)}, model ${worst.model.toExponential(2)}`);
  assert.ok(worst.r <= 2e-6, `rotation ${worst.r}`);
  // Fox is modelled in centimetres (translations up to ~100 units): float32 resolution there is ~1e-5.
  assert.ok(worst.t <= 1e-4, `translation ${worst.t}`);
  assert.ok(worst.model <= 1e-3, `model ${worst.model}`);
});

test("the kernel plays every clip of both examples itself (root motion stripped by its STRIP command); none falls back to JS sampling", async () => {
  for (const graph of [await robotGraph(), await foxGraph()]) {
    const c = createCrowd(graph, 1, { kernel });
    const used = new Set<string>();
    for (const m of graph.machines) for (const st of m.states) {
      const mo = st.motion;
      for (const src of mo.kind === "clip" ? [mo.source] : mo.kind === "machine" ? [] : mo.sources) used.add(src.name);
    }
    const packed = [...c.wasm!.packed.keys()].map((s) => s.name).sort();
    console.log(`${graph.name}: packed ${packed.join(", ")}; root-motion strips ${c.wasm!.strips.size}`);
    assert.deepEqual(packed, [...used].sort());
    assert.ok(c.wasm!.strips.size > 0, "the examples run with root motion on");
  }
});

test("clips the kernel cannot pack (STEP keys) are sampled by JS into staging and loaded; results still match", async () => {
  const base = await robotGraph();
  const skeleton = base.skeleton;
  const walking = base.machines[0]!.states.flatMap((st) => (st.motion.kind === "clip" ? [st.motion.source] : st.motion.kind === "machine" ? [] : st.motion.sources))
    .find((c) => c.name === "Walking") as ReturnType<typeof createClip>;
  const stepped = createClip({ name: "WalkingStep", skeleton, tracks: walking.tracks.map((t) => ({ ...t, interpolation: "STEP" as const })) });
  const spec = {
    animgraph: 1, name: "staging",
    parameters: { blend: { type: "float", default: 0.4 } },
    layers: [{ name: "base", machine: { entry: "Move", states: { Move: { blend1d: { param: "blend", children: [{ at: 0, clip: "WalkingStep" }, { at: 1, clip: "Walking" }] } } }, transitions: [] } }],
  };
  const parsed = parseGraphSpec(parseJsonText(JSON.stringify(spec), "staging.animgraph.json"));
  assert.ok(parsed.spec, JSON.stringify(parsed.diagnostics));
  const compiled = compileGraph(parsed.spec, skeleton, [stepped, walking]);
  assert.ok(compiled.graph, JSON.stringify(compiled.diagnostics));
  const crowd = createCrowd(compiled.graph, 1, { kernel });
  assert.deepEqual([...crowd.wasm!.packed.keys()].map((c) => c.name), ["Walking"]);
  const worst = compareCrowds(compiled.graph, 3, 90, (c, i, k) => setParam(c.instances[i]!, "blend", ((k + 30 * i) % 90) / 90));
  assert.ok(worst.r <= 2e-6 && worst.t <= 1e-5 && worst.model <= 1e-5, JSON.stringify(worst));
});

// --- clip packing ----------------------------------------------------------------------------------

const unitQuat = fc
  .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 1e-2)
  .map(([x, y, z, w]) => Array.from(quatNormalize(new Float64Array(4), 0, [x, y, z, w], 0)));

/** A small random clip: per joint a rotation and a translation track with their own key times. */
const randomClip = fc.record({
  jointCount: fc.integer({ min: 1, max: 9 }),
  keys: fc.array(fc.tuple(fc.integer({ min: 1, max: 6 }), fc.array(unitQuat, { minLength: 6, maxLength: 6 })), { minLength: 9, maxLength: 9 }),
  small: fc.boolean(),
  offset: fc.double({ min: 0, max: 0.5, noNaN: true }),
});

function buildClip(spec: { jointCount: number; keys: [number, number[][]][]; small: boolean; offset: number }): ReturnType<typeof createClip> {
  const J = spec.jointCount;
  const skeleton = createSkeleton({ names: Array.from({ length: J }, (_, j) => `j${j}`), parents: Array.from({ length: J }, (_, j) => j - 1) });
  const tracks = [];
  for (let j = 0; j < J; j++) {
    const [n, quats] = spec.keys[j]!;
    // Three misaligned timelines (as exporters that key joints separately write), starting after `offset`.
    const times = Float32Array.from({ length: n }, (_, k) => spec.offset + (k + 1) * (0.1 + 0.037 * (j % 3)));
    const r = new Float32Array(4 * n);
    for (let k = 0; k < n; k++) {
      const q = spec.small ? [0.02 * quats[k]![0]!, 0.02 * quats[k]![1]!, 0.02 * quats[k]![2]!, 1] : quats[k]!;
      quatNormalize(r, 4 * k, q, 0);
    }
    tracks.push({ joint: j, path: "rotation" as const, interpolation: "LINEAR" as const, stride: 4 as const, times, values: r });
    const t = new Float32Array(3 * n).map((_, c) => Math.sin(c * 1.7 + j));
    tracks.push({ joint: j, path: "translation" as const, interpolation: "LINEAR" as const, stride: 3 as const, times, values: t });
  }
  return createClip({ name: "random", skeleton, tracks });
}

type Harness = ReturnType<typeof makeHarness>;
const harnesses = new Map<number, Harness>();
/** A kernel instance per joint count (memory is only made once), driven by hand-written commands. */
function harness(jointCount: number): Harness {
  let h = harnesses.get(jointCount);
  if (!h) harnesses.set(jointCount, (h = makeHarness(jointCount, 64 * 1024)));
  return h;
}

function makeHarness(jointCount: number, clipBytes: number): { w: WasmCrowd; clipAt: number; slot: (k: number) => number; run: (cmds: number[][]) => void } {
  const skeleton = createSkeleton({ names: Array.from({ length: jointCount }, (_, j) => `j${j}`), parents: Array.from({ length: jointCount }, (_, j) => j - 1) });
  const graph = { skeleton, machines: [], layers: [], rootExtractors: new Map(), options: { quatMode: "slerp" } } as unknown as CompiledGraph;
  // Characters stand in for scratch space: enough for the clip and 4 slots.
  const perChar = 40 * jointCount + 64 * jointCount;
  const chars = Math.ceil((clipBytes + 4 * slotBytes(jointCount) + 64) / perChar) + 1;
  const { wasm } = createWasmCrowd(kernel, graph, chars, undefined);
  const base = (wasm.poseAt + 15) & ~15;
  const clipAt = base + 4 * slotBytes(jointCount);
  return {
    w: wasm, clipAt, slot: (k) => base + k * slotBytes(jointCount),
    run: (cmds) => {
      const o = wasm.commandsAt >> 2;
      cmds.forEach((c, k) => {
        for (let x = 0; x < 6; x++) wasm.i32[o + 8 * k + x] = c[x] ?? 0;
        wasm.f64[((o + 8 * k) >> 1) + 3] = c[6] ?? 0;
      });
      wasm.i32[o + 8 * cmds.length] = OP.end;
      wasm.exports.run(wasm.commandsAt);
    },
  };
}

test("packed clips: misaligned LINEAR tracks merged onto one timeline sample like sampleClip (property, large and small key steps)", () => {
  fc.assert(
    fc.property(randomClip, fc.array(fc.double({ min: -0.2, max: 2, noNaN: true }), { minLength: 5, maxLength: 5 }), (spec, times) => {
      const clip = buildClip(spec);
      const timeline = packedTimeline(clip);
      assert.ok(timeline);
      const J = spec.jointCount;
      const h = harness(J);
      assert.ok(packedClipBytes(timeline.length, J) <= 64 * 1024);
      packClip(h.w.f32, h.w.i32, h.clipAt, clip, timeline);
      const degree = h.w.i32[(h.clipAt >> 2) + 3]!;
      if (spec.small) assert.ok(degree > 0, "small key steps take the series path");
      const ref = createPose(J), got = createPose(J);
      const cursor = createClipCursor(clip);
      for (const t of [...times, timeline[0]!, timeline[timeline.length - 1]!, timeline[Math.floor(timeline.length / 2)]!]) {
        h.run([[OP.sample, h.slot(0), h.clipAt, 1, 0, 0, t]]);
        readSlot(got, h.w.f32, h.slot(0) >> 2);
        sampleClip(ref, clip, t, cursor, "slerp");
        assert.ok(maxDiff(got.r, ref.r) <= 1e-6, `rotation at ${t}: ${maxDiff(got.r, ref.r)} (degree ${degree})`);
        assert.ok(maxDiff(got.t, ref.t) <= 2e-6, `translation at ${t}: ${maxDiff(got.t, ref.t)}`);
        assert.equal(maxDiff(got.s, ref.s), 0);
      }
    }),
  );
});

test("packing refuses what it cannot reproduce exactly: STEP and CUBICSPLINE tracks", () => {
  const clip = buildClip({ jointCount: 2, keys: Array.from({ length: 9 }, () => [3, Array.from({ length: 6 }, () => [0, 0, 0, 1])]) as [number, number[][]][], small: false, offset: 0 });
  assert.ok(packedTimeline(clip));
  for (const interpolation of ["STEP", "CUBICSPLINE"] as const) {
    const t0 = clip.tracks[0]!;
    const values = interpolation === "CUBICSPLINE" ? new Float32Array(3 * t0.values.length) : t0.values;
    const other = createClip({ name: "x", skeleton: clip.skeleton, tracks: [{ ...t0, interpolation, values }, ...clip.tracks.slice(1)] });
    assert.equal(packedTimeline(other), null, interpolation);
  }
});

test("seriesDegree: fewest terms whose truncation bound is under float32 resolution, 0 past the series' useful range", () => {
  assert.equal(seriesDegree(0), 1);
  assert.ok(seriesDegree(1e-4) <= 2);
  for (const y of [1e-6, 1e-3, 0.01, 0.05, 0.1]) {
    const n = seriesDegree(y);
    assert.ok(n > 0, `y ${y}`);
    assert.ok((y / 2) ** (n + 1) / (1 - y / 2) <= 2 ** -26, `y ${y} n ${n}`);
  }
  assert.equal(seriesDegree(1), 0);
});

test("the kernel picks series terms per group of four joints with seriesDegree's bound: each limit needs no more terms, just past it needs more", () => {
  const h = harness(4);
  for (let n = 1; n <= 6; n++) {
    const limit = h.w.exports.seriesLimit(n);
    assert.ok(seriesDegree(limit) > 0 && seriesDegree(limit) <= n, `limit ${n}: ${limit} needs ${seriesDegree(limit)} terms`);
    const beyond = seriesDegree(limit * 1.001);
    assert.ok(beyond === 0 || beyond > n, `just past limit ${n}: ${beyond} terms`);
  }
});

test("joints a clip leaves still keep their key's bits between keys; moving joints in the same clip still slerp", () => {
  const J = 8;
  const moving = [0.3826834, 0, 0, 0.9238795]; // 45° about x
  const still = [0.1, 0.2, 0.3, Math.sqrt(1 - 0.14)];
  // Joints 0–3 (one group) and 5–7 never move; joint 4 turns 45° between the two keys.
  const skeleton = createSkeleton({ names: Array.from({ length: J }, (_, j) => `j${j}`), parents: Array.from({ length: J }, (_, j) => j - 1) });
  const tracks = Array.from({ length: J }, (_, j) => {
    const values = new Float32Array(8);
    quatNormalize(values, 0, j === 4 ? [0, 0, 0, 1] : still, 0);
    quatNormalize(values, 4, j === 4 ? moving : still, 0);
    return { joint: j, path: "rotation" as const, interpolation: "LINEAR" as const, stride: 4 as const, times: Float32Array.of(0, 1), values };
  });
  const clip = createClip({ name: "still", skeleton, tracks });
  const timeline = packedTimeline(clip)!;
  const h = harness(J);
  packClip(h.w.f32, h.w.i32, h.clipAt, clip, timeline);
  const got = createPose(J), key = createPose(J), ref = createPose(J);
  h.run([[OP.sample, h.slot(1), h.clipAt, 1, 0, 0, timeline[0]!]]);
  readSlot(key, h.w.f32, h.slot(1) >> 2);
  const t = (timeline[0]! + timeline[1]!) / 2;
  h.run([[OP.sample, h.slot(0), h.clipAt, 1, 0, 0, t]]);
  readSlot(got, h.w.f32, h.slot(0) >> 2);
  sampleClip(ref, clip, t, createClipCursor(clip), "slerp");
  assert.deepEqual(Array.from(got.r.subarray(0, 16)), Array.from(key.r.subarray(0, 16)), "the still group is its key, bit for bit");
  assert.ok(maxDiff(got.r, ref.r) <= 1e-6, `the moving joint's group slerps: ${maxDiff(got.r, ref.r)}`);
  assert.ok(Math.abs(got.r[16]! - ref.r[16]!) <= 1e-6 && got.r[16]! > 0.1, "joint 4 is half way");
});

test("packing flags the groups whose translations or scales move; still planes are copied bit for bit, moving ones interpolated", () => {
  const J = 8;
  const skeleton = createSkeleton({ names: Array.from({ length: J }, (_, j) => `j${j}`), parents: Array.from({ length: J }, (_, j) => j - 1) });
  // Joint 5 slides along x; joint 2 has a translation track that never changes; no scale moves.
  const tracks = [
    { joint: 5, path: "translation" as const, interpolation: "LINEAR" as const, stride: 3 as const, times: Float32Array.of(0, 1), values: Float32Array.of(0, 0.1, 0, 1, 0.1, 0) },
    { joint: 2, path: "translation" as const, interpolation: "LINEAR" as const, stride: 3 as const, times: Float32Array.of(0, 1), values: Float32Array.of(0.3, 0.7, 0.1, 0.3, 0.7, 0.1) },
  ];
  const clip = createClip({ name: "slide", skeleton, tracks });
  const timeline = packedTimeline(clip)!;
  const h = harness(J);
  const at = packClip(h.w.f32, h.w.i32, h.clipAt, clip, timeline);
  const flags = h.w.i32[(at >> 2) + 4]! >> 2;
  assert.deepEqual([h.w.i32[flags]!, h.w.i32[flags + 1]!], [SCALES_UNIT, TRANSLATIONS_MOVE | SCALES_UNIT], "group 0 still, group 1 translating, scales 1 throughout");
  assert.equal(SCALES_MOVE & (h.w.i32[flags]! | h.w.i32[flags + 1]!), 0);
  assert.equal(h.w.i32[(at >> 2) + HEADER_SCALES_UNIT], 1, "the header says every scale is 1");
  const got = createPose(J), ref = createPose(J);
  h.run([[OP.sample, h.slot(0), h.clipAt, 1, 0, 0, 0.25]]);
  readSlot(got, h.w.f32, h.slot(0) >> 2);
  sampleClip(ref, clip, 0.25, createClipCursor(clip), "slerp");
  assert.deepEqual(Array.from(got.t.subarray(0, 12)), Array.from(ref.t.subarray(0, 12)), "the still group's translations are exact");
  assert.ok(Math.abs(got.t[15]! - 0.25) <= 1e-7, `joint 5 a quarter of the way: ${got.t[15]}`);
  assert.deepEqual(Array.from(got.s), Array.from(ref.s));
});

// --- kernel operations against the JS blend functions ------------------------------------------------

const randomPose = (J: number): fc.Arbitrary<Pose> =>
  fc.tuple(fc.array(unitQuat, { minLength: J, maxLength: J }), fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: 6 * J, maxLength: 6 * J })).map(([qs, xs]) => {
    const p = createPose(J);
    qs.forEach((q, j) => p.r.set(q, 4 * j));
    for (let i = 0; i < 3 * J; i++) {
      p.t[i] = xs[i]!;
      p.s[i] = 0.5 + Math.abs(xs[3 * J + i]!);
    }
    return p;
  });

/**
 * Largest rotation difference over joints whose two input rotations are not 180° apart. At 180° the
 * two arcs are equally short and which one "shortest-arc" picks depends on the sign of a dot product
 * that is zero up to rounding (float32 in the kernel, float64 in JS): both results are valid.
 */
function rotationDiff(got: Pose, ref: Pose, a: Pose, b: Pose): number {
  let m = 0;
  for (let j = 0; j < got.jointCount; j++) {
    let d = 0;
    for (let c = 0; c < 4; c++) d += a.r[4 * j + c]! * b.r[4 * j + c]!;
    if (Math.abs(d) < 1e-5) continue;
    for (let c = 0; c < 4; c++) m = Math.max(m, Math.abs(got.r[4 * j + c]! - ref.r[4 * j + c]!));
  }
  return m;
}

test("kernel BLEND and LAYER (override, additive, masks, w = 0, 1, in between, NaN) match crossfade and applyLayer", () => {
  const J = 7;
  fc.assert(
    fc.property(
      randomPose(J), randomPose(J),
      fc.double({ min: -0.2, max: 1.2, noNaN: false }),
      fc.option(fc.array(fc.constantFrom(0, 0.25, 1, 0.8), { minLength: J, maxLength: J })),
      fc.constantFrom("nlerp", "slerp"), fc.constantFrom("override", "additive"),
      (a, b, w, mask, rotation, mode) => {
        const h = harness(J);
        writeSlot(h.w.f32, h.slot(0) >> 2, a);
        writeSlot(h.w.f32, h.slot(1) >> 2, b);
        const maskAt = h.slot(3);
        if (mask) for (let j = 0; j < 4 * Math.ceil(J / 4); j++) h.w.f32[(maskAt >> 2) + j] = j < J ? mask[j]! : 0;
        const rot = rotation === "nlerp" ? 0 : 1;
        h.run([
          [OP.blend, h.slot(2), h.slot(0), h.slot(1), rot, 0, w],
          [OP.layer, h.slot(0), h.slot(1), mask ? maskAt : 0, mode === "additive" ? 1 : 0, rot, w],
        ]);
        const got = createPose(J), ref = createPose(J);
        readSlot(got, h.w.f32, h.slot(2) >> 2);
        crossfade(ref, a, b, w, rotation);
        assert.ok(rotationDiff(got, ref, a, b) <= 1e-6 && maxDiff(got.t, ref.t) <= 1e-6 && maxDiff(got.s, ref.s) <= 1e-6, `blend w ${w}`);
        readSlot(got, h.w.f32, h.slot(0) >> 2);
        const m = mask ? Float32Array.from(mask) : undefined;
        applyLayer(ref, a, b, w, m, mode, rotation);
        // Additive layers compose rotations (no shortest-arc choice between a and b): compare every joint.
        const dr = mode === "additive" ? maxDiff(got.r, ref.r) : rotationDiff(got, ref, a, b), dt = maxDiff(got.t, ref.t), ds = maxDiff(got.s, ref.s);
        assert.ok(dr <= 2e-6 && dt <= 2e-6 && ds <= 2e-6, `${mode} ${rotation} w ${w}: r ${dr} t ${dt} s ${ds}`);
      },
    ),
  );
});

test("packing: a clip that scales a joint is not flagged unit-scale in that joint's group nor in its header", () => {
  const J = 6;
  const skeleton = createSkeleton({ names: Array.from({ length: J }, (_, j) => `j${j}`), parents: Array.from({ length: J }, (_, j) => j - 1) });
  // Joint 4 holds a scale of 2 (still, but not 1); nothing else scales.
  const tracks = [{ joint: 4, path: "scale" as const, interpolation: "LINEAR" as const, stride: 3 as const, times: Float32Array.of(0, 1), values: Float32Array.of(2, 2, 2, 2, 2, 2) }];
  const clip = createClip({ name: "big", skeleton, tracks });
  const h = harness(J);
  const at = packClip(h.w.f32, h.w.i32, h.clipAt, clip, packedTimeline(clip)!);
  const flags = h.w.i32[(at >> 2) + 4]! >> 2;
  assert.deepEqual([h.w.i32[flags]!, h.w.i32[flags + 1]!], [SCALES_UNIT, 0]);
  assert.equal(h.w.i32[(at >> 2) + HEADER_SCALES_UNIT], 0);
});

test("BLEND told that both poses have unit scales (e = 1, dst = from) leaves the same bits as the full blend (property)", () => {
  const J = 7;
  fc.assert(
    fc.property(randomPose(J), randomPose(J), fc.double({ min: -0.2, max: 1.2, noNaN: false }), fc.constantFrom(0, 1), (a, b, w, rot) => {
      a.s.fill(1);
      b.s.fill(1);
      const h = harness(J);
      for (const k of [0, 2]) writeSlot(h.w.f32, h.slot(k) >> 2, a);
      writeSlot(h.w.f32, h.slot(1) >> 2, b);
      h.run([
        [OP.blend, h.slot(0), h.slot(0), h.slot(1), rot, 0, w],
        [OP.blend, h.slot(2), h.slot(2), h.slot(1), rot, 1, w],
      ]);
      const bytes = slotBytes(J);
      assert.deepEqual(new Uint32Array(h.w.memory.buffer, h.slot(2), bytes / 4), new Uint32Array(h.w.memory.buffer, h.slot(0), bytes / 4), `w ${w}`);
    }),
  );
});

test("SAMPLE_LAYER (a layer's one sample fused with its LAYER) leaves the same bits as SAMPLE into a slot then LAYER (property)", () => {
  const f32bits = (x: number): number => new Int32Array(Float32Array.of(x).buffer)[0]!;
  fc.assert(
    fc.property(
      randomClip, fc.double({ min: -0.2, max: 2, noNaN: true }),
      fc.oneof(fc.constantFrom(0, 1, Number.NaN), fc.double({ min: -0.2, max: 1.2, noNaN: true })),
      fc.boolean(), fc.constantFrom(0, 1), fc.constantFrom(0, 1), fc.integer({ min: 0, max: 3 }),
      (spec, time, weight, masked, rot, additive, keyPick) => {
        const clip = buildClip(spec);
        const timeline = packedTimeline(clip);
        assert.ok(timeline);
        const J = spec.jointCount;
        const h = harness(J);
        packClip(h.w.f32, h.w.i32, h.clipAt, clip, timeline);
        // Also exactly at a key, and before the first and after the last (a key's own pose, no interpolation).
        const t = keyPick === 0 ? time : keyPick === 1 ? timeline[Math.floor(timeline.length / 2)]! : keyPick === 2 ? -1 : 1e3;
        const base = createPose(J);
        for (let j = 0; j < J; j++) {
          quatNormalize(base.r, 4 * j, [Math.sin(j + 1), Math.cos(2 * j), 0.3, 1], 0);
          base.t.set([j, -0.5 * j, 0.25], 3 * j);
          base.s.set([1, 1 + 0.1 * j, 0.9], 3 * j);
        }
        const maskAt = h.slot(3);
        for (let j = 0; j < 4 * Math.ceil(J / 4); j++) h.w.f32[(maskAt >> 2) + j] = j < J ? [0, 0.25, 1, 0.8][j % 4]! : 0;
        const mask = masked ? maskAt : 0;
        writeSlot(h.w.f32, h.slot(0) >> 2, base);
        writeSlot(h.w.f32, h.slot(2) >> 2, base);
        const modes = additive | (rot << 1) | (rot << 3) | (weight === 1 ? 32 : 0);
        h.run([
          [OP.sample, h.slot(1), h.clipAt, rot, 0, 0, t],
          [OP.layer, h.slot(0), h.slot(1), mask, additive, rot, weight],
          [OP.sampleLayer, h.slot(2), h.clipAt, mask, modes, f32bits(weight), t],
        ]);
        const bytes = slotBytes(J);
        const unfused = new Uint32Array(h.w.memory.buffer, h.slot(0), bytes / 4);
        const fused = new Uint32Array(h.w.memory.buffer, h.slot(2), bytes / 4);
        assert.deepEqual(fused, unfused, `time ${t}, weight ${weight}, mask ${masked}, rotation mode ${rot}, additive ${additive}`);
      },
    ),
  );
});

// --- threads and the build -------------------------------------------------------------------------

test("worker threads with the kernel write the same poses as an in-thread kernel crowd", async () => {
  const recipe = { module: new URL("./robot-graph.ts", import.meta.url).href, exportName: "robotGraph" };
  const graph = await robotGraph();
  const n = 10;
  const startTimes = Float64Array.from({ length: n }, (_, i) => 0.13 * i);
  const workers = await createCrowdWorkers(recipe, n, { workers: 2, startTimes, kernel: true });
  const local = createCrowd(graph, n, { kernel });
  for (let i = 0; i < n; i++) step(graph, local.instances[i]!, startTimes[i]!);
  try {
    for (let k = 0; k < 20; k++) {
      workers.evaluate(1 / 60);
      evaluateCrowd(local, 1 / 60);
    }
    assert.deepEqual(workers.poseBuffer, local.poseBuffer);
    assert.deepEqual(workers.model, local.model);
  } finally {
    await workers.terminate();
  }
});

test("the committed kernel binary is what assembly/crowd-kernel.ts compiles to (run `npm run build:wasm` after editing it)", async () => {
  const { compileKernel } = (await import("../../scripts/build-wasm.mjs")) as { compileKernel: () => Promise<string> };
  assert.equal(await compileKernel(), CROWD_KERNEL_WASM_BASE64);
});

test("localPoses: false keeps only model matrices (no pose buffer) and gives the same matrices, JS path and kernel", async () => {
  const graph = await robotGraph();
  const n = 5;
  for (const options of [{}, { kernel }]) {
    const full = createCrowd(graph, n, options);
    const lean = createCrowd(graph, n, { ...options, localPoses: false });
    assert.equal(lean.poseBuffer.length, 0);
    assert.equal(lean.poses.length, 0);
    for (let k = 0; k < 200; k++) {
      for (const c of [full, lean]) {
        for (let i = 0; i < n; i++) {
          setParam(c.instances[i]!, "speed", ((k + 40 * i) % 240) / 40);
          if ((k + i) % 97 === 0) trigger(c.instances[i]!, "jump");
        }
        evaluateCrowd(c, 1 / 60);
      }
      assert.deepEqual(lean.model, full.model, `frame ${k}`);
    }
  }
});

test("the recorder marks a BLEND of two samples of unit-scale clips (e = 1, so the kernel skips the scales) and no other; the crowd still matches the JS path", () => {
  const J = 5;
  const skeleton = createSkeleton({ names: Array.from({ length: J }, (_, j) => `j${j}`), parents: Array.from({ length: J }, (_, j) => j - 1) });
  const swing = (name: string, amplitude: number, scale: number): ReturnType<typeof createClip> => createClip({
    name, skeleton,
    tracks: [
      ...Array.from({ length: J }, (_, j) => ({
        joint: j, path: "rotation" as const, interpolation: "LINEAR" as const, stride: 4 as const, times: Float32Array.of(0, 0.5, 1),
        values: Float32Array.of(0, 0, 0, 1, Math.sin(amplitude * (j + 1)), 0, 0, Math.cos(amplitude * (j + 1)), 0, 0, 0, 1),
      })),
      ...(scale === 1 ? [] : [{ joint: 2, path: "scale" as const, interpolation: "LINEAR" as const, stride: 3 as const, times: Float32Array.of(0, 1), values: Float32Array.of(scale, 1, 1, scale, 1, 1) }]),
    ],
  });
  const clips = [swing("A", 0.2, 1), swing("B", 0.5, 1), swing("Scaled", 0.3, 1.5)];
  const blendOf = (a: string, b: string): CompiledGraph => {
    const spec = {
      animgraph: 1, name: "blend", parameters: { x: { type: "float", default: 0.4, min: 0, max: 1 } },
      layers: [{ name: "base", machine: { entry: "Move", states: { Move: { blend1d: { param: "x", children: [{ at: 0, clip: a }, { at: 1, clip: b }] } } }, transitions: [] } }],
    };
    const parsed = parseGraphSpec(parseJsonText(JSON.stringify(spec), "blend.animgraph.json"));
    assert.ok(parsed.spec, JSON.stringify(parsed.diagnostics));
    return compileGraph(parsed.spec, skeleton, clips).graph!;
  };
  for (const [a, b, unit] of [["A", "B", 1], ["A", "Scaled", 0], ["Scaled", "B", 0]] as const) {
    const graph = blendOf(a, b);
    const withKernel = createCrowd(graph, 3, { kernel });
    const js = createCrowd(graph, 3);
    for (let k = 0; k < 20; k++) {
      evaluateCrowd(withKernel, 1 / 30);
      evaluateCrowd(js, 1 / 30);
    }
    // The last batch's commands are still in the list: every BLEND says whether both poses have unit scales.
    const w = withKernel.wasm!;
    const o = w.commandsAt >> 2;
    let blends = 0;
    for (let k = 0; w.i32[o + 8 * k] !== OP.end; k++) {
      if (w.i32[o + 8 * k] !== OP.blend) continue;
      blends++;
      assert.equal(w.i32[o + 8 * k + 5], unit, `${a} + ${b}`);
    }
    assert.equal(blends, 3, `${a} + ${b}: one BLEND per character`);
    assert.ok(maxDiff(withKernel.poseBuffer, js.poseBuffer) <= 2e-6, `${a} + ${b}: kernel against JS`);
  }
});

test("PACKED_OFFSET from a PACK_OFFSET record writes the same bits as OFFSET from the two vectors (property: moving and still planes, large angles, too many entries to pack, in place or not)", () => {
  const plane = fc.array(fc.float({ min: -4, max: 4, noNaN: true }), { minLength: 4, maxLength: 4 });
  const kinds = fc.array(fc.tuple(fc.boolean(), plane, plane, plane), { minLength: 3, maxLength: 3 });
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 13 }), fc.array(fc.tuple(kinds, kinds), { minLength: 4, maxLength: 4 }),
      fc.array(unitQuat, { minLength: 13, maxLength: 13 }), fc.integer({ min: 0, max: 12 }),
      fc.float({ min: -1, max: 1, noNaN: true }), fc.float({ min: -1, max: 1, noNaN: true }), fc.boolean(),
      (J, groupsXY, quats, capacity, c0, c1, inPlace) => {
        const h = harness(J);
        const G = Math.ceil(J / 4), w = h.w;
        const bytes = vectorBytes(J), flags = (4 * G + 15) & ~15;
        const x = h.clipAt, y = x + bytes, record = y + bytes, pose = h.slot(0), a = h.slot(1), b = h.slot(2);
        // Vectors: per group and kind (translation, rotation, scale) moving planes or exact zeros, flags to match.
        for (const [v, which] of [[x, 0], [y, 1]] as const) {
          for (let g = 0; g < G; g++) {
            let moves = 0;
            groupsXY[g]![which].forEach(([on, p0, p1, p2], kind) => {
              const at = v + flags + [48 * G, 0, 96 * G][kind]! + 48 * g;
              [p0, p1, p2].forEach((p, c) => p.forEach((value, l) => (w.f32[(at >> 2) + 4 * c + l] = on && 4 * g + l < J ? value : 0)));
              if (on && 4 * g < J) moves |= [1, 2, 4][kind]!;
            });
            w.i32[(v >> 2) + g] = moves;
          }
        }
        const p = createPose(J);
        for (let j = 0; j < J; j++) {
          p.r.set(quats[j]!, 4 * j);
          p.t.set([j, -j, 0.5 * j], 3 * j);
          p.s.set([1, 1 + 0.1 * j, 1], 3 * j);
        }
        writeSlot(w.f32, pose >> 2, p);
        writeSlot(w.f32, a >> 2, p);
        writeSlot(w.f32, b >> 2, p);
        w.i32[(record >> 2) + 3] = capacity;
        const c1Bits = new Int32Array(new Float32Array([c1]).buffer)[0]!;
        h.run([
          [OP.offset, a, inPlace ? a : pose, x, y, c1Bits, c0],
          [OP.packOffset, record, x, y],
          [OP.packedOffset, b, inPlace ? b : pose, record, 0, c1Bits, c0],
        ]);
        const bits = new Uint32Array(w.memory.buffer);
        for (let k = 0; k < slotBytes(J) / 4; k++) assert.equal(bits[(b >> 2) + k], bits[(a >> 2) + k], `word ${k} (${w.i32[record >> 2]} entries packed, capacity ${capacity})`);
      },
    ),
  );
});
