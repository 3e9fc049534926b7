// End-to-end tests of the studio's graph editor in headless Chromium: the seed's idle/walk/run/jump/attack
// machine built from an empty graph with the mouse and the keyboard alone (no test hook edits the
// document), saved, and checked against the hand-written examples/robot/seed-machine.animgraph.json under
// `animgraph lint` and `animgraph run` of a fixed timeline; undo back to the empty graph and redo forward
// give the same file; and on Fox, a graph of two states built from its clips plays.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, preview, type PreviewServer } from "vite";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { repoPath } from "../helpers/assets.ts";
import { waitForState } from "../helpers/studio-page.ts";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}`;
const BIN = repoPath("bin/animgraph.js");

let server: PreviewServer | undefined;
// Its own build directory: other end-to-end files build the studio into studio/dist at the same time.
const outDir = mkdtempSync(join(tmpdir(), "animgraph-editor-e2e-"));
const work = mkdtempSync(join(tmpdir(), "animgraph-editor-files-"));
let browser: Browser | undefined;
let page: Page;
const pageErrors: string[] = [];

before(async () => {
  if (skip) return;
  const configFile = repoPath("studio/vite.config.ts");
  await build({ configFile, logLevel: "error", build: { outDir, emptyOutDir: true } });
  server = await preview({ configFile, build: { outDir }, preview: { port: 0, host: "127.0.0.1" }, logLevel: "error" });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--no-first-run", "--disable-background-networking", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"],
  });
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
  page.on("console", (m) => { if (m.type() === "error") pageErrors.push(m.text()); });
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(server.resolvedUrls!.local[0]!);
  await page.waitForFunction("window.animgraphStudio !== undefined");
  await page.evaluate("window.animgraphStudio.ready");
  await page.waitForFunction(() => document.body.dataset["state"] !== undefined, undefined, { timeout: 60_000 });
}, { timeout: 180_000 });

after(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.httpServer.close(() => resolve()) : resolve()));
  rmSync(outDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

// Reading the store is only for checking: every edit below goes through the page's controls.
const storeText = (): Promise<string> => page.evaluate("window.animgraphStudio.store.text") as Promise<string>;
const state = (name: string): Locator => page.locator(`#graph svg .state[data-state="${name}"]`);
const edge = (from: string, to: string): Promise<number> => page.evaluate(`(() => {
  const t = JSON.parse(window.animgraphStudio.store.text).layers[0].machine.transitions;
  return t.findIndex((x) => x.from === ${JSON.stringify(from)} && x.to === ${JSON.stringify(to)});
})()`) as Promise<number>;
const inspector = (key: string): Locator => page.locator(`#inspector [data-key="${key}"]`);

/** Types into a field and presses Enter (what commits an inspector field). */
async function typeInto(target: Locator, value: string): Promise<void> {
  await target.click();
  await page.keyboard.press("Control+a");
  await page.keyboard.type(value);
  await page.keyboard.press("Enter");
}

/** Drags from one point to another with the mouse, in steps. */
async function drag(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let k = 1; k <= 6; k++) await page.mouse.move(from.x + ((to.x - from.x) * k) / 6, from.y + ((to.y - from.y) * k) / 6);
  await page.mouse.up();
}
/** The centre of an element on the page (the graph is redrawn after every edit: measure the one drawn now). */
async function centre(l: Locator): Promise<{ x: number; y: number }> {
  for (let k = 0; ; k++) {
    try {
      await l.scrollIntoViewIfNeeded({ timeout: 2000 });
      const b = await l.boundingBox({ timeout: 2000 });
      if (b) return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    } catch (e) {
      if (k === 20) throw e;
    }
  }
}

/** Draws a transition by dragging from the source's connector dot onto the target. */
async function connectByMouse(from: string, to: string): Promise<void> {
  const target = await centre(state(to).locator("rect.body"));
  await drag(await centre(page.locator(`#graph svg [data-connect="${from}"]`)), target);
  await page.waitForFunction(`(() => JSON.parse(window.animgraphStudio.store.text).layers[0].machine.transitions.some((t) => t.from === ${JSON.stringify(from)} && t.to === ${JSON.stringify(to)}))()`);
}
/** Draws a transition with the keyboard: focus the source, C, Tab to the target, Enter. */
async function connectByKeyboard(from: string, to: string): Promise<void> {
  await (from === "*" ? page.locator("#graph svg [data-any]") : state(from)).focus();
  await page.keyboard.press("c");
  await state(to).focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(`(() => JSON.parse(window.animgraphStudio.store.text).layers[0].machine.transitions.some((t) => t.from === ${JSON.stringify(from)} && t.to === ${JSON.stringify(to)}))()`);
}

/** The selected transition's inspector: duration, exit time, one condition. */
async function editTransition(options: { duration: number; exit?: number; condition?: { param: string; op?: string; value?: string } }): Promise<void> {
  await typeInto(inspector("t-duration"), String(options.duration));
  const hasExit = await inspector("t-has-exit").isChecked();
  if (options.exit === undefined && hasExit) await inspector("t-has-exit").click();
  if (options.exit !== undefined) {
    if (!hasExit) await inspector("t-has-exit").click();
    await typeInto(inspector("t-exit"), String(options.exit));
  }
  if (options.condition) {
    await inspector("c-add").click();
    await inspector("c-param-0").selectOption(options.condition.param);
    if (options.condition.op) await inspector("c-op-0").selectOption(options.condition.op);
    if (options.condition.value) await typeInto(inspector("c-value-0"), options.condition.value);
  }
}

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("the seed machine, built from an empty graph with the mouse and the keyboard, saves to a file that lints and runs like the hand-written one", { skip, timeout: 600_000 }, async () => {
  await page.selectOption("#new-graph", "empty");
  await page.waitForFunction(() => document.querySelectorAll("#graph svg .state[data-state]").length === 0);
  const empty = await storeText();
  assert.match(empty, /"states": \{\}/);

  // States: the toolbar's + State button for the first, the N key on the graph for the others; renamed in the inspector.
  const clips: [string, string][] = [["idle", "Idle"], ["walk", "Walking"], ["run", "Running"], ["jump", "Jump"], ["attack", "Punch"]];
  for (const [i, [name, clip]] of clips.entries()) {
    await page.selectOption("#new-kind", "clip");
    await page.selectOption("#new-clip", clip);
    if (i === 0) await page.click("#add-state");
    else {
      await state(clips[i - 1]![0]).focus();
      await page.keyboard.press("n");
    }
    await state(clip).waitFor();
    // F2 on the new state (focused by the add) jumps to its name field.
    await state(clip).focus();
    await page.keyboard.press("F2");
    await page.keyboard.press("Control+a");
    await page.keyboard.type(name);
    await page.keyboard.press("Enter");
    await state(name).waitFor();
    if (name === "jump" || name === "attack") await inspector("state-loop").selectOption("clamp");
  }
  // The first state is the entry; moving it by mouse and by arrow keys keeps it the same state.
  await page.waitForFunction(() => document.querySelector('#graph svg .state.entry')?.getAttribute("data-state") === "idle");
  const before = await centre(state("run").locator("rect.body"));
  await drag(before, { x: before.x + 60, y: before.y + 160 });
  await state("run").focus();
  await page.keyboard.press("ArrowRight");
  const after = await centre(state("run").locator("rect.body"));
  assert.ok(after.y > before.y + 100 && after.x > before.x + 60, `run moved from ${JSON.stringify(before)} to ${JSON.stringify(after)}`);

  // Parameters: declared in the parameters panel.
  for (const [name, type] of [["speed", "float"], ["jump", "trigger"], ["attack", "trigger"]] as const) {
    await page.selectOption('[data-key="p-new-type"]', type);
    await typeInto(page.locator('[data-key="p-new-name"]'), name);
    await page.locator(`[data-param-decl="${name}"]`).waitFor();
  }
  await typeInto(page.locator('[data-key="p-max-speed"]'), "3");

  // Transitions, in the hand-written priority order; walk → idle is drawn before walk → run and then
  // moved below it with the priority buttons.
  await connectByKeyboard("*", "jump");
  await editTransition({ duration: 0.1, condition: { param: "jump" } });
  await connectByMouse("*", "attack");
  await editTransition({ duration: 0.1, condition: { param: "attack" } });
  await connectByMouse("idle", "walk");
  await editTransition({ duration: 0.3, condition: { param: "speed", op: ">", value: "0.5" } });
  await connectByKeyboard("walk", "idle");
  await editTransition({ duration: 0.3, condition: { param: "speed", op: "<=", value: "0.5" } });
  await connectByMouse("walk", "run");
  await editTransition({ duration: 0.3, condition: { param: "speed", op: ">", value: "1.5" } });
  await inspector("t-up").click();
  assert.ok(await edge("walk", "run") < await edge("walk", "idle"), "walk → run raised above walk → idle");
  await connectByKeyboard("run", "walk");
  await editTransition({ duration: 0.3, condition: { param: "speed", op: "<=", value: "1.5" } });
  await connectByMouse("jump", "idle");
  await editTransition({ duration: 0.3, exit: 0.9 });
  await connectByKeyboard("attack", "idle");
  await editTransition({ duration: 0.3, exit: 0.9 });

  // Save: the download is the file.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
  const saved = join(work, "built.animgraph.json");
  await download.saveAs(saved);
  const savedText = readFileSync(saved, "utf8");
  assert.equal(savedText, await storeText());
  const handWritten = repoPath("examples/robot/seed-machine.animgraph.json");
  const clipsFile = repoPath("examples/robot/RobotExpressive.glb");
  const timeline = repoPath("examples/robot/seed-machine.timeline.json");
  const lintBuilt = cli(["lint", "--clips", clipsFile, saved]);
  const lintHand = cli(["lint", "--clips", clipsFile, handWritten]);
  assert.equal(lintBuilt.status, 0, lintBuilt.stdout + lintBuilt.stderr);
  assert.equal(lintBuilt.status, lintHand.status);
  assert.equal(lintBuilt.stdout, lintHand.stdout);
  const runBuilt = cli(["run", saved, "--clips", clipsFile, "--script", timeline, "--digest"]);
  const runHand = cli(["run", handWritten, "--clips", clipsFile, "--script", timeline, "--digest"]);
  assert.equal(runBuilt.status, 0, runBuilt.stderr);
  assert.equal(runBuilt.stdout, runHand.stdout, "the same states, crossfades, events, root motion and pose digest at every step");
  assert.match(runBuilt.stdout, /digest sha256:[0-9a-f]{64}/);

  // Undo back to the empty graph, then redo forward to the saved file (keyboard, focus on the graph).
  await page.locator("#graph svg [data-any]").focus();
  let undos = 0;
  while ((await page.getAttribute("#undo", "aria-disabled")) !== "true") { await page.keyboard.press("Control+z"); undos++; }
  assert.equal(await storeText(), empty);
  assert.ok(undos > 30, `${undos} undo steps`);
  await page.waitForFunction(() => document.querySelectorAll("#graph svg .state[data-state]").length === 0);
  let redos = 0;
  while ((await page.getAttribute("#redo", "aria-disabled")) !== "true") { await page.keyboard.press("Control+Shift+z"); redos++; }
  assert.equal(redos, undos);
  assert.equal(await storeText(), savedText);
  // What was built plays: the speed slider walks it from idle to walk.
  await waitForState(page, "idle", { graphOk: true });
  await page.evaluate(() => {
    const input = document.querySelector<HTMLInputElement>('input[data-param="speed"]')!;
    input.value = "1";
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await waitForState(page, "walk");
  assert.deepEqual(pageErrors, []);
});

test("Save writes in place through the File System Access API where the browser has it", { skip, timeout: 60_000 }, async () => {
  // Chromium's picker needs a user in front of it: a stand-in records what the studio writes.
  await page.evaluate(`(() => {
    window.__written = [];
    window.showSaveFilePicker = async (options) => ({
      name: options.suggestedName,
      createWritable: async () => { let text = ""; return { write: async (t) => { text += t; }, close: async () => { window.__written.push(text); } }; },
    });
  })()`);
  await page.locator("#graph svg [data-any]").focus();
  await page.keyboard.press("Control+s");
  await page.waitForFunction("window.__written.length === 1");
  assert.equal(await page.evaluate("window.__written[0]"), await storeText());
  assert.match(await page.locator("#edit-status").textContent() ?? "", /^Saved .*\.animgraph\.json$/);
});

test("findings are drawn on the graph and follow the edits: a transition with no way to fire, a state that is not reached", { skip, timeout: 60_000 }, async () => {
  // Deleting the parameter speed takes its conditions: idle → walk has none left and always fires.
  await page.locator('[data-key="p-delete-speed"]').click();
  await page.waitForFunction(() => document.querySelectorAll("#graph svg .finding-error, #graph svg .finding-warning").length > 0);
  const marked = await page.$$eval("#graph svg .finding-error, #graph svg .finding-warning", (els) => els.map((e) => e.querySelector("title")?.textContent ?? ""));
  assert.ok(marked.some((m) => m.length > 0), marked.join("\n"));
  await page.locator("#graph svg [data-any]").focus();
  await page.keyboard.press("Control+z");
  await page.waitForFunction(() => document.querySelectorAll("#graph svg .finding-error, #graph svg .finding-warning").length === 0);
});

test("a 1D blend tree added from the toolbar: its second sample dragged along the line, the weights shown live; a nested machine opens from the inspector", { skip, timeout: 120_000 }, async () => {
  await page.selectOption("#new-kind", "blend1d");
  await page.selectOption("#new-clip", "Walking");
  await page.click("#add-state");
  await state("Blend").waitFor();
  await inspector("sample-clip-1").selectOption("Running");
  const sample = page.locator('#inspector .sample-editor .sample[data-sample="1"] circle');
  const from = await centre(sample);
  await drag(from, { x: from.x - 60, y: from.y });
  const at = (): Promise<number> => page.evaluate("JSON.parse(window.animgraphStudio.store.text).layers[0].machine.states.Blend.blend1d.children[1].at") as Promise<number>;
  const moved = await at();
  assert.ok(moved > 0.2 && moved < 0.9, `sample 2 dragged from 1 to ${moved}`);
  // Arrow keys move the focused sample by 0.1.
  await page.locator('#inspector .sample-editor .sample[data-sample="1"]').focus();
  await page.keyboard.press("ArrowRight");
  assert.ok(Math.abs(await at() - (moved + 0.1)) < 1e-9);
  // The live weights at the parameter's value (speed, set by its slider) sum to 1.
  await page.waitForFunction(() => document.body.dataset["graph"] === "ok");
  await page.waitForFunction(() => Array.from(document.querySelectorAll("#inspector output[data-weight]")).every((o) => /^w \d\.\d\d$/.test(o.textContent ?? "")));
  const weights = await page.$$eval("#inspector output[data-weight]", (os) => os.map((o) => Number((o.textContent ?? "").slice(2))));
  assert.ok(Math.abs(weights.reduce((a, b) => a + b, 0) - 1) < 0.011, String(weights));
  // A nested machine: added, opened from the inspector, its own state shown; the breadcrumb leads back.
  await page.selectOption("#new-kind", "machine");
  await page.click("#add-state");
  await state("Machine").waitFor();
  await inspector("state-open").click();
  await state("State").waitFor();
  assert.equal((await page.locator("#graph-path").textContent())?.replace(/\s+/g, " ").trim(), "base › Machine");
  await page.click("#graph-path button");
  await state("Machine").waitFor();
  assert.deepEqual(pageErrors, []);
});

test("Fox: a graph of two states from its clips, connected on a bool parameter, plays", { skip, timeout: 300_000 }, async () => {
  await page.setInputFiles("#open-glb", repoPath("examples/fox/Fox.glb"));
  await page.waitForFunction(() => /Fox/.test(document.querySelector("#status")?.textContent ?? ""), undefined, { timeout: 60_000 });
  await page.selectOption("#new-graph", "clips");
  await state("Survey").waitFor();
  await waitForState(page, "Survey", { graphOk: true });
  // Keep two states: Survey and Walk.
  await state("Run").click();
  await page.keyboard.press("Delete");
  await page.waitForFunction(() => document.querySelectorAll("#graph svg .state[data-state]").length === 2);
  await page.selectOption('[data-key="p-new-type"]', "bool");
  await typeInto(page.locator('[data-key="p-new-name"]'), "go");
  await connectByMouse("Survey", "Walk");
  // The condition first: a transition with neither a condition nor an exit time fires at once.
  await inspector("c-add").click();
  await page.waitForFunction(() => document.querySelector('#inspector [data-key="c-value-0"]') !== null);
  await editTransition({ duration: 0.25 });
  await inspector("t-blend").selectOption("inertialize");
  assert.match(await storeText(), /"conditions": \[\n\s+\{\n\s+"param": "go"\n\s+\}\n\s+\],\n\s+"duration": 0.25,\n\s+"blend": "inertialize"\n/);
  await waitForState(page, "Survey", { graphOk: true });
  // And back when go is false (the condition's value: "is false").
  await connectByKeyboard("Walk", "Survey");
  await inspector("c-add").click();
  await inspector("c-value-0").selectOption("false");
  await editTransition({ duration: 0.25 });
  await waitForState(page, "Survey", { graphOk: true });
  await page.locator('input[data-param="go"]').check();
  await waitForState(page, "Walk");
  await page.locator('input[data-param="go"]').uncheck();
  await waitForState(page, "Survey");
  assert.match(await page.locator("#status").textContent() ?? "", /Fox/);
  assert.deepEqual(pageErrors, []);
  writeFileSync(join(work, "fox.json"), await storeText());
  const lint = cli(["lint", "--clips", repoPath("examples/fox/Fox.glb"), join(work, "fox.json")]);
  assert.equal(lint.status, 0, lint.stdout + lint.stderr);
});
