import type { Severity } from "../diagnostics/diagnostic.ts";

/** One stable code the spec parser or the linter reports, with its severity and a one-line summary. */
export interface LintCodeInfo {
  readonly severity: Severity;
  readonly summary: string;
}

/**
 * Every code `parseGraphSpec` and `lintGraph` report (docs/spec-format.md lists the same table; a test
 * keeps them equal). Used for SARIF rule descriptions. Codes of the JSON layer, the blend-space
 * compiler and blend-check that appear in lint output are listed too.
 */
export const LINT_CODES: Readonly<Record<string, LintCodeInfo>> = {
  // JSON layer (src/json)
  E_FILE_NOT_FOUND: { severity: "error", summary: "The spec file does not exist." },
  E_FILE_READ: { severity: "error", summary: "The spec file cannot be read." },
  E_FILE_TOO_LARGE: { severity: "error", summary: "The spec file is larger than the size limit." },
  E_NOT_UTF8: { severity: "error", summary: "The spec file is not UTF-8 text." },
  E_JSON_SYNTAX: { severity: "error", summary: "The file is not valid JSON." },
  E_JSON_TOO_DEEP: { severity: "error", summary: "Arrays and objects are nested too deeply." },
  E_JSON_TOO_LARGE: { severity: "error", summary: "The document holds more values than the limit." },
  E_JSON_NUMBER_TOO_LONG: { severity: "error", summary: "A number literal is longer than 4300 characters." },
  E_DUPLICATE_KEY: { severity: "error", summary: "A key appears twice in one object (e.g. two states with one name)." },
  E_BAD_UNICODE: { severity: "error", summary: "A string holds an unpaired surrogate." },
  W_BOM: { severity: "warning", summary: "The file starts with a byte-order mark." },
  E_WRONG_TYPE: { severity: "error", summary: "A value has the wrong JSON type." },
  E_MISSING_KEY: { severity: "error", summary: "A required key is missing." },
  E_NOT_INTEGER: { severity: "error", summary: "An integer was expected." },
  E_NOT_BOOLEAN: { severity: "error", summary: "true or false was expected." },
  E_NOT_FINITE: { severity: "error", summary: "A number is outside the double range." },
  E_OUT_OF_RANGE: { severity: "error", summary: "A number is outside its allowed range." },
  // Spec structure (src/spec)
  E_SPEC_VERSION: { severity: "error", summary: "\"animgraph\" is not 1 (the only format version)." },
  E_SPEC_UNKNOWN_KEY: { severity: "error", summary: "A key the format does not define (extension keys start with x-)." },
  E_SPEC_BAD_ENUM: { severity: "error", summary: "A value is not one of the allowed names." },
  E_SPEC_CONFLICT: { severity: "error", summary: "Two keys that exclude each other are both given (duration/durationFrames, exitTime/exitPermille)." },
  E_SPEC_MOTION: { severity: "error", summary: "A state has no motion or more than one (clip, blend1d, blend2d, machine)." },
  E_SPEC_RESERVED_NAME: { severity: "error", summary: "\"*\" names a state, or is a transition's target." },
  E_SPEC_DUPLICATE_NAME: { severity: "error", summary: "Two layers have the same name." },
  E_SPEC_RANGE: { severity: "error", summary: "A minimum is greater than its maximum." },
  E_SPEC_EMPTY: { severity: "error", summary: "A list that needs items is empty (layers, states, blend children)." },
  E_SPEC_ARITY: { severity: "error", summary: "A 2D blend space does not name exactly two parameters." },
  E_SPEC_LIMIT: { severity: "error", summary: "The spec is over a size limit (states, nesting, names…)." },
  E_SPEC_NOT_ALLOWED: { severity: "error", summary: "A key is not allowed here (min/max on a bool or trigger; mirror on a state that does not play a clip)." },
  E_SPEC_BAD_VALUE: { severity: "error", summary: "A value is not allowed (a trigger's default true)." },
  // Names and types (src/lint)
  E_UNKNOWN_STATE: { severity: "error", summary: "A transition or entry names a state the machine does not have." },
  E_UNKNOWN_PARAM: { severity: "error", summary: "A condition, blend, speed or weight names an undeclared parameter." },
  E_PARAM_TYPE: { severity: "error", summary: "A blend axis, speed or weight reads a bool or trigger parameter." },
  E_CONDITION_TYPE: { severity: "error", summary: "A condition compares a parameter with the wrong kind of value or op." },
  E_UNKNOWN_MASK: { severity: "error", summary: "A layer names an undeclared mask." },
  E_UNKNOWN_CLIP: { severity: "error", summary: "A motion names a clip that the clips file does not have." },
  E_UNKNOWN_JOINT: { severity: "error", summary: "A mask or an IK layer names a joint the skeleton does not have." },
  E_MIRROR_UNPAIRED: { severity: "error", summary: "A clip is mirrored but a joint whose name says its side has no joint for the other side." },
  E_MIRROR_AMBIGUOUS: { severity: "error", summary: "A clip is mirrored but a joint name says both sides or could pair with two joints." },
  E_MIRROR_UNKNOWN_JOINT: { severity: "error", summary: "A mirror pair names a joint the skeleton does not have." },
  E_MIRROR_PAIR_TWICE: { severity: "error", summary: "A joint appears in two mirror pairs." },
  E_IK_NOT_A_CHAIN: { severity: "error", summary: "An IK layer's joints do not form a chain (or a foot-placement layer without a pelvis has no joint above its legs)." },
  W_IK_UP_ACROSS_LEGS: { severity: "warning", summary: "A foot-placement layer's up is more than 45° from its legs' rest direction (feet to hips)." },
  W_EXIT_TIME_PAST_END: { severity: "warning", summary: "An exit time past the end of a state that plays once: its last pose holds until then." },
  W_BLEND_WITHOUT_DURATION: { severity: "warning", summary: "A transition inertializes or dead-blends but its duration is 0: it is a cut." },
  W_EVENT_OUT_OF_RANGE: { severity: "warning", summary: "An event's time is past the end of its clip." },
  W_UNUSED_PARAM: { severity: "warning", summary: "A parameter is declared but never read." },
  W_UNUSED_MASK: { severity: "warning", summary: "A mask is declared but no layer uses it." },
  // Flow (src/lint)
  W_UNREACHABLE_STATE: { severity: "warning", summary: "No chain of transitions leads from the entry state to this state." },
  W_DEAD_END_STATE: { severity: "warning", summary: "A state that is not final has no transition out." },
  E_TRANSITION_NEVER_FIRES: { severity: "error", summary: "A transition's conditions contradict each other or the parameters' ranges." },
  W_SHADOWED_TRANSITION: { severity: "warning", summary: "An earlier transition always fires first, so this one never does." },
  W_AMBIGUOUS_TRANSITIONS: { severity: "warning", summary: "Two transitions from one source can fire at once; only their order decides." },
  E_ZERO_DURATION_CYCLE: { severity: "error", summary: "Instant transitions form a cycle that could loop within one step." },
  E_TRANSITION_BUDGET: { severity: "error", summary: "A crossfade is outside the declared frame budget." },
  W_TRIGGER_SHARED_BY_LAYERS: { severity: "warning", summary: "A trigger is tested in two layers; the first layer to fire on it consumes it." },
  I_LINT_SKIPPED: { severity: "info", summary: "An analysis stopped early on a very large machine." },
  // Blend trees and spaces
  E_BLEND_DUPLICATE_POSITION: { severity: "error", summary: "Two children of a 1D blend tree sit at one position." },
  E_BLEND_SAME_PARAMS: { severity: "error", summary: "Both axes of a 2D blend space read one parameter." },
  E_BLEND_DUPLICATE_SAMPLE: { severity: "error", summary: "Two samples of a 2D blend space sit at one position." },
  E_BLEND_COLLINEAR: { severity: "warning", summary: "All samples of a freeform 2D blend space lie on one line." },
  E_BLEND_SAMPLE_NOT_FINITE: { severity: "error", summary: "A 2D sample's position is not finite." },
  E_BLEND_EMPTY: { severity: "error", summary: "A 2D blend space has no usable sample." },
  E_BLEND_GRID_INCOMPLETE: { severity: "error", summary: "A grid blend space lacks a sample at some grid point." },
  // Seed (blend-check) format, via src/blend-check
  E_AXIS_COUNT: { severity: "error", summary: "Seed format: the blend space does not have exactly two axes." },
  E_AXIS_RANGE: { severity: "error", summary: "Seed format: an axis's max is not above its min." },
  E_AXIS_PARAM_DUPLICATE: { severity: "error", summary: "Seed format: both axes read one query key." },
  E_BUDGET_RANGE: { severity: "error", summary: "Seed format: minFrames is greater than maxFrames." },
  E_BLEND_CORNERS_MISSING: { severity: "error", summary: "Seed format: the samples are not on the four corners." },
  E_SAMPLE_OUT_OF_RANGE: { severity: "error", summary: "Seed format: a sample lies outside the axes." },
  E_MISSING_CLIP: { severity: "error", summary: "Seed format: a sample's clip is not in clipSet." },
  E_DUPLICATE_TRANSITION: { severity: "error", summary: "Seed format: the same from -> to pair appears twice." },
  W_QUERY_OUT_OF_RANGE: { severity: "warning", summary: "Seed format: a query point lies outside the axes." },
};
