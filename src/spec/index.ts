// The graph spec: authoring types, the parser/validator, its key table, limits and defaults.
export type * from "./graph-spec.ts";
export type * from "./ik-spec.ts";
export { parseGraphSpec, type ParseGraphSpecOptions, type ParseGraphSpecResult, type ReadGraphSpecResult } from "./parse-graph-spec.ts";
export { SPEC_KEYS, SPEC_ENUMS, SPEC_DEFAULTS, ANY_STATE, EXTENSION_KEY_PREFIX, type SpecObjectKind } from "./spec-keys.ts";
export { DEFAULT_SPEC_LIMITS, type SpecLimits } from "./spec-limits.ts";
export { nodeAtPointer, locateDiagnostics } from "./locate-pointer.ts";
