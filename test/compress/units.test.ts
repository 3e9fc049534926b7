import { test } from "node:test";
import assert from "node:assert/strict";
import { estimateUnitsPerMetre, parseLength } from "../../src/compress/units.ts";
import { loadBvh } from "../../src/io/bvh/load-bvh.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";

test("parseLength: lengths with a unit become metres", () => {
  const rows: [string, number][] = [["0.1mm", 1e-4], ["1e-4m", 1e-4], ["0.01cm", 1e-4], ["3cm", 0.03], [".5mm", 5e-4], ["2M", 2], [" 1mm ", 1e-3]];
  for (const [text, metres] of rows) {
    const v = parseLength(text);
    assert.ok(v !== undefined && Math.abs(v - metres) < metres * 1e-12, `${text} → ${v}`);
  }
});

test("parseLength: bare numbers, negatives, zero, unknown units and junk are rejected", () => {
  for (const text of ["0.1", "-1mm", "0mm", "1in", "mm", "", "1e999m", "abc", "1 mm", "NaNmm"]) assert.equal(parseLength(text), undefined, text);
});

test("estimateUnitsPerMetre: the rest pose's largest extent taken as 1.5 m", () => {
  const rest = createPose(2);
  rest.t[4] = 150; // a 150-unit bone straight up
  const skeleton = createSkeleton({ names: ["a", "b"], parents: [-1, 0], rest });
  assert.equal(estimateUnitsPerMetre(skeleton), 100);
  assert.equal(estimateUnitsPerMetre(skeleton, 1.5 / 2), 200);
  assert.equal(estimateUnitsPerMetre(createSkeleton({ names: ["x"], parents: [-1] })), 1);
});

test("estimateUnitsPerMetre on the CMU takes: within 20 % of the known factors", { skip: !HAVE_SHARED_ASSETS }, () => {
  const cmu = estimateUnitsPerMetre(loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh")).skeleton!);
  assert.ok(Math.abs(cmu / 17.72 - 1) < 0.2, `131_01: ${cmu}`);
  const cm = estimateUnitsPerMetre(loadBvh(sharedAsset("bvh-cmu-pirouette/pirouette.bvh")).skeleton!);
  assert.ok(Math.abs(cm / 100 - 1) < 0.2, `pirouette: ${cm}`);
});
