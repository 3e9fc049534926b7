// Calls every exported function of animgraph's entry modules with wrong arguments and collects every
// call that fails other than by AnimgraphError: a raw TypeError or RangeError from inside, an error of
// another class, a promise rejected with one. Plain JavaScript with no Node import, so the same file
// runs under Node (test/errors/public-exports.test.ts, on the sources) and in Chromium (bundled by
// Vite against the packed package, test/errors/public-exports.browser.test.ts).
//
// The arguments mix wrong values (undefined, null, numbers, strings, empty objects and arrays, typed
// arrays of the wrong kind or length) with real values of the library (a skeleton, its pose, a pose of
// another skeleton, a clip, a compiled graph, an instance, a disposed instance, a spec), so calls get
// past their first check and reach the later ones.

/** Every function exported by the given modules, as [entry, name, fn], without duplicates by name. */
export function exportedFunctions(modules) {
  const seen = new Set();
  const out = [];
  for (const [entry, module] of Object.entries(modules)) {
    for (const name of Object.keys(module).sort()) {
      const value = module[name];
      if (typeof value !== "function" || seen.has(name)) continue;
      seen.add(name);
      out.push([entry, name, value]);
    }
  }
  return out;
}

function isClass(fn) {
  return /^class[\s{]/.test(Function.prototype.toString.call(fn));
}

/** Real values of the library, built through its own public API (so the browser bundle builds its own). */
export function makeFixtures(lib) {
  const skeleton = lib.createSkeleton({ names: ["root", "spine", "head"], parents: [-1, 0, 1] });
  const otherSkeleton = lib.createSkeleton({ names: ["a", "b", "c", "d", "e"], parents: [-1, 0, 1, 2, 3] });
  const times = new Float32Array([0, 0.5, 1]);
  const clip = lib.createClip({
    name: "walk", skeleton,
    tracks: [{ joint: 1, path: "rotation", interpolation: "LINEAR", stride: 4, times, values: new Float32Array([0, 0, 0, 1, 0, 0.3826834, 0, 0.9238795, 0, 0, 0, 1]) },
      { joint: 0, path: "translation", interpolation: "LINEAR", stride: 3, times, values: new Float32Array([0, 1, 0, 0.5, 1.1, 0, 1, 1, 0]) }],
  });
  const spec = {
    animgraph: 1, name: "fixture", parameters: { speed: { type: "float", default: 0 }, jump: { type: "trigger" } },
    layers: [{ name: "base", machine: { entry: "Walk", states: { Walk: { clip: "walk" }, Jump: { clip: "walk", loop: "clamp" } },
      transitions: [{ from: "Walk", to: "Jump", conditions: [{ param: "jump" }], duration: 0.1 }] } }],
  };
  const { graph } = lib.compileGraph(spec, skeleton, [clip]);
  if (!graph) throw new Error("the fixture graph does not compile");
  const disposed = lib.createInstance(graph);
  lib.disposeInstance(disposed);
  return {
    skeleton, otherSkeleton, clip, graph, spec,
    pose: () => lib.createPose(3),
    wrongPose: () => lib.createPose(5),
    instance: () => lib.createInstance(graph),
    disposed,
    specText: JSON.stringify(spec),
  };
}

/** The pool of arguments: [label, make()] — wrong values first, then real ones. */
export function argumentPool(fixtures) {
  return [
    ["undefined", () => undefined],
    ["null", () => null],
    ["0", () => 0],
    ["42", () => 42],
    ["-1", () => -1],
    ["0.5", () => 0.5],
    ["NaN", () => Number.NaN],
    ["Infinity", () => Number.POSITIVE_INFINITY],
    ["\"text\"", () => "text"],
    ["\"\"", () => ""],
    ["true", () => true],
    ["{}", () => ({})],
    ["[]", () => []],
    ["[1, 2, 3]", () => [1, 2, 3]],
    ["Float32Array(2)", () => new Float32Array(2)],
    ["Float64Array(16)", () => new Float64Array(16)],
    ["Int16Array(3)", () => new Int16Array(3)],
    ["Uint8Array(8)", () => new Uint8Array(8)],
    ["() => 0", () => () => 0],
    ["skeleton", () => fixtures.skeleton],
    ["otherSkeleton", () => fixtures.otherSkeleton],
    ["pose", fixtures.pose],
    ["poseOfAnotherSkeleton", fixtures.wrongPose],
    ["clip", () => fixtures.clip],
    ["graph", () => fixtures.graph],
    ["instance", fixtures.instance],
    ["disposedInstance", () => fixtures.disposed],
    ["specObject", () => JSON.parse(JSON.stringify(fixtures.spec))],
    ["specText", () => fixtures.specText],
  ];
}

const TIMEOUT_MS = 10_000;

/**
 * Calls `fn` with `args` (with `new` for a class). Returns undefined when it returned, threw an
 * AnimgraphError, or returned a promise that settled so; otherwise a description of what escaped.
 */
export async function callOnce(fn, args) {
  let result;
  try {
    result = isClass(fn) ? new fn(...args) : fn(...args);
  } catch (error) {
    return judge(error);
  }
  if (result !== null && typeof result === "object" && typeof result.then === "function") {
    let timer;
    const timeout = new Promise((resolve) => { timer = globalThis.setTimeout(() => resolve("timeout"), TIMEOUT_MS); });
    const settled = await Promise.race([result.then(() => undefined, (error) => judge(error)), timeout]);
    globalThis.clearTimeout(timer);
    if (settled === "timeout") return `the promise did not settle in ${TIMEOUT_MS / 1000} s`;
    return settled;
  }
  // Objects that hold workers or timers are released, so the run ends cleanly.
  if (result !== null && typeof result === "object") {
    if (typeof result.terminate === "function") await result.terminate();
  }
  return undefined;
}

function judge(error) {
  if (error !== null && typeof error === "object" && error.name === "AnimgraphError" && typeof error.code === "string") return undefined;
  const name = error !== null && typeof error === "object" ? error.constructor?.name ?? "object" : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  const at = error instanceof Error && typeof error.stack === "string" ? error.stack.split("\n").slice(1, 3).map((l) => l.trim()).join(" ← ") : "";
  return `${name}: ${message}${at ? ` (${at})` : ""}`;
}

/**
 * Property: for each exported function, `runs` random argument lists (length: its declared parameters
 * plus one) drawn from the pool. Returns one line per function that let something other than an
 * AnimgraphError escape, with fast-check's shrunk arguments and seed.
 */
export async function findRawErrors(fc, modules, lib, { runs = 40, seed, skip = [] } = {}) {
  const fixtures = makeFixtures(lib);
  const pool = argumentPool(fixtures);
  const failures = [];
  let calls = 0;
  for (const [entry, name, fn] of exportedFunctions(modules)) {
    if (skip.includes(name)) continue;
    const arity = Math.min(Math.max(fn.length, 1) + 1, 6);
    const property = fc.asyncProperty(fc.array(fc.nat(pool.length - 1), { minLength: arity, maxLength: arity }), async (picks) => {
      calls++;
      const problem = await callOnce(fn, picks.map((i) => pool[i][1]()));
      if (problem !== undefined) throw new Error(problem);
    });
    const details = await fc.check(property, { numRuns: runs, ...(seed === undefined ? {} : { seed }), endOnFailure: false });
    if (details.failed) {
      const args = details.counterexample[0].map((i) => pool[i][0]).join(", ");
      const why = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      failures.push(`${entry} ${name}(${args}) → ${why} [seed ${details.seed}]`);
    }
  }
  return { failures, calls, functions: exportedFunctions(modules).length };
}
