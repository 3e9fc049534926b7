// End-to-end test of the studio's check panel in headless Chromium: "Check graph" lists the checker's
// findings beside the linter's (none for the robot graph), and a finding's witness loads into the
// record-and-rewind bar, where the rewound character shows the fault (frozen in Jump).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { repoPath } from "../helpers/assets.ts";
import { studioPageForFile } from "../helpers/studio-page.ts";

const studio = studioPageForFile("check", { width: 1280, height: 900 }, "document.body.dataset.state !== undefined");
const skip = studio.skip;

const checkItems = (): Promise<{ code: string; text: string; witness: boolean }[]> =>
  studio.page.evaluate(`[...document.querySelectorAll("#check-findings li")].map((li) => ({ code: li.dataset.code ?? "", text: li.textContent, witness: li.querySelector(".load-witness") !== null }))`);

test("Check graph on the robot graph: no findings, shown beside the linter's", { skip, timeout: 120_000 }, async () => {
  await studio.page.click("#run-check");
  await studio.page.waitForFunction(`document.querySelector("#check-findings li") !== null`, undefined, { timeout: 60_000 });
  const items = await checkItems();
  assert.match(items[0]!.text, /^Check: no findings · \d+ configurations, depth \d+, complete/);
  assert.equal(items.filter((i) => i.code !== "").filter((i) => !i.code.startsWith("I_")).length, 0);
  assert.deepEqual(studio.pageErrors, []);
});

test("a planted stuck state: its witness loads into the rewind bar and the character stays in Jump", { skip, timeout: 120_000 }, async () => {
  const text = readFileSync(repoPath("examples/check/jump-gap.animgraph.json"), "utf8");
  await studio.page.evaluate(`window.animgraphStudio.reloadGraph(${JSON.stringify(text)}, "jump-gap.animgraph.json")`);
  await studio.page.waitForFunction(`document.body.dataset.graph === "ok"`, undefined, { timeout: 30_000 });
  assert.equal((await checkItems()).length, 0, "a new graph clears the last report");
  await studio.page.click("#run-check");
  await studio.page.waitForFunction(`document.querySelector('#check-findings li[data-code="W_CHECK_STUCK_STATE"]') !== null`, undefined, { timeout: 60_000 });
  const items = await checkItems();
  const stuck = items.find((i) => i.code === "W_CHECK_STUCK_STATE")!;
  assert.match(stuck.text, /\/layers\/0\/machine\/states\/Jump/);
  assert.ok(stuck.witness, "the finding has a load-witness button");
  const report = await studio.page.evaluate(`window.animgraphStudio.runCheck()`) as { findings: { code: string; steps: number; replayed: boolean }[] };
  const i = report.findings.findIndex((f) => f.code === "W_CHECK_STUCK_STATE");
  assert.equal(report.findings[i]!.replayed, true);
  // The finding's own button jumps the editor to the Jump state, as a lint finding does.
  await studio.page.click(`#check-findings li[data-code="W_CHECK_STUCK_STATE"] button:not(.load-witness)`);
  const cursorLine = await studio.page.evaluate(`window.animgraphStudio.editor.cursor().line`) as number;
  assert.match(text.split("\n")[cursorLine - 1]!, /"Jump":/);
  await studio.page.click(`#check-findings li[data-code="W_CHECK_STUCK_STATE"] .load-witness`);
  await studio.page.waitForFunction(`window.animgraphStudio.shownStep() === 0`, undefined, { timeout: 10_000 });
  const steps = report.findings[i]!.steps;
  assert.equal(await studio.page.evaluate(`window.animgraphStudio.recording().steps`), steps, "the recording is the witness run");
  // The end of the witness: the jump is over, and the character still hangs in it.
  await studio.page.evaluate(`window.animgraphStudio.showStep(${steps})`);
  await studio.page.waitForFunction(`document.body.dataset.state === "Jump"`, undefined, { timeout: 10_000 });
  await studio.page.evaluate(`window.animgraphStudio.showStep(${steps - 60})`);
  await studio.page.waitForFunction(`document.body.dataset.state === "Jump"`, undefined, { timeout: 10_000 });
  assert.deepEqual(studio.pageErrors, []);
});
