export type { AnimgraphErrorCode, AnimgraphErrorDetails } from "./animgraph-error.ts";
export { AnimgraphError, ANIMGRAPH_ERROR_CODES, isAnimgraphError } from "./animgraph-error.ts";
export type { TypedArrayKind } from "./check-argument.ts";
export {
  describeValue, argumentError, rangeError, invalidValue, expectObject, expectOptionalObject, expectArray, expectString, expectBoolean,
  expectFunction, expectNumber, expectNumberArrayAt, expectFiniteNumber, expectNumberInRange, expectInteger, expectOneOf, expectTypedArray, expectNumberArray,
  expectNotDisposed, expectPose, expectSkeleton, expectClip,
} from "./check-argument.ts";
