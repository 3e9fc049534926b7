import { argumentError, expectNotDisposed, invalidValue } from "../errors/check-argument.ts";
import { AnimgraphError } from "../errors/animgraph-error.ts";
import type { CompiledGraph } from "./compiled-graph.ts";
import type { GraphInstance, MachineInstance, StepResult } from "./graph-instance.ts";

// Boundary checks for the runtime's calls (step, setParam, …): a few property tests per call, no
// allocation, nothing per joint or per state.

/** A graph from `compileGraph` (its `graph`, not the result object holding it). */
export function expectCompiledGraph(fn: string, argument: string, value: unknown): asserts value is CompiledGraph {
  const graph = value as Partial<CompiledGraph> | null;
  if (typeof graph !== "object" || graph === null || !Array.isArray(graph.machines) || !Array.isArray(graph.layers)
    || !Array.isArray(graph.params) || typeof graph.skeleton !== "object" || graph.skeleton === null || typeof graph.options !== "object") {
    const hint = typeof graph === "object" && graph !== null && "diagnostics" in graph ? " (the `graph` of compileGraph's result, not the result)" : "";
    throw argumentError(fn, argument, `a CompiledGraph from compileGraph${hint}`, value);
  }
}

/**
 * An instance from `createInstance`, not disposed; with `graph`, one created for that graph's
 * skeleton (another skeleton's instance is ERR_SKELETON_MISMATCH).
 */
export function expectInstance(fn: string, argument: string, value: unknown, graph?: CompiledGraph): asserts value is GraphInstance {
  const instance = value as Partial<GraphInstance> | null;
  if (typeof instance !== "object" || instance === null || !(instance.params instanceof Float64Array)
    || !Array.isArray(instance.layers) || typeof instance.graph !== "object" || instance.graph === null) {
    const hint = typeof instance === "object" && instance !== null && "instance" in instance ? " (the `instance` of createAnimator's result, not the result)" : "";
    throw argumentError(fn, argument, `a GraphInstance from createInstance${hint}`, value);
  }
  expectNotDisposed(fn, argument, instance.disposed === true);
  if (graph !== undefined && instance.graph !== graph) {
    const code = instance.graph.skeleton.jointCount !== graph.skeleton.jointCount ? "ERR_SKELETON_MISMATCH" : "ERR_INVALID_VALUE";
    throw new AnimgraphError(code, `${fn}: ${argument} was created for another graph ("${instance.graph.name}"), not this one ("${graph.name}")`,
      { argument, expected: "an instance created by createInstance(graph) for this graph", received: "an instance of another graph" });
  }
}

/**
 * What `step(graph, instance, dt)` returned for this instance (its `instance.result`): a snapshot of
 * another instance's result would name states of another character.
 */
export function expectStepResult(fn: string, argument: string, value: unknown, instance: GraphInstance): asserts value is StepResult {
  if (value === instance.result) return;
  const result = value as Partial<StepResult> | null;
  if (typeof result !== "object" || result === null || !Array.isArray(result.layers) || typeof result.events !== "object"
    || !(result.rootDelta instanceof Float64Array)) {
    throw argumentError(fn, argument, "a StepResult (what step(graph, instance, dt) returned)", value);
  }
  throw invalidValue(fn, argument, "is the result of another instance's step; pass what step(graph, instance, dt) returned for this instance");
}

/**
 * A machine instance of `instance` (one of `instance.layers`, or of `instance.machines` for nested
 * machines): one of another character is ERR_INVALID_VALUE. An identity test, so the per-frame path
 * pays one array load.
 */
export function expectMachineOf(fn: string, argument: string, value: unknown, instance: GraphInstance): asserts value is MachineInstance {
  const mi = value as Partial<MachineInstance> | null;
  if (typeof mi === "object" && mi !== null && typeof mi.machine === "object" && mi.machine !== null
    && instance.machines[mi.machine.id] === mi) return;
  if (typeof mi !== "object" || mi === null || typeof mi.machine !== "object" || mi.machine === null || !(mi.stateWeight instanceof Float64Array)) {
    throw argumentError(fn, argument, "a MachineInstance (an element of instance.layers or instance.machines)", value);
  }
  throw invalidValue(fn, argument, "belongs to another instance; pass one of this instance's layers or machines");
}
