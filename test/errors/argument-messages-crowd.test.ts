// The messages of the crowd calls' argument checks (issue 22): createCrowd and its options,
// createSampleCache, beginFrame, evaluateCrowd, evaluateCrowdSelected, and the worker crowd
// (buildGraph, createCrowdWorkers, CrowdWorkers.evaluate after terminate). The per-frame checks
// allocate nothing: the last test holds them to that on the heap.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  AnimgraphError, beginFrame, compileGraph, createClip, createCrowd, createSampleCache, createSkeleton, evaluateCrowd, evaluateCrowdSelected,
  type CompiledGraph,
} from "../../src/index.ts";
import { buildGraph, createCrowdWorkers } from "../../src/node.ts";
import { throwsArgument } from "../helpers/throws-argument.ts";

async function rejectsArgument(body: () => Promise<unknown>, code: string, message: RegExp): Promise<AnimgraphError> {
  let caught: unknown;
  await assert.rejects(body, (error: unknown) => {
    caught = error;
    assert.ok(error instanceof AnimgraphError, `expected AnimgraphError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.match(error.message, message);
    return true;
  });
  return caught as AnimgraphError;
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function smallGraph(): CompiledGraph {
  const skeleton = createSkeleton({ names: ["root", "spine", "head"], parents: [-1, 0, 1] });
  const times = new Float32Array([0, 0.5, 1]);
  const clip = createClip({
    name: "walk", skeleton,
    tracks: [{ joint: 1, path: "rotation", interpolation: "LINEAR", stride: 4, times, values: new Float32Array([0, 0, 0, 1, 0, 0.3826834, 0, 0.9238795, 0, 0, 0, 1]) }],
  });
  const spec = { animgraph: 1, name: "small", layers: [{ name: "base", machine: { entry: "Walk", states: { Walk: { clip: "walk" } } } }] };
  const { graph } = compileGraph(spec, skeleton, [clip]);
  assert.ok(graph);
  return graph;
}

test("createCrowd: the graph, the count and every option are checked before anything is allocated", () => {
  const graph = smallGraph();
  throwsArgument(() => createCrowd(undefined as never, 3), "ERR_ARGUMENT", /^createCrowd: graph must be a CompiledGraph from compileGraph; got undefined$/);
  throwsArgument(() => createCrowd(graph, -1), "ERR_OUT_OF_RANGE", /^createCrowd: count must be an integer in \[0, \d+\]; got the number -1$/);
  throwsArgument(() => createCrowd(graph, "10" as never), "ERR_ARGUMENT", /^createCrowd: count must be an integer; got the string "10"$/);
  throwsArgument(() => createCrowd(graph, 3, { share: "yes" } as never), "ERR_ARGUMENT", /^createCrowd: options\.share must be a boolean or undefined; got the string "yes"$/);
  throwsArgument(() => createCrowd(graph, 3, { timeQuantum: -0.1 }), "ERR_OUT_OF_RANGE", /^createCrowd: options\.timeQuantum must be a finite number of seconds ≥ 0; got the number -0\.1$/);
  throwsArgument(() => createCrowd(graph, 3, { root: new Float32Array(9) }), "ERR_ARGUMENT", /^createCrowd: options\.root must be a Float32Array of 16 numbers/);
  throwsArgument(() => createCrowd(graph, 3, { kernel: {} } as never), "ERR_ARGUMENT", /^createCrowd: options\.kernel must be a CrowdKernel \(from loadCrowdKernel or loadCrowdKernelSync\) or undefined; got an object$/);
  const pose = new ArrayBuffer(4 * 30 * 3), model = new ArrayBuffer(4 * 48 * 3);
  throwsArgument(() => createCrowd(graph, 3, { buffers: { pose, model, first: 1 } }), "ERR_OUT_OF_RANGE", /^createCrowd: options\.buffers\.pose must be an ArrayBuffer or SharedArrayBuffer of at least 480 bytes; got a buffer of 360 bytes$/);
  throwsArgument(() => createCrowd(graph, 3, { buffers: { pose: new Float32Array(90), model, first: 0 } } as never), "ERR_ARGUMENT", /^createCrowd: options\.buffers\.pose must be an ArrayBuffer or SharedArrayBuffer; got a Float32Array of length 90$/);
  const crowd = createCrowd(graph, 3, { buffers: { pose, model, first: 0 } });
  assert.equal(crowd.poseBuffer.buffer, pose, "buffers of the right size are used as they are");
  // localPoses false: the pose buffer is neither read nor written, so an empty one is fine.
  assert.equal(createCrowd(graph, 3, { localPoses: false, buffers: { pose: new ArrayBuffer(0), model, first: 0 } }).poseBuffer.length, 0);
});

test("createSampleCache and beginFrame: the graph, the share flag, the time quantum, the cache", () => {
  const graph = smallGraph();
  throwsArgument(() => createSampleCache({} as never), "ERR_ARGUMENT", /^createSampleCache: graph must be a CompiledGraph from compileGraph; got an object$/);
  throwsArgument(() => createSampleCache(graph, 1 as never), "ERR_ARGUMENT", /^createSampleCache: share must be a boolean; got the number 1$/);
  throwsArgument(() => createSampleCache(graph, true, Number.NaN), "ERR_OUT_OF_RANGE", /^createSampleCache: timeQuantum must be a finite number of seconds ≥ 0; got the number NaN$/);
  throwsArgument(() => beginFrame({ frame: "0" } as never), "ERR_ARGUMENT", /^beginFrame: cache must be a SampleCache \(from createSampleCache or a crowd's cache\); got an object$/);
  const cache = createSampleCache(graph);
  beginFrame(cache);
  assert.equal(cache.frame, 1);
});

test("evaluateCrowd and evaluateCrowdSelected: the crowd, the step, the range and every selected index", () => {
  const graph = smallGraph();
  const crowd = createCrowd(graph, 4);
  throwsArgument(() => evaluateCrowd({ count: 4 } as never, 0.1), "ERR_ARGUMENT", /^evaluateCrowd: crowd must be a Crowd \(from createCrowd\); got an object$/);
  throwsArgument(() => evaluateCrowd(undefined as never, 0.1), "ERR_ARGUMENT", /^evaluateCrowd: crowd must be a Crowd \(from createCrowd\); got undefined$/);
  throwsArgument(() => evaluateCrowd(crowd, -0.1), "ERR_OUT_OF_RANGE", /^evaluateCrowd: dt must be a finite number of seconds ≥ 0; got the number -0\.1$/);
  throwsArgument(() => evaluateCrowd(crowd, "1/60" as never), "ERR_ARGUMENT", /^evaluateCrowd: dt must be a number of seconds; got the string "1\/60"$/);
  throwsArgument(() => evaluateCrowd(crowd, 0.1, 2, 1), "ERR_OUT_OF_RANGE", /^evaluateCrowd: to must be an integer in \[2, 4\]; got the number 1$/);
  throwsArgument(() => evaluateCrowd(crowd, 0.1, 0, 5), "ERR_OUT_OF_RANGE", /^evaluateCrowd: to must be an integer in \[0, 4\]; got the number 5$/);
  throwsArgument(() => evaluateCrowd(crowd, 0.1, 0.5), "ERR_ARGUMENT", /^evaluateCrowd: from must be an integer; got the number 0\.5$/);
  evaluateCrowd(crowd, 0.1, 1, 3);
  assert.deepEqual(crowd.instances.map((i) => i.time), [0, 0.1, 0.1, 0], "only characters [1, 3) moved");
  const dts = new Float64Array(4).fill(0.05);
  throwsArgument(() => evaluateCrowdSelected(crowd, [0, 1] as never, 2, dts), "ERR_ARGUMENT", /^evaluateCrowdSelected: selected must be an Int32Array of character indices; got an array of length 2$/);
  throwsArgument(() => evaluateCrowdSelected(crowd, Int32Array.of(0, 4), 2, dts), "ERR_OUT_OF_RANGE", /^evaluateCrowdSelected: selected\[1\] must be a character index in \[0, 4\); got the number 4$/);
  throwsArgument(() => evaluateCrowdSelected(crowd, Int32Array.of(3), 1, Float64Array.of(0, 0, 0, -1)), "ERR_OUT_OF_RANGE", /^evaluateCrowdSelected: dts\[3\] must be a finite number of seconds ≥ 0; got the number -1$/);
  throwsArgument(() => evaluateCrowdSelected(crowd, Int32Array.of(3), 1, [0, 0, 0, 0] as never), "ERR_ARGUMENT", /^evaluateCrowdSelected: dts must be a Float32Array or Float64Array of 4 steps \(one per character\); got an array of length 4$/);
  // An index past selectedCount is not looked at.
  evaluateCrowdSelected(crowd, Int32Array.of(3, 99), 1, dts);
  assert.equal(crowd.instances[3]!.time, 0.05);
});

test("buildGraph and createCrowdWorkers: the recipe, the module, its export and what the factory returns", async () => {
  const robot = new URL("../crowd/robot-graph.ts", import.meta.url).href;
  await rejectsArgument(() => buildGraph(undefined as never), "ERR_ARGUMENT", /^buildGraph: recipe must be a GraphRecipe \{ module, exportName, args\? \}; got undefined$/);
  await rejectsArgument(() => buildGraph({ module: robot } as never), "ERR_ARGUMENT", /^buildGraph: recipe\.exportName must be a non-empty string \(the name of the module's graph factory\); got undefined$/);
  const missing = await rejectsArgument(() => buildGraph({ module: new URL("./no-such-module.ts", import.meta.url).href, exportName: "g" }), "ERR_INVALID_VALUE", /^buildGraph: recipe\.module: cannot import ".*no-such-module\.ts": /);
  assert.ok(missing.cause instanceof Error, "the import's own error is kept as the cause");
  await rejectsArgument(() => buildGraph({ module: robot, exportName: "robotGraf" }), "ERR_INVALID_VALUE", /^buildGraph: recipe\.exportName: ".*robot-graph\.ts" does not export a function "robotGraf" \(got undefined\)$/);
  const resultNotGraph = "data:text/javascript,export const compiled = () => ({ diagnostics: [] });";
  await rejectsArgument(() => buildGraph({ module: resultNotGraph, exportName: "compiled" }), "ERR_INVALID_VALUE", /^buildGraph: recipe: compiled\(\) of "data:.*" returned an object, not a CompiledGraph from compileGraph \(the `graph` of compileGraph's result, not the result\)$/);
  const recipe = { module: robot, exportName: "robotGraph" };
  await rejectsArgument(() => createCrowdWorkers(recipe, 4, undefined as never), "ERR_ARGUMENT", /^createCrowdWorkers: options must be an object; got undefined$/);
  await rejectsArgument(() => createCrowdWorkers(recipe, 4, { workers: 0 }), "ERR_OUT_OF_RANGE", /^createCrowdWorkers: options\.workers must be an integer in \[1, 1024\]; got the number 0$/);
  await rejectsArgument(() => createCrowdWorkers(recipe, 4, { workers: 1, startTimes: new Float64Array(2) }), "ERR_OUT_OF_RANGE", /^createCrowdWorkers: options\.startTimes must be a Float64Array of at least 4 numbers \(one per character\); got a Float64Array of length 2$/);
  await rejectsArgument(() => createCrowdWorkers(recipe, 4, { workers: 1, kernel: 1 } as never), "ERR_ARGUMENT", /^createCrowdWorkers: options\.kernel must be a boolean or undefined; got the number 1$/);
});

test("CrowdWorkers.evaluate: a bad dt, and a call after terminate is ERR_DISPOSED instead of waiting forever", { timeout: 120_000 }, async () => {
  const recipe = { module: new URL("../crowd/robot-graph.ts", import.meta.url).href, exportName: "robotGraph" };
  const workers = await createCrowdWorkers(recipe, 2, { workers: 1 });
  try {
    throwsArgument(() => workers.evaluate(Number.POSITIVE_INFINITY), "ERR_OUT_OF_RANGE", /^CrowdWorkers\.evaluate: dt must be a finite number of seconds ≥ 0; got the number Infinity$/);
    workers.evaluate(1 / 30);
    assert.ok(workers.model.some((x) => x !== 0), "the workers wrote model matrices");
  } finally {
    await workers.terminate();
  }
  throwsArgument(() => workers.evaluate(1 / 30), "ERR_DISPOSED", /^CrowdWorkers\.evaluate: the workers were terminated; create new ones with createCrowdWorkers$/);
});

test("the per-frame checks allocate nothing", () => {
  const graph = smallGraph();
  const crowd = createCrowd(graph, 4);
  const none = new Int32Array(0), dts = new Float64Array(4);
  const frame = (): void => {
    // No character is selected, so what runs is the argument checks (and the cache's frame counter).
    evaluateCrowdSelected(crowd, none, 0, dts);
    beginFrame(crowd.cache);
  };
  for (let k = 0; k < 20_000; k++) frame();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let k = 0; k < 200_000; k++) frame();
  const growth = process.memoryUsage().heapUsed - before;
  // A single allocation per call would be at least 16 bytes × 200,000 = 3.2 MB.
  assert.ok(growth < 256 * 1024, `heap grew by ${growth} bytes over 200,000 checked calls`);
});
