import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  AnimgraphError, ANIMGRAPH_ERROR_CODES, isAnimgraphError, describeValue, expectObject, expectOptionalObject, expectFiniteNumber,
  expectInteger, expectTypedArray, expectNumberArray, expectString, expectFunction, expectOneOf, expectNotDisposed, expectPose,
  expectSkeleton, expectClip, expectNumberInRange, createPose, createSkeleton, createClip,
} from "../../src/index.ts";

/** Runs `body`, which must throw an AnimgraphError; returns it. */
function caught(body: () => void): AnimgraphError {
  try {
    body();
  } catch (error) {
    assert.ok(error instanceof AnimgraphError, `expected AnimgraphError, got ${String(error)}`);
    return error;
  }
  assert.fail("did not throw");
}

test("AnimgraphError carries code, argument, expected and received, and is an Error", () => {
  const error = caught(() => expectObject("createAnimator", "spec", 42));
  assert.equal(error.name, "AnimgraphError");
  assert.equal(error.code, "ERR_ARGUMENT");
  assert.equal(error.argument, "spec");
  assert.equal(error.expected, "an object");
  assert.equal(error.received, "the number 42");
  assert.equal(error.message, "createAnimator: spec must be an object; got the number 42");
  assert.ok(error instanceof Error);
  assert.ok(isAnimgraphError(error));
  assert.ok(!isAnimgraphError(new TypeError("x")));
  // A copy of the class from another bundle is recognised by name and code.
  assert.ok(isAnimgraphError(Object.assign(new Error("m"), { name: "AnimgraphError", code: "ERR_ARGUMENT" })));
  assert.ok(ANIMGRAPH_ERROR_CODES.includes(error.code));
});

test("describeValue names what was passed", () => {
  assert.equal(describeValue(undefined), "undefined");
  assert.equal(describeValue(null), "null");
  assert.equal(describeValue(Number.NaN), "the number NaN");
  assert.equal(describeValue("abc"), 'the string "abc"');
  assert.equal(describeValue("x".repeat(40)), "a string of length 40");
  assert.equal(describeValue([1, 2]), "an array of length 2");
  assert.equal(describeValue(new Float32Array(3)), "a Float32Array of length 3");
  assert.equal(describeValue({}), "an object");
  assert.equal(describeValue(new Map()), "a Map");
  assert.equal(describeValue(() => 1), "a function");
  assert.equal(describeValue(Object.create(null)), "an object");
});

test("each check accepts what it describes and throws ERR_ARGUMENT or ERR_OUT_OF_RANGE otherwise", () => {
  expectObject("f", "a", {});
  expectOptionalObject("f", "a", undefined);
  assert.equal(caught(() => expectObject("f", "a", [])).code, "ERR_ARGUMENT");
  assert.equal(caught(() => expectOptionalObject("f", "a", null)).code, "ERR_ARGUMENT");
  expectFiniteNumber("f", "a", 1.5);
  assert.equal(caught(() => expectFiniteNumber("f", "a", Infinity)).code, "ERR_ARGUMENT");
  expectInteger("f", "a", 3, 0, 3);
  assert.equal(caught(() => expectInteger("f", "a", 3.5)).code, "ERR_ARGUMENT");
  const range = caught(() => expectInteger("f", "jointCount", -1));
  assert.equal(range.code, "ERR_OUT_OF_RANGE");
  assert.equal(range.message, "f: jointCount must be an integer ≥ 0; got the number -1");
  assert.equal(caught(() => expectNumberInRange("f", "a", 2, 0, 1)).code, "ERR_OUT_OF_RANGE");
  assert.equal(caught(() => expectNumberInRange("f", "a", "1", 0, 1)).code, "ERR_ARGUMENT");
  expectTypedArray("f", "a", new Float32Array(4), Float32Array, 4);
  assert.equal(caught(() => expectTypedArray("f", "a", "abcd", Float32Array, 4)).message, "f: a must be a Float32Array of at least 4 numbers; got the string \"abcd\"");
  assert.equal(caught(() => expectTypedArray("f", "a", new Float32Array(3), Float32Array, 4)).code, "ERR_OUT_OF_RANGE");
  assert.equal(caught(() => expectTypedArray("f", "a", new Float64Array(4), Float32Array, 4)).code, "ERR_ARGUMENT");
  expectNumberArray("f", "a", [1, 2, 3, 4], 4);
  expectNumberArray("f", "a", new Float64Array(4), 4);
  assert.equal(caught(() => expectNumberArray("f", "a", "1234", 4)).code, "ERR_ARGUMENT");
  assert.equal(caught(() => expectNumberArray("f", "a", new DataView(new ArrayBuffer(16)), 4)).code, "ERR_ARGUMENT");
  expectString("f", "a", "");
  assert.equal(caught(() => expectString("f", "a", 1)).code, "ERR_ARGUMENT");
  expectFunction("f", "a", () => 0);
  assert.equal(caught(() => expectFunction("f", "a", {})).code, "ERR_ARGUMENT");
  expectOneOf("f", "mode", "loop", ["loop", "clamp"]);
  assert.match(caught(() => expectOneOf("f", "mode", "spin", ["loop", "clamp"])).message, /one of "loop", "clamp"/);
  expectNotDisposed("f", "instance", false);
  assert.equal(caught(() => expectNotDisposed("f", "instance", true)).code, "ERR_DISPOSED");
});

test("pose, skeleton and clip checks: shapes, and ERR_SKELETON_MISMATCH for another skeleton's pose or clip", () => {
  const skeleton = createSkeleton({ names: ["root", "hip"], parents: [-1, 0] });
  expectSkeleton("f", "skeleton", skeleton);
  expectPose("f", "pose", createPose(2), 2);
  const mismatch = caught(() => expectPose("f", "pose", createPose(5), skeleton.jointCount));
  assert.equal(mismatch.code, "ERR_SKELETON_MISMATCH");
  assert.equal(mismatch.message, "f: pose has 5 joints but the skeleton has 2; it is a pose of another skeleton");
  assert.equal(caught(() => expectPose("f", "pose", { jointCount: 2, t: new Float32Array(6), r: new Float32Array(2), s: new Float32Array(6) })).code, "ERR_ARGUMENT");
  assert.equal(caught(() => expectSkeleton("f", "skeleton", createPose(2))).code, "ERR_ARGUMENT");
  const clip = createClip({ name: "idle", skeleton, tracks: [] });
  expectClip("f", "clip", clip, 2);
  assert.equal(caught(() => expectClip("f", "clip", clip, 3)).code, "ERR_SKELETON_MISMATCH");
  assert.equal(caught(() => expectClip("f", "clip", skeleton)).code, "ERR_ARGUMENT");
});

test("property: every check throws only AnimgraphError, whatever it is given", () => {
  const checks: ((value: unknown) => void)[] = [
    (v) => expectObject("f", "a", v), (v) => expectFiniteNumber("f", "a", v), (v) => expectInteger("f", "a", v, -3, 7),
    (v) => expectTypedArray("f", "a", v, Float32Array, 3), (v) => expectNumberArray("f", "a", v, 3), (v) => expectString("f", "a", v),
    (v) => expectPose("f", "a", v, 2), (v) => expectSkeleton("f", "a", v), (v) => expectClip("f", "a", v, 2),
    (v) => expectOneOf("f", "a", v, ["x"]), (v) => expectNumberInRange("f", "a", v, 0, 1),
  ];
  fc.assert(fc.property(fc.anything({ withTypedArray: true, withMap: true, withSet: true, withNullPrototype: true }), fc.nat(checks.length - 1), (value, i) => {
    try {
      checks[i]!(value);
    } catch (error) {
      assert.ok(error instanceof AnimgraphError, String(error));
      assert.ok(error.message.startsWith("f: a "), error.message);
    }
  }));
});
