import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createClip } from "../../src/clip/clip.ts";
import { compressClip, detectSampleRate } from "../../src/compress/compress-clip.ts";
import { blockCount, decodeKey, TrackEncoding } from "../../src/compress/compressed-clip.ts";
import { quatNlerpAt } from "../../src/math/quat.ts";
import { decompressClip } from "../../src/compress/decompress-clip.ts";
import { createCompressedClipCursor, sampleCompressedClip } from "../../src/compress/sample-compressed-clip.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";
import { independentError, random } from "./independent-error.ts";
import { syntheticClip } from "./synthetic-clip.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

test("a programmatic clip compresses within the tolerance at grid frames and at random times", () => {
  const clip = syntheticClip();
  const result = compressClip(clip, { tolerance: 1e-4 });
  assert.ok(result.compressed && result.stats);
  assert.deepEqual(result.diagnostics, []);
  assert.equal(detectSampleRate(clip), 60);
  assert.equal(result.stats.frameCount, 121);
  assert.equal(result.stats.rawBytes, 40 * 5 * 121);
  assert.ok(result.stats.maxError <= 1e-4);
  assert.ok(result.stats.ratio > 4, `ratio ${result.stats.ratio}`);
  const rnd = random(1);
  const times = Array.from({ length: 1000 }, () => rnd() * clip.duration);
  assert.ok(independentError(clip, result.compressed, times, 0.03).max <= 1e-4);
});

test("constant tracks become one key; tracks equal to the rest pose are dropped", () => {
  const { compressed } = compressClip(syntheticClip(), { tolerance: 1e-4 });
  assert.ok(compressed);
  const rot3 = compressed.trackIndex[3 * 3 + 1]!;
  assert.ok(rot3 >= 0);
  assert.equal(compressed.tracks[rot3]!.encoding, TrackEncoding.CONSTANT);
  assert.equal(compressed.tracks[rot3]!.params.length, 4);
  assert.equal(compressed.tracks[rot3]!.data.length, 0);
  assert.equal(compressed.trackIndex[3 * 3 + 0], -1, "translation equal to rest");
  assert.equal(compressed.trackIndex[3 * 4 + 1], -1, "untracked joint");
});

test("a root spinning a full turn (the dropped quaternion component changes along the way) stays within the tolerance", () => {
  const clip = syntheticClip({ spin: true });
  const result = compressClip(clip, { tolerance: 1e-4 });
  assert.ok(result.compressed && result.stats);
  assert.ok(result.stats.maxError <= 1e-4);
  const rnd = random(2);
  assert.ok(independentError(clip, result.compressed, Array.from({ length: 500 }, () => rnd() * clip.duration), 0.03).max <= 1e-4);
});

test("tighter tolerances cost more bytes and keep their bound", () => {
  const clip = syntheticClip();
  let last = 0;
  for (const tol of [1e-2, 1e-3, 1e-4, 1e-5]) {
    const { stats } = compressClip(clip, { tolerance: tol });
    assert.ok(stats && stats.maxError <= tol, `tolerance ${tol}: ${stats?.maxError}`);
    assert.ok(stats.compressedBytes >= last);
    last = stats.compressedBytes;
  }
});

test("fixed bit widths that cannot meet the tolerance give W_COMPRESS_TOLERANCE_NOT_MET", () => {
  const result = compressClip(syntheticClip(), { tolerance: 1e-5, rotationBits: 4 });
  assert.ok(result.stats && result.stats.maxError > 1e-5);
  assert.ok(result.diagnostics.some((d) => d.code === "W_COMPRESS_TOLERANCE_NOT_MET"));
});

test("bad options are diagnostics, not exceptions", () => {
  const clip = syntheticClip();
  for (const options of [{ tolerance: 0 }, { tolerance: -1 }, { unitsPerMetre: NaN }, { sampleRate: 0 }, { rotationBits: 25 }, { virtualVertexDistance: 0 }]) {
    const r = compressClip(clip, options);
    assert.equal(r.compressed, undefined);
    assert.equal(r.diagnostics[0]?.code, "E_COMPRESS_OPTION", JSON.stringify(options));
  }
  const r = compressClip(clip, { sampleRate: 1e5 });
  assert.equal(r.diagnostics[0]?.code, "E_COMPRESS_TOO_MANY_FRAMES");
});

test("sampling with one cursor in any time order equals sampling with a fresh cursor", () => {
  const clip = syntheticClip({ spin: true });
  const { compressed } = compressClip(clip, { tolerance: 1e-4 });
  assert.ok(compressed);
  const a = createPose(5);
  const b = createPose(5);
  const cursor = createCompressedClipCursor(compressed);
  fc.assert(
    fc.property(fc.array(fc.double({ min: -0.5, max: 2.5, noNaN: true }), { minLength: 1, maxLength: 30 }), (times) => {
      for (const t of times) {
        sampleCompressedClip(a, compressed, t, cursor);
        sampleCompressedClip(b, compressed, t, createCompressedClipCursor(compressed));
        assert.deepEqual(a, b);
      }
    }),
  );
});

test("times before the start and after the end hold the first and last frames", () => {
  const { compressed } = compressClip(syntheticClip(), { tolerance: 1e-4 });
  assert.ok(compressed);
  const a = createPose(5);
  const b = createPose(5);
  const c = createCompressedClipCursor(compressed);
  sampleCompressedClip(a, compressed, -3, c);
  sampleCompressedClip(b, compressed, 0, c);
  assert.deepEqual(a, b);
  sampleCompressedClip(a, compressed, 99, c);
  sampleCompressedClip(b, compressed, compressed.duration, c);
  assert.deepEqual(a, b);
  sampleCompressedClip(a, compressed, NaN, c);
  sampleCompressedClip(b, compressed, 0, c);
  assert.deepEqual(a, b);
});

test("sampleCompressedClip rejects a foreign cursor and the rest pose as output", () => {
  const { compressed } = compressClip(syntheticClip(), { tolerance: 1e-4 });
  const other = compressClip(syntheticClip(), { tolerance: 1e-3 }).compressed;
  assert.ok(compressed && other);
  assert.throws(() => sampleCompressedClip(createPose(5), compressed, 0, createCompressedClipCursor(other)));
  assert.throws(() => sampleCompressedClip(compressed.skeleton.rest, compressed, 0, createCompressedClipCursor(compressed)));
});

test("decompressClip gives a Clip whose samples match the compressed clip", () => {
  const { compressed } = compressClip(syntheticClip(), { tolerance: 1e-4 });
  assert.ok(compressed);
  const clip = decompressClip(compressed);
  assert.equal(clip.tracks.length, compressed.tracks.length);
  assert.equal(clip.duration, compressed.duration);
  const rnd = random(3);
  assert.ok(independentError(clip, compressed, Array.from({ length: 300 }, () => rnd() * 2), 0.03).max < 1e-6);
});

test("sampling retains nothing: the heap after a forced GC stays flat over 200,000 samples", () => {
  const { compressed } = compressClip(syntheticClip({ spin: true }), { tolerance: 1e-4 });
  assert.ok(compressed);
  const pose = createPose(5);
  const cursor = createCompressedClipCursor(compressed);
  for (let i = 0; i < 20000; i++) sampleCompressedClip(pose, compressed, (i % 240) / 120, cursor);
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const checkpoints: number[] = [];
  for (let i = 0; i < 200000; i++) {
    sampleCompressedClip(pose, compressed, ((i * 7) % 2400) / 1200, cursor);
    if ((i + 1) % 50000 === 0) {
      gc();
      gc();
      checkpoints.push(process.memoryUsage().heapUsed - before);
    }
  }
  // Transient boxing of doubles by the VM is collected; anything kept per call would grow the heap.
  for (const growth of checkpoints) assert.ok(growth < 256 * 1024, `heap grew by ${checkpoints.join(", ")} bytes`);
});

test("decompression allocates nothing of its own: a crowd of cursors sampled in nlerp and slerp grows the heap by at most the boxed time argument per pose", () => {
  const { compressed } = compressClip(syntheticClip({ spin: true, fps: 30, seconds: 4 }), { tolerance: 1e-4, virtualVertexDistance: 1, sampleRate: 30 });
  assert.ok(compressed);
  const pose = createPose(5);
  const cursors = Array.from({ length: 50 }, () => createCompressedClipCursor(compressed));
  const times = Float64Array.from({ length: 50 }, (_, i) => (i * 0.0791) % compressed.duration);
  const frame = (mode: "nlerp" | "slerp"): void => {
    for (let i = 0; i < 50; i++) {
      let t = times[i]! + 1 / 60;
      if (t > compressed.duration) t -= compressed.duration;
      times[i] = t;
      sampleCompressedClip(pose, compressed, t, cursors[i]!, mode);
    }
  };
  for (const mode of ["nlerp", "slerp"] as const) {
    for (let k = 0; k < 400; k++) frame(mode);
    // heapUsed grows by what is allocated until a collection runs: the smallest growth of three batches
    // of 20,000 poses (a scavenge may hide one batch's growth, not all three).
    const growth: number[] = [];
    for (let batch = 0; batch < 3; batch++) {
      gc();
      const before = process.memoryUsage().heapUsed;
      for (let k = 0; k < 400; k++) frame(mode);
      growth.push(process.memoryUsage().heapUsed - before);
    }
    // A double passed to a function V8 does not inline is boxed at the call (a 16-byte heap number, the
    // caller's `time`): that is the bound. Anything the sampler made per track (6 animated tracks here)
    // or per key would be several times more.
    assert.ok(Math.min(...growth) / 20000 <= 16.5, `${mode}: heap grew by ${growth.join(", ")} bytes over 20,000 poses`);
  }
});

test("a cursor's cached keys never change the pose: any sequence of times gives what a fresh cursor gives (property)", () => {
  const { compressed } = compressClip(syntheticClip({ glitch: true, fps: 30, seconds: 3 }), { tolerance: 1e-4, sampleRate: 30 });
  assert.ok(compressed);
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.double({ min: 0, max: 0.05, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }), fc.constant(0)), { minLength: 1, maxLength: 60 }),
      fc.constantFrom("nlerp", "slerp") as fc.Arbitrary<"nlerp" | "slerp">,
      (steps, mode) => {
        const cursor = createCompressedClipCursor(compressed);
        const a = createPose(5);
        const b = createPose(5);
        let t = 0;
        for (const step of steps) {
          t = Math.min(compressed.duration, Math.max(0, t + step));
          sampleCompressedClip(a, compressed, t, cursor, mode);
          sampleCompressedClip(b, compressed, t, createCompressedClipCursor(compressed), mode);
          assert.deepEqual(a, b, `t = ${t}`);
        }
      },
    ),
  );
});

test("sampling with nlerp writes quatNlerpAt's result bit for bit; constant tracks come from the shared base pose", () => {
  const { compressed } = compressClip(syntheticClip({ glitch: true }), { tolerance: 1e-4 });
  assert.ok(compressed);
  const pose = createPose(5);
  const cursor = createCompressedClipCursor(compressed);
  const keys = new Float32Array(8);
  const expected = new Float32Array(4);
  const w = new Float64Array(1);
  const rnd = random(9);
  for (let n = 0; n < 300; n++) {
    const time: number = rnd() * compressed.duration;
    sampleCompressedClip(pose, compressed, time, cursor, "nlerp");
    const u = (time - compressed.startTime) * compressed.sampleRate;
    const f = Math.min(Math.floor(u), compressed.frameCount - 2);
    w[0] = Math.min(1, u - f);
    for (const track of compressed.tracks) {
      if (track.path !== "rotation") continue;
      if (track.encoding === TrackEncoding.CONSTANT) {
        assert.deepEqual(Array.from(pose.r.subarray(4 * track.joint, 4 * track.joint + 4)), Array.from(track.params.subarray(0, 4)));
        continue;
      }
      decodeKey(keys, 0, track, f);
      decodeKey(keys, 4, track, f + 1);
      quatNlerpAt(expected, 0, keys, 0, keys, 4, w, 0);
      assert.deepEqual(Array.from(pose.r.subarray(4 * track.joint, 4 * track.joint + 4)), Array.from(expected), `t = ${time}, joint ${track.joint}`);
    }
  }
});

test("detectSampleRate: uniform keys give their exact rate, irregular ones the median interval", () => {
  const skeleton = createSkeleton({ names: ["a"], parents: [-1] });
  const clipWith = (times: number[]) =>
    createClip({ name: "c", skeleton, tracks: [{ joint: 0, path: "translation", interpolation: "LINEAR", stride: 3, times: Float32Array.from(times), values: new Float32Array(3 * times.length) }] });
  assert.ok(Math.abs(detectSampleRate(clipWith([0, 0.0083333, 0.0166666, 0.0249999])) - 1 / 0.0083333) < 1e-2);
  assert.ok(Math.abs(detectSampleRate(clipWith([0, 1 / 24, 2 / 24, 3 / 24, 8 / 24, 9 / 24])) - 24) < 1e-3);
  assert.equal(detectSampleRate(clipWith([0])), 30);
  const r = compressClip(clipWith([0, 1 / 24, 2 / 24, 3 / 24, 8.5 / 24]), {});
  assert.ok(r.diagnostics.some((d) => d.code === "W_COMPRESS_OFF_GRID"));
});

test("a hinge rotation spends its bits on the turning component; the others get none", () => {
  const clip = syntheticClip();
  const result = compressClip(clip, { tolerance: 1e-5 });
  const c = result.compressed!;
  assert.ok(result.stats!.maxError <= 1e-5);
  // Joint 2 turns about z only: x and y stay 0 and w is the largest component, so the stored components
  // are x, y, z and the residuals of x and y are 0 (0-bit fields) in every block.
  const track = c.tracks[c.trackIndex[3 * 2 + 1]!]!;
  assert.equal(track.encoding, TrackEncoding.ROTATION);
  const blocks = blockCount(c.frameCount);
  assert.equal(track.blockWidth.length, 4 * blocks);
  let turning = 0;
  for (let b = 0; b < blocks; b++) {
    const [bx, by, bz, keyBits] = track.blockWidth.subarray(4 * b, 4 * b + 4);
    assert.equal(keyBits, bx! + by! + bz!);
    assert.equal(bx, 0);
    assert.equal(by, 0);
    if (bz! > 0) turning++;
  }
  assert.ok(turning > blocks / 2, `${turning} of ${blocks} blocks store z residuals`);
});

test("a one-frame glitch in the source (a 2 rad jump) stays within the tolerance around it", () => {
  for (const fps of [60, 120]) {
    const clip = syntheticClip({ glitch: true, fps });
    const result = compressClip(clip, { tolerance: 1e-4 });
    assert.ok(result.stats && result.stats.maxError <= 1e-4, `${fps} fps: ${result.stats?.maxError}`);
    assert.deepEqual(result.diagnostics, []);
  }
});

test("every coarse key spacing meets the tolerance; a denser spacing holds more decoded keys in memory", () => {
  const clip = syntheticClip({ spin: true });
  let lastRuntime = Infinity;
  for (const coarseShift of [1, 2, 3, 4]) {
    const result = compressClip(clip, { tolerance: 1e-4, coarseShift });
    assert.ok(result.stats && result.stats.maxError <= 1e-4, `shift ${coarseShift}: ${result.stats?.maxError}`);
    for (const t of result.compressed!.tracks) if (t.encoding !== TrackEncoding.CONSTANT) assert.equal(t.coarseShift, coarseShift);
    assert.ok(result.stats.runtimeBytes < lastRuntime);
    lastRuntime = result.stats.runtimeBytes;
    const rnd = random(coarseShift);
    assert.ok(independentError(clip, result.compressed!, Array.from({ length: 300 }, () => rnd() * clip.duration), 0.03).max <= 1e-4);
  }
  assert.equal(compressClip(clip, { coarseShift: 0 }).diagnostics[0]?.code, "E_COMPRESS_OPTION");
  assert.equal(compressClip(clip, { coarseShift: 5 }).diagnostics[0]?.code, "E_COMPRESS_OPTION");
});

test("clips of 2 and 3 frames, and a far-off translation at a tight tolerance, compress and sample", () => {
  const skeleton = createSkeleton({ names: ["root", "child"], parents: [-1, 0] });
  for (const n of [2, 3]) {
    const times = Float32Array.from({ length: n }, (_, i) => i / 30);
    const rotations = new Float32Array(4 * n);
    for (let i = 0; i < n; i++) rotations.set([Math.sin(0.3 * i), 0, 0, Math.cos(0.3 * i)], 4 * i);
    const clip = createClip({
      name: `short${n}`, skeleton,
      tracks: [
        // 5 km away and moving by metres a frame, at a 10 µm tolerance: residuals near the 24-bit limit.
        { joint: 0, path: "translation", interpolation: "LINEAR", stride: 3, times, values: Float32Array.from({ length: 3 * n }, (_, k) => 5000 + 3 * Math.floor(k / 3) * (k % 3)) },
        { joint: 1, path: "rotation", interpolation: "LINEAR", stride: 4, times, values: rotations },
      ],
    });
    const result = compressClip(clip, { tolerance: 1e-5 });
    assert.ok(result.compressed && result.stats, `${n} frames`);
    assert.equal(result.stats.frameCount, n);
    assert.ok(result.stats.maxError <= 1e-5, `${n} frames: ${result.stats.maxError}`);
    const pose = createPose(2);
    const cursor = createCompressedClipCursor(result.compressed);
    for (const t of [0, 0.01, 1 / 30, 0.05, clip.duration, 5]) {
      sampleCompressedClip(pose, result.compressed, t, cursor);
      assert.ok([...pose.t, ...pose.r].every(Number.isFinite));
    }
  }
});
