// The argument-message tests' one assertion: a call fails with AnimgraphError, this code, this message.
import assert from "node:assert/strict";
import { AnimgraphError } from "../../src/index.ts";

/** Asserts that `body` throws an AnimgraphError with this code and a message matching `message`. */
export function throwsArgument(body: () => unknown, code: string, message: RegExp): void {
  assert.throws(body, (error: unknown) => {
    assert.ok(error instanceof AnimgraphError, `expected AnimgraphError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.match(error.message, message);
    return true;
  });
}
