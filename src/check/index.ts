export type { CheckOptions, CheckReport, CheckFinding, CheckFindingKind, CheckWitness, CheckExploration } from "./check-graph.ts";
export { checkGraph } from "./check-graph.ts";
export type { CheckProperty, ParsePropertiesResult } from "./properties.ts";
export { parseProperties } from "./properties.ts";
export type { CompiledProperty, StateRef } from "./explore.ts";
export type { WitnessTimeline, WitnessEvent } from "./witness.ts";
export { formatCheckReport } from "./format-check-report.ts";
