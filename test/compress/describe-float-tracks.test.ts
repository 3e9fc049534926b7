import { test } from "node:test";
import assert from "node:assert/strict";
import type { FloatTrack } from "../../src/clip/clip.ts";
import { describeFloatTracks } from "../../src/compress/compress-clip.ts";

const track = (target: string, count = 1): FloatTrack => ({ target, node: -1, count, interpolation: "LINEAR", times: Float32Array.of(0), values: new Float32Array(count) });

test("describeFloatTracks names float tracks by what they animate: VRM expressions (by name), the look-at, morph weights", () => {
  assert.equal(describeFloatTracks([track("Face", 3)]), "1 morph-weight track");
  assert.equal(describeFloatTracks([track("Face", 3), track("Body", 2)]), "2 morph-weight tracks");
  assert.equal(describeFloatTracks([track("expression:happy"), track("lookAt", 4)]), '1 VRM expression track ("happy") and the VRM look-at track');
  const many = ["aa", "ih", "ou", "ee", "oh", "blink", "sad"].map((n) => track(`expression:${n}`));
  assert.equal(describeFloatTracks([...many, track("Face", 8)]), '7 VRM expression tracks ("aa", "ih", "ou", "ee", "oh", "blink", …) and 1 morph-weight track');
});
