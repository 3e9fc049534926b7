import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createClip, type JointTrack } from "../../src/clip/clip.ts";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { findKey } from "../../src/clip/find-key.ts";
import { floatTrackLength, sampleClip, sampleFloatTracks } from "../../src/clip/sample-clip.ts";
import { wrapTime } from "../../src/clip/wrap-time.ts";
import { quatFromAxisAngle, quatLength, quatSlerp } from "../../src/math/quat.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";

function restPose(): ReturnType<typeof createPose> {
  const rest = createPose(3);
  rest.t.set([0, 0, 0, 0, 1, 0, 0, 1, 0]);
  rest.s.set([1, 1, 1, 2, 2, 2, 1, 1, 1]);
  quatFromAxisAngle(rest.r, 8, 1, 0, 0, 0.25);
  return rest;
}
const skeleton = createSkeleton({ names: ["root", "spine", "arm"], parents: [-1, 0, 1], rest: restPose() });

const rotKeys = (angles: number[], axis: [number, number, number] = [0, 1, 0], negate: number[] = []): Float32Array => {
  const v = new Float32Array(4 * angles.length);
  angles.forEach((a, k) => {
    quatFromAxisAngle(v, 4 * k, axis[0], axis[1], axis[2], a);
    if (negate.includes(k)) for (let c = 0; c < 4; c++) v[4 * k + c] = -v[4 * k + c]!;
  });
  return v;
};

const tracks: JointTrack[] = [
  { joint: 0, path: "translation", interpolation: "LINEAR", stride: 3, times: new Float32Array([0.5, 1, 2]), values: new Float32Array([0, 0, 0, 1, 2, 3, 3, 2, 1]) },
  { joint: 0, path: "rotation", interpolation: "LINEAR", stride: 4, times: new Float32Array([0, 1, 2]), values: rotKeys([0, 2.1, 1], [0, 1, 0], [1]) },
  { joint: 1, path: "scale", interpolation: "STEP", stride: 3, times: new Float32Array([0, 1]), values: new Float32Array([1, 1, 1, 3, 3, 3]) },
];
const clip = createClip({
  name: "test",
  skeleton,
  tracks,
  floatTracks: [{ target: "face", node: -1, count: 2, interpolation: "LINEAR", times: new Float32Array([0, 2]), values: new Float32Array([0, 1, 1, 0]) }],
});

test("exact at key times: the stored key bit for bit", () => {
  const out = createPose(3);
  const cursor = createClipCursor(clip);
  for (const track of tracks) {
    for (let k = 0; k < track.times.length; k++) {
      sampleClip(out, clip, track.times[k]!, cursor);
      const target = track.path === "rotation" ? out.r : track.path === "translation" ? out.t : out.s;
      const o = track.stride * track.joint;
      assert.deepEqual([...target.subarray(o, o + track.stride)], [...track.values.subarray(track.stride * k, track.stride * (k + 1))]);
    }
  }
});

test("before the first key holds the first key; after the last holds the last; untracked joints take the rest pose", () => {
  const out = createPose(3);
  const cursor = createClipCursor(clip);
  sampleClip(out, clip, 0.2, cursor); // translation track starts at 0.5
  assert.deepEqual([...out.t.subarray(0, 3)], [0, 0, 0]);
  sampleClip(out, clip, 5, cursor);
  assert.deepEqual([...out.t.subarray(0, 3)], [3, 2, 1]);
  assert.deepEqual([...out.r.subarray(8, 12)], [...skeleton.rest.r.subarray(8, 12)]);
  assert.deepEqual([...out.t.subarray(3, 9)], [...skeleton.rest.t.subarray(3, 9)]);
  assert.deepEqual([...out.s.subarray(6, 9)], [1, 1, 1]);
});

test("LINEAR translation lerps; STEP holds the previous key", () => {
  const out = createPose(3);
  const cursor = createClipCursor(clip);
  sampleClip(out, clip, 0.75, cursor);
  assert.deepEqual([...out.t.subarray(0, 3)], [0.5, 1, 1.5]);
  assert.deepEqual([...out.s.subarray(3, 6)], [1, 1, 1]);
  sampleClip(out, clip, 1.5, cursor);
  assert.deepEqual([...out.s.subarray(3, 6)], [3, 3, 3]);
  assert.deepEqual([...out.t.subarray(0, 3)], [2, 2, 2]);
});

test("LINEAR rotation is a shortest-arc slerp even when the next key is stored as −q", () => {
  const out = createPose(3);
  const cursor = createClipCursor(clip);
  // Keys: 0 rad at t=0, 2.1 rad (stored negated) at t=1. Halfway must be 1.05 rad about Y.
  sampleClip(out, clip, 0.5, cursor);
  const expected = quatFromAxisAngle(new Float64Array(4), 0, 0, 1, 0, 1.05);
  for (let c = 0; c < 4; c++) assert.ok(Math.abs(out.r[c]! - expected[c]!) < 1e-6);
  assert.ok(Math.abs(quatLength(out.r, 0) - 1) < 1e-6);
  // "nlerp" and "fastSlerp" modes also follow the short arc.
  sampleClip(out, clip, 0.5, cursor, "fastSlerp");
  for (let c = 0; c < 4; c++) assert.ok(Math.abs(out.r[c]! - expected[c]!) < 1e-6);
});

test("CUBICSPLINE follows glTF Appendix C (tangents scaled by the key interval); rotations normalised", () => {
  // One scalar-like channel: p(t) with values 0 → 1 over [1, 3], out-tangent b0 = 2, in-tangent a1 = −1.
  const t3: JointTrack = {
    joint: 2, path: "translation", interpolation: "CUBICSPLINE", stride: 3, times: new Float32Array([1, 3]),
    // key 0: in (unused), value, out; key 1: in, value, out (unused)
    values: new Float32Array([9, 9, 9, 0, 0, 0, 2, 0, 0, -1, 0, 0, 1, 0, 0, 9, 9, 9]),
  };
  const rot: JointTrack = {
    joint: 1, path: "rotation", interpolation: "CUBICSPLINE", stride: 4, times: new Float32Array([0, 1]),
    values: new Float32Array([0, 0, 0, 0, 0, 0, 0, 1, 0, 0.5, 0, 0, 0, 0.5, 0, 0, 0, 0.7071068, 0, 0.7071068, 0, 0, 0, 0]),
  };
  const c = createClip({ name: "cubic", skeleton, tracks: [t3, rot] });
  const out = createPose(3);
  const cursor = createClipCursor(c);
  const u = 0.3, td = 2;
  sampleClip(out, c, 1 + u * td, cursor);
  const h10 = u ** 3 - 2 * u * u + u, h01 = -2 * u ** 3 + 3 * u * u, h11 = u ** 3 - u * u;
  const expected = td * h10 * 2 + h01 * 1 + td * h11 * -1;
  assert.ok(Math.abs(out.t[6]! - expected) < 1e-6, `${out.t[6]} vs ${expected}`);
  assert.deepEqual([...out.t.subarray(7, 9)], [0, 0]);
  sampleClip(out, c, 0.5, cursor);
  assert.ok(Math.abs(quatLength(out.r, 4) - 1) < 1e-6);
  // At a key time: the stored value as-is.
  sampleClip(out, c, 3, cursor);
  assert.equal(out.t[6], 1);
});

test("random access and forward playback give the same samples (cursor is only a hint)", () => {
  fc.assert(
    fc.property(fc.array(fc.double({ min: -1, max: 3, noNaN: true }), { minLength: 1, maxLength: 40 }), (times) => {
      const a = createPose(3), b = createPose(3);
      const cursor = createClipCursor(clip);
      for (const t of times) {
        sampleClip(a, clip, t, cursor);
        sampleClip(b, clip, t, createClipCursor(clip));
        assert.deepEqual(a, b);
      }
    }),
  );
});

test("findKey: O(1) steps forward, binary search backward, always the right segment", () => {
  const times = new Float32Array(Array.from({ length: 100 }, (_, i) => i * 0.1));
  fc.assert(
    fc.property(fc.double({ min: 0, max: 9.89, noNaN: true }), fc.integer({ min: -5, max: 120 }), (t, hint) => {
      const k = findKey(times, t, hint);
      assert.ok(times[k]! <= t && t < times[k + 1]!, `t ${t} k ${k}`);
    }),
  );
});

test("looping: sampling at t and t + duration agree", () => {
  const d = clip.duration;
  fc.assert(
    fc.property(fc.double({ min: 0, max: 10, noNaN: true }), (t) => {
      const a = createPose(3), b = createPose(3);
      const w = wrapTime(t, d, "loop"), w2 = wrapTime(t + d, d, "loop");
      // This clip is not seamless: within rounding of a loop boundary the two may sit on either side.
      fc.pre(Math.abs(w - w2) < d / 2);
      sampleClip(a, clip, w, createClipCursor(clip));
      sampleClip(b, clip, w2, createClipCursor(clip));
      for (const k of ["t", "r", "s"] as const) for (let i = 0; i < a[k].length; i++) assert.ok(Math.abs(a[k][i]! - b[k][i]!) < 1e-4);
    }),
  );
});

test("sampleFloatTracks lerps morph weights into a flat array", () => {
  const out = new Float32Array(floatTrackLength(clip));
  const cursor = createClipCursor(clip);
  sampleFloatTracks(out, clip, 0.5, cursor);
  assert.deepEqual([...out], [0.25, 0.75]);
  sampleFloatTracks(out, clip, 9, cursor);
  assert.deepEqual([...out], [1, 0]);
});

test("programmer errors throw: a cursor of another clip, out = rest pose", () => {
  const other = createClip({ name: "other", skeleton, tracks: [] });
  assert.throws(() => sampleClip(createPose(3), clip, 0, createClipCursor(other)), /cursor belongs/);
  assert.throws(() => sampleClip(skeleton.rest, clip, 0, createClipCursor(clip)), /rest pose/);
  const direct = quatSlerp(new Float64Array(4), 0, [0, 0, 0, 1], 0, [0, 0, 0, 1], 0, 0.5);
  assert.deepEqual([...direct], [0, 0, 0, 1]);
});
