import { test } from "node:test";
import assert from "node:assert/strict";
import { contactIntervals, detectFootContacts } from "../../src/retarget/foot-contacts.ts";

/** A foot track at 100 keys per second from (height, forward speed) per key; up is +Y, H = 1. */
function footTrack(heights: number[], speeds: number[]): { p: Float64Array; times: Float64Array } {
  const n = heights.length;
  const p = new Float64Array(3 * n), times = new Float64Array(n);
  let x = 0;
  for (let f = 0; f < n; f++) {
    times[f] = f / 100;
    if (f > 0) x += speeds[f]! / 100;
    p[3 * f] = x;
    p[3 * f + 1] = heights[f]!;
  }
  return { p, times };
}

test("detectFootContacts: planted while low and slow, lifted when high or fast, with hysteresis", () => {
  const heights = [...Array(30).fill(0), ...Array(20).fill(0.3), ...Array(30).fill(0.08), ...Array(30).fill(0)];
  const speeds = [...Array(30).fill(0), ...Array(20).fill(3), ...Array(30).fill(0), ...Array(30).fill(0)];
  const { p, times } = footTrack(heights, speeds);
  const out = new Uint8Array(times.length);
  detectFootContacts(out, p, times, [0, 1, 0], 1);
  // Key 29's central difference already sees the lift-off. 0.08 H is above the enter height (0.06) and
  // below the exit height (0.10): the lifted foot stays lifted until it is back on the ground at 80.
  assert.deepEqual(contactIntervals(out), [[0, 28], [80, 109]]);
  // The same 0.08 H right after a contact keeps the foot planted.
  const held = footTrack([...Array(30).fill(0), ...Array(30).fill(0.08)], Array(60).fill(0));
  const out2 = new Uint8Array(60);
  detectFootContacts(out2, held.p, held.times, [0, 1, 0], 1);
  assert.deepEqual(contactIntervals(out2), [[0, 59]]);
});

test("detectFootContacts: thresholds scale with the hip height; blips and gaps shorter than minDuration go", () => {
  const heights = [...Array(20).fill(0), 0.5, 0.5, ...Array(20).fill(0), ...Array(30).fill(1), 0, 0, ...Array(30).fill(1)];
  const { p, times } = footTrack(heights, Array(heights.length).fill(0));
  const out = new Uint8Array(times.length);
  detectFootContacts(out, p, times, [0, 1, 0], 1);
  // The two-key lift at 20–21 is a gap of 0.01 s (closed); the two-key dip at 72–73 a blip (dropped).
  assert.deepEqual(contactIntervals(out), [[0, 41]]);
  // Scaled by 100 (a capture in centimetres), the same motion gives the same contacts.
  const scaled = p.map((x) => 100 * x);
  const out100 = new Uint8Array(times.length);
  detectFootContacts(out100, scaled, times, [0, 1, 0], 100);
  assert.deepEqual(Array.from(out100), Array.from(out));
});
