import { test } from "node:test";
import assert from "node:assert/strict";
import { aimChainIk, aimIk, footPlacement, twoBoneIk, writeModelPose } from "../../src/index.ts";
import { isAnimgraphError } from "../../src/errors/animgraph-error.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";

const rejects = (call: () => unknown, code: string, argument: RegExp): void => {
  assert.throws(call, (e: unknown) => isAnimgraphError(e) && e.code === code && argument.test(e.message), "expected an AnimgraphError");
};
const q8 = (): Float64Array => new Float64Array([0, 0, 0, 1, 0, 0, 0, 1]);
const p9 = (): Float64Array => new Float64Array([0, 0, 0, 0, -1, 0, 0, -2, 0]);

test("the IK jobs name a wrong argument with an AnimgraphError, never a TypeError from inside", () => {
  rejects(() => twoBoneIk(new Float64Array(4), 0, p9(), 0, 3, 6, q8(), 0, 4, [0, -1, 0], 0, [0, 0, 1], 0, 1), "ERR_OUT_OF_RANGE", /out must be/);
  rejects(() => twoBoneIk(new Float64Array(8), 0, p9(), 0, 3, 9, q8(), 0, 4, [0, -1, 0], 0, [0, 0, 1], 0, 1), "ERR_OUT_OF_RANGE", /positions/);
  rejects(() => twoBoneIk(new Float64Array(8), 0, p9(), 0, 3, 6, q8(), 0, 4, "up" as never, 0, [0, 0, 1], 0, 1), "ERR_ARGUMENT", /target/);
  rejects(() => twoBoneIk(new Float64Array(8), 0, p9(), 0, 3, 6, q8(), 0, 4, [0, -1, 0], 0, [0, 0, 1], 0, Number.NaN), "ERR_ARGUMENT", /weight/);
  rejects(() => twoBoneIk(new Float64Array(8), 0, p9(), 0, 3, 6, q8(), 0, 4, [0, -1, 0], 0, [0, 0, 1], 0, 1, 3 as never), "ERR_ARGUMENT", /settings/);
  rejects(() => twoBoneIk(new Float64Array(8), 0, p9(), 0, 3, 6, q8(), 0, 4, [0, -1, 0], 0, [0, 0, 1], 0, 1, { softness: Number.NaN }), "ERR_ARGUMENT", /settings\.softness/);
  rejects(() => twoBoneIk(new Float64Array(8), 0, p9(), 0, 3, 6, q8(), 0, 4, [0, -1, 0], 0, [0, 0, 1], 0, 1, { poleWeight: Number.POSITIVE_INFINITY }), "ERR_ARGUMENT", /settings\.poleWeight/);
  rejects(() => aimIk(new Float64Array(4), 0.5, [0, 0, 0, 1], 0, [0, 0, 0], 0, [0, 0, 1], 0, [1, 0, 0], 0, 1, 1), "ERR_ARGUMENT", /\bo\b/);
  rejects(() => aimIk(new Float64Array(4), 0, [0, 0, 0, 1], 0, [0, 0, 0], 0, [0, 0, 1], 0, [1, 0, 0], 0, undefined as never, 1), "ERR_ARGUMENT", /maxAngle/);
  rejects(() => aimChainIk(q8(), p9(), [0, 5], [1, 1], [1, 1], [0, 0, 1], 0, [1, 0, 0], 0, 1), "ERR_INVALID_VALUE", /chain/);
  rejects(() => aimChainIk(q8(), p9(), [0, 1], [1], [1, 1], [0, 0, 1], 0, [1, 0, 0], 0, 1), "ERR_OUT_OF_RANGE", /jointWeights/);
  rejects(() => footPlacement(q8(), p9(), 0, [0, 1], () => {}, 1), "ERR_INVALID_VALUE", /legs/);
  rejects(() => footPlacement(q8(), p9(), 0, [0, 1, 2], null as never, 1), "ERR_ARGUMENT", /ground/);
  // A zero or non-finite up or forward would move nothing or write NaN: refused, as a spec's zero up is.
  const flat = (out: Float64Array, o: number): void => out.set([0, 0, 1, 0], o);
  const q12 = (): Float64Array => new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
  rejects(() => footPlacement(q12(), p9(), 0, [0, 1, 2], flat, 1, { up: [0, 0, 0] }), "ERR_INVALID_VALUE", /settings\.up: \(0, 0, 0\) has no direction/);
  rejects(() => footPlacement(q12(), p9(), 0, [0, 1, 2], flat, 1, { forward: [Number.NaN, 0, 1] }), "ERR_INVALID_VALUE", /settings\.forward: \(NaN, 0, 1\) has no direction/);
  rejects(() => footPlacement(q12(), p9(), 0, [0, 1, 2], flat, 1, { up: [0, 1] }), "ERR_OUT_OF_RANGE", /settings\.up/);
  assert.equal(footPlacement(q12(), p9(), 0, [0, 1, 2], flat, 1, { up: [0, 2, 0], forward: [0, 0, 1] }), 0);
  const skeleton = createSkeleton({ names: ["a", "b"], parents: [-1, 0] });
  rejects(() => writeModelPose(createPose(3), skeleton, new Float64Array(8), new Float64Array(6), new Float64Array(2), new Uint8Array(2)), "ERR_SKELETON_MISMATCH", /pose/);
  rejects(() => writeModelPose(createPose(2), skeleton, new Float64Array(8), [0, 0, 0, 0, 0, 0] as never, new Float64Array(2), new Uint8Array(2)), "ERR_ARGUMENT", /\bp\b/);
});
