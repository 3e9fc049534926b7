// The wrong-arguments property of public-exports.test.ts, run where browser users run animgraph: the
// package packed with `npm pack`, installed in a fresh app that imports its three browser entries
// (animgraph, animgraph/three, animgraph/babylon), bundled by Vite with its defaults (minified, as a
// user ships it), and loaded in headless Chromium. The page runs the same harness
// (wrong-arguments.mjs, which has no Node import) over every function the bundle exports; errors come
// back across the page boundary as plain data, so they are judged by `name` and `code`, and
// `instanceof` is checked inside the page. The README's first API example runs in the same page, with
// its one Node-only line (reading the robot from a path) swapped for the browser's fetch.
// dist/ is built by `npm test` before this runs.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import * as babylon from "../../src/babylon/index.ts";
import * as index from "../../src/index.ts";
import * as three from "../../src/three/index.ts";
import { repoPath } from "../helpers/assets.ts";
import { NO_CHROMIUM as skip, openPackedExample, type PackedExample } from "../helpers/packed-example.ts";
// @ts-expect-error -- plain JavaScript shared with the browser page
import { UNCHECKED_EXPORTS } from "./unchecked-exports.mjs";
// @ts-expect-error -- plain JavaScript shared with the browser page
import { exportedFunctions } from "./wrong-arguments.mjs";

const RUNS = Number(process.env["FC_NUM_RUNS"] ?? 100);
const SEED = process.env["FC_SEED"];

// The page: the harness over the bundle's exports, an instanceof probe, and the README example on demand.
const MAIN_JS = `
import fc from "fast-check";
import * as animgraph from "animgraph";
import * as three from "animgraph/three";
import * as babylon from "animgraph/babylon";
import { UNCHECKED_EXPORTS } from "./unchecked-exports.mjs";
import { exportedFunctions, findRawErrors } from "./wrong-arguments.mjs";

const ENTRIES = { animgraph, "animgraph/three": three, "animgraph/babylon": babylon };

window.animgraphTest = {
  exportNames: () => exportedFunctions(ENTRIES).map(([entry, name]) => entry + " " + name),
  wrongArguments: (options) => findRawErrors(fc, ENTRIES, animgraph, { ...options, skip: UNCHECKED_EXPORTS }),
  probe() {
    try {
      animgraph.createPose("12");
    } catch (error) {
      return { instanceOf: error instanceof animgraph.AnimgraphError, isError: error instanceof Error, recognised: animgraph.isAnimgraphError(error),
        name: error.name, code: error.code, argument: error.argument, expected: error.expected, message: error.message };
    }
    return undefined;
  },
  async readmeExample() {
    const lines = [];
    const log = console.log;
    console.log = (...parts) => lines.push(parts.join(" "));
    try {
      await import("./readme-example.js");
    } finally {
      console.log = log;
    }
    return lines;
  },
};
document.body.dataset.ready = "yes";
`;

/** The README's first API example (the first js block after "## The API"), as it stands in README.md. */
function readmeFirstExample(): string {
  const readme = readFileSync(repoPath("README.md"), "utf8");
  const match = /```js\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf("\n## The API\n")));
  assert.ok(match, "README has a js example under ## The API");
  return match[1]!;
}

/**
 * The example for the browser: it imports from "animgraph" instead of "animgraph/node" and reads the
 * robot with fetch + loadGltf instead of loadGltfFile(path). Everything else runs as written; the
 * check that nothing else names Node keeps the swap honest.
 */
function forTheBrowser(code: string): string {
  const swaps: [RegExp, string][] = [
    [/ from "animgraph\/node";/, ' from "animgraph";'],
    [/\bloadGltfFile,/, "loadGltf,"],
    [/await loadGltfFile\("[^"]*RobotExpressive\.glb"\)/, 'await loadGltf(new Uint8Array(await (await fetch("/RobotExpressive.glb")).arrayBuffer()))'],
  ];
  let out = code;
  for (const [from, to] of swaps) {
    assert.equal(out.match(new RegExp(from.source, "g"))?.length, 1, `the README example has ${from.source} once`);
    out = out.replace(from, to);
  }
  assert.doesNotMatch(out, /animgraph\/node|loadGltfFile|node:|readFileSync|process\./, "the example uses nothing else of Node");
  return out;
}

let example: PackedExample | undefined;
let page: Page;
let buildWarnings: readonly string[] = [];
let pageErrors: string[] = [];

before(async () => {
  if (skip) return;
  example = await openPackedExample({
    "index.html": { text: '<!doctype html><html><head><link rel="icon" href="data:,"></head><body><script type="module" src="./main.js"></script></body></html>' },
    "main.js": { text: MAIN_JS },
    "readme-example.js": { text: forTheBrowser(readmeFirstExample()) },
    "wrong-arguments.mjs": repoPath("test/errors/wrong-arguments.mjs"),
    "unchecked-exports.mjs": repoPath("test/errors/unchecked-exports.mjs"),
  }, { width: 800, height: 600 });
  ({ page, buildWarnings, errors: pageErrors } = example);
  await page.waitForFunction(() => document.body.dataset["ready"] === "yes", undefined, { timeout: 60_000 });
}, { timeout: 300_000 });

after(async () => {
  await example?.close();
});

interface PageApi {
  exportNames(): string[];
  wrongArguments(options: { runs: number; seed?: number }): Promise<{ failures: string[]; calls: number; functions: number }>;
  probe(): Record<string, unknown> | undefined;
  readmeExample(): Promise<string[]>;
}
/** Calls the page's test API (the function runs in the page, so it names nothing of this file). */
function inPage<K extends keyof PageApi>(method: K, argument?: Parameters<PageApi[K]>[0]): Promise<Awaited<ReturnType<PageApi[K]>>> {
  return page.evaluate(([m, a]) => (window as unknown as { animgraphTest: Record<string, (x: unknown) => unknown> }).animgraphTest[m]!(a),
    [method, argument] as const) as Promise<Awaited<ReturnType<PageApi[K]>>>;
}

test("the bundle exports every function of the three browser entries, and Vite printed no warning", { skip, timeout: 60_000 }, async () => {
  assert.deepEqual(buildWarnings, []);
  const listed = await inPage("exportNames");
  const fromSources = (exportedFunctions({ animgraph: index, "animgraph/three": three, "animgraph/babylon": babylon }) as [string, string][])
    .map(([entry, name]) => `${entry} ${name}`);
  assert.ok(listed.length > 200, `the entries were listed in the page (${listed.length} functions)`);
  assert.deepEqual(listed, fromSources);
});

test("in the browser bundle, every exported function throws only AnimgraphError on wrong arguments", { skip, timeout: 900_000 }, async () => {
  const options = { runs: RUNS, ...(SEED ? { seed: Number(SEED) } : {}) };
  const result = await inPage("wrongArguments", options);
  const skipped = (exportedFunctions({ animgraph: index, "animgraph/three": three, "animgraph/babylon": babylon }) as [string, string][])
    .filter(([, name]) => (UNCHECKED_EXPORTS as string[]).includes(name)).length;
  assert.deepEqual(result.failures, [], `${result.failures.length} exports of the bundle let a raw error escape:\n${result.failures.join("\n")}`);
  assert.ok(result.calls >= (result.functions - skipped) * RUNS * 0.9, `each function was called (${result.calls} calls over ${result.functions} functions)`);
  assert.deepEqual(pageErrors, []);
});

test("an AnimgraphError thrown in the bundle is an instance of the bundle's class, with its code and message", { skip, timeout: 30_000 }, async () => {
  assert.deepEqual(await inPage("probe"), {
    instanceOf: true, isError: true, recognised: true, name: "AnimgraphError", code: "ERR_ARGUMENT", argument: "jointCount",
    expected: "an integer", message: 'createPose: jointCount must be an integer; got the string "12"',
  });
});

test("the README's first API example runs in the browser (loading the robot with fetch)", { skip, timeout: 120_000 }, async () => {
  const lines = await inPage("readmeExample");
  // As in Node (test/package/readme-example.test.ts): no diagnostic, then Move, the jump at frame 30, its landing, Move again.
  assert.ok(lines.length > 0 && lines.every((l) => /^\d+ (stateEntered|notify) \S+$/.test(l)), lines.join("\n"));
  assert.deepEqual(lines.filter((l) => l.includes("stateEntered")).map((l) => l.split(" ")[2]), ["Move", "Jump", "Move"]);
  assert.ok(lines.includes("30 stateEntered Jump"), lines.join("\n"));
  assert.ok(lines.some((l) => l.endsWith("notify land")), lines.join("\n"));
  assert.ok(lines.filter((l) => l.endsWith("notify footstep")).length >= 2, lines.join("\n"));
  assert.deepEqual(pageErrors, []);
});
