import { AnimgraphError } from "../errors/animgraph-error.ts";
import { argumentError, describeValue, expectInteger, expectObject, invalidValue, rangeError } from "../errors/check-argument.ts";
import { expectCompiledGraph } from "../graph/check-graph.ts";
import type { CompiledGraph } from "../graph/compiled-graph.ts";
import type { CrowdWorkersOptions, GraphRecipe } from "./crowd-workers.ts";

// Boundary checks of the worker-thread crowd (Node only): the recipe every thread builds its graph
// from, the count and options, and each frame's dt. A recipe whose module cannot be imported, or
// whose export is not a graph factory, is the caller's mistake too: AnimgraphError naming the part.

/** More threads than this is a mistake (each holds a copy of the graph), not a configuration. */
const MAX_WORKERS = 1024;

/** A GraphRecipe: a module (file URL or absolute path) and the name of its export that builds the graph. */
export function expectGraphRecipe(fn: string, argument: string, value: unknown): asserts value is GraphRecipe {
  const recipe = value as Partial<GraphRecipe> | null;
  if (typeof recipe !== "object" || recipe === null || Array.isArray(recipe)) {
    throw argumentError(fn, argument, "a GraphRecipe { module, exportName, args? }", value);
  }
  if (typeof recipe.module !== "string" || recipe.module === "") {
    throw argumentError(fn, `${argument}.module`, "a non-empty string (a file URL or an absolute path)", recipe.module);
  }
  if (typeof recipe.exportName !== "string" || recipe.exportName === "") {
    throw argumentError(fn, `${argument}.exportName`, "a non-empty string (the name of the module's graph factory)", recipe.exportName);
  }
}

/** Imports the recipe's module; a module that cannot be imported is ERR_INVALID_VALUE naming it, with the reason. */
export async function importRecipeModule(fn: string, recipe: GraphRecipe): Promise<Record<string, unknown>> {
  try {
    return (await import(recipe.module)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new AnimgraphError("ERR_INVALID_VALUE", `${fn}: recipe.module: cannot import ${JSON.stringify(recipe.module)}: ${reason}`, { argument: "recipe.module", cause: error });
  }
}

/** The recipe's export is a function (the graph factory). */
export function expectGraphFactory(fn: string, recipe: GraphRecipe, factory: unknown): asserts factory is (args: unknown) => unknown {
  if (typeof factory !== "function") {
    throw invalidValue(fn, "recipe.exportName", `${JSON.stringify(recipe.module)} does not export a function ${JSON.stringify(recipe.exportName)} (got ${describeValue(factory)})`);
  }
}

/** What the factory built is a CompiledGraph (not compileGraph's result object, not undefined). */
export function expectBuiltGraph(fn: string, recipe: GraphRecipe, graph: unknown): asserts graph is CompiledGraph {
  try {
    expectCompiledGraph(fn, "graph", graph);
  } catch (error) {
    const why = error instanceof AnimgraphError && error.expected !== undefined ? `, not ${error.expected}` : "";
    throw invalidValue(fn, "recipe", `${recipe.exportName}() of ${JSON.stringify(recipe.module)} returned ${describeValue(graph)}${why}`);
  }
}

/** createCrowdWorkers's recipe, count and options (workers is required). */
export function expectCrowdWorkersArguments(recipe: unknown, count: unknown, options: unknown): void {
  const fn = "createCrowdWorkers";
  expectGraphRecipe(fn, "recipe", recipe);
  expectInteger(fn, "count", count, 0, 0x7fffffff);
  expectObject(fn, "options", options);
  const o = options as Partial<CrowdWorkersOptions>;
  expectInteger(fn, "options.workers", o.workers, 1, MAX_WORKERS);
  for (const key of ["share", "kernel", "localPoses"] as const) {
    if (o[key] !== undefined && typeof o[key] !== "boolean") throw argumentError(fn, `options.${key}`, "a boolean or undefined", o[key]);
  }
  if (o.startTimes !== undefined) {
    if (!(o.startTimes instanceof Float64Array)) throw argumentError(fn, "options.startTimes", "a Float64Array (seconds per character) or undefined", o.startTimes);
    if (o.startTimes.length < count) throw rangeError(fn, "options.startTimes", `a Float64Array of at least ${count} numbers (one per character)`, o.startTimes);
  }
}

/** CrowdWorkers.evaluate's dt, and the crowd not terminated (its workers are gone: waiting would hang). */
export function expectWorkersStep(terminated: boolean, dt: unknown): void {
  if (terminated) {
    throw new AnimgraphError("ERR_DISPOSED", "CrowdWorkers.evaluate: the workers were terminated; create new ones with createCrowdWorkers", {
      argument: "this", expected: "CrowdWorkers not yet terminated", received: "terminated CrowdWorkers",
    });
  }
  if (typeof dt !== "number") throw argumentError("CrowdWorkers.evaluate", "dt", "a number of seconds", dt);
  if (!(dt >= 0 && dt < Infinity)) throw rangeError("CrowdWorkers.evaluate", "dt", "a finite number of seconds ≥ 0", dt);
}
