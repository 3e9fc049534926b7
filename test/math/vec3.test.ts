import { test } from "node:test";
import assert from "node:assert/strict";
import { vec3Add, vec3Cross, vec3Distance, vec3Dot, vec3Length, vec3Lerp, vec3Scale, vec3ScaleAndAdd, vec3Subtract } from "../../src/math/vec3.ts";

test("vec3 functions on offsets, out aliasing an input", () => {
  const a = new Float32Array([9, 1, 2, 3]);
  const b = [4, 5, 6];
  assert.deepEqual([...vec3Add(new Float64Array(3), 0, a, 1, b, 0)], [5, 7, 9]);
  assert.deepEqual([...vec3Subtract(new Float64Array(3), 0, b, 0, a, 1)], [3, 3, 3]);
  assert.deepEqual([...vec3Scale(new Float64Array(3), 0, b, 0, 2)], [8, 10, 12]);
  assert.deepEqual([...vec3ScaleAndAdd(new Float64Array(3), 0, a, 1, b, 0, 0.5)], [3, 4.5, 6]);
  assert.deepEqual([...vec3Lerp(new Float64Array(3), 0, a, 1, b, 0, 0.5)], [2.5, 3.5, 4.5]);
  assert.equal(vec3Dot(a, 1, b, 0), 32);
  assert.deepEqual([...vec3Cross(new Float64Array(3), 0, [1, 0, 0], 0, [0, 1, 0], 0)], [0, 0, 1]);
  assert.equal(vec3Length([3, 4, 12], 0), 13);
  assert.equal(vec3Distance([1, 1, 1], 0, [4, 5, 1], 0), 5);
  vec3Add(a, 1, a, 1, a, 1);
  assert.deepEqual([...a], [9, 2, 4, 6]);
});
