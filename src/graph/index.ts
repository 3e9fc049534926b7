// The graph runtime: compile a GraphSpec, create per-character instances, command them, step them.
export type {
  CompiledGraph, CompiledParam, CompiledCondition, CompiledTransition, CompiledEvent, CompiledMotion, CompiledState,
  CompiledMachine, CompiledLayer, InterruptMode, RuntimeOptions, ResolvedRuntimeOptions,
} from "./compiled-graph.ts";
export { OP, INTERRUPT, BLEND } from "./compiled-graph.ts";
export type { CompileGraphResult } from "./compile-graph.ts";
export { compileGraph, compileLintedGraph, resolveRuntimeOptions } from "./compile-graph.ts";
export type { ProceduralClip, ProceduralClipInit, MotionSource } from "./motion-source.ts";
export { createProceduralClip, isProceduralClip } from "./motion-source.ts";
export type { GraphInstance, MachineInstance, InertialState, PoseKeeper, StackEntry, StepResult, LayerStepInfo } from "./graph-instance.ts";
export { createInstance, disposeInstance } from "./graph-instance.ts";
export type { GraphEvent, GraphEventType, EventQueue } from "./graph-events.ts";
export type { TravelPlan } from "./commands.ts";
export { setParam, getParam, trigger, resetTrigger, travel } from "./commands.ts";
export { step } from "./step.ts";
export { evaluateMachine } from "./evaluate-machine.ts";
export type { Timeline, TimelineCommand, ParseTimelineResult } from "./timeline.ts";
export { parseTimeline, parseDt } from "./timeline.ts";
export { runTimeline, applyCommand, timelineStepCount } from "./run-timeline.ts";
export type { Hasher } from "./sha256.ts";
export { createSha256 } from "./sha256.ts";
export type { DigestRunOptions, RunDigest } from "./digest-run.ts";
export { digestRun, hashPose } from "./digest-run.ts";
export type { StepSnapshot, LayerSnapshot, EventSnapshot } from "./describe-step.ts";
export { describeStep, formatStepLine } from "./describe-step.ts";
export type { StepExplanation, MachineExplanation, TransitionExplanation, TransitionVerdict, ConditionExplanation } from "./explain-step.ts";
export { explainStep, formatExplanation } from "./explain-step.ts";
