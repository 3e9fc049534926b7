#!/usr/bin/env node
// `npm run docs:studio`: the studio pictures in README.md and docs/studio.md. It builds the studio,
// serves it, drives it in headless Chromium (Debian's package) and writes docs/studio/<name>.png.
// Run it by hand when the studio's look changes; no test writes these files.
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
/* global window, document, Event, fetch -- the page functions below run in the browser */
import { chromium } from "playwright-core";
import { build, preview } from "vite";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "docs/studio");
mkdirSync(OUT, { recursive: true });
const configFile = join(ROOT, "studio/vite.config.ts");
await build({ configFile, logLevel: "error" });
const server = await preview({ configFile, preview: { port: 0, host: "127.0.0.1" }, logLevel: "error" });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist", "--no-first-run", "--disable-background-networking"],
});
const studio = (page, call, ...args) => page.evaluate(([c, a]) => window.animgraphStudio[c](...a), [call, args]);
const slider = (page, param, value) => page.evaluate(([p, v]) => {
  const input = document.querySelector(`input[data-param="${p}"]`);
  input.value = String(v);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}, [param, value]);
const panels = async (page, selectors) => {
  const boxes = await Promise.all(selectors.map((s) => page.locator(s).boundingBox()));
  const x = Math.min(...boxes.map((b) => b.x)), y = Math.min(...boxes.map((b) => b.y));
  return { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
};
try {
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(server.resolvedUrls.local[0]);
  await page.waitForFunction(() => window.animgraphStudio !== undefined);
  await page.evaluate(() => window.animgraphStudio.ready);
  await page.waitForFunction(() => document.body.dataset.state !== undefined);

  // Layers: the robot runs while the additive emote layer waves; the emote layer's tab is selected.
  await slider(page, "speed", 4);
  await slider(page, "emote", 3);
  await page.waitForTimeout(1500);
  await page.locator(".layer-tab").nth(1).click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(OUT, "layers.png"), clip: await panels(page, [".viewport-panel", ".graph-panel", ".params-panel"]) });
  await page.locator(".layer-tab").nth(0).click();

  // Rewind: a few seconds recorded with speed changes and a jump, then scrubbed back into the jump.
  await slider(page, "emote", 0);
  await slider(page, "speed", 1);
  await page.waitForTimeout(1000);
  await page.click('button[aria-label="Trigger jump"]');
  await page.waitForTimeout(1500);
  const steps = (await studio(page, "recording")).steps;
  await studio(page, "showStep", steps - 80);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(OUT, "rewind.png"), clip: await panels(page, [".viewport-panel", ".graph-panel"]) });

  // Why (not)?: at that past frame, each transition out of the current state with its verdict.
  await page.screenshot({ path: join(OUT, "why-not.png"), clip: await panels(page, [".blend-panel", ".fade-panel", ".why-panel"]) });
  await studio(page, "goLive");

  // The editor with a finding marked on its line.
  await page.click("#edit-graph");
  await page.evaluate(() => {
    const ed = window.animgraphStudio.editor;
    const doc = ed.view.state.doc;
    for (let n = 1; n <= doc.lines; n++) {
      const line = doc.line(n);
      const at = line.text.indexOf('"to": "Jump"');
      if (at >= 0) { ed.view.dispatch({ changes: { from: line.from + at, to: line.from + at + 12, insert: '"to": "Jumpp"' } }); break; }
    }
  });
  await page.waitForFunction(() => document.body.dataset.graph === "broken");
  await page.locator("#findings li.error button").first().click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(OUT, "editor.png"), clip: await panels(page, [".log-panel", ".editor-panel"]) });
  await page.evaluate(() => {
    const ed = window.animgraphStudio.editor;
    const text = ed.view.state.doc.toString();
    const at = text.indexOf('"Jumpp"');
    ed.view.dispatch({ changes: { from: at, to: at + 7, insert: '"Jump"' } });
  });
  await page.waitForFunction(() => document.body.dataset.graph === "ok");
  await page.click("#edit-graph");

  // The seed's demo: the 2D blend tree over (forward, speed).
  await page.selectOption("#demo", "blend2d");
  await page.waitForFunction(() => document.body.dataset.graph === "ok");
  await slider(page, "forward", 0.6);
  await slider(page, "speed", 1.8);
  await page.waitForTimeout(800);
  await page.screenshot({ path: join(OUT, "seed-demo.png"), clip: await panels(page, [".viewport-panel", ".graph-panel", ".params-panel", ".blend-panel", ".fade-panel", ".why-panel"]) });
  await page.selectOption("#demo", "");

  // The graph editor: the seed machine (examples/robot/seed-machine.animgraph.json), the transition
  // idle → walk selected in the inspector, its condition built over the declared parameter speed.
  const seedMachine = await page.evaluate(() => fetch("robot/seed-machine.animgraph.json").then((r) => r.text()));
  await studio(page, "reloadGraph", seedMachine, "seed-machine.animgraph.json");
  await page.waitForFunction(() => document.body.dataset.graph === "ok");
  await slider(page, "speed", 1);
  await page.locator('#graph svg .edge[data-transition="2"] .hit').click({ force: true });
  await page.waitForTimeout(800);
  await page.screenshot({ path: join(OUT, "graph-editor.png"), clip: await panels(page, [".viewport-panel", ".graph-panel", ".inspector-panel", ".params-panel"]) });
  // A 1D blend tree's samples on their line, with the weights at the live speed.
  const robot = await page.evaluate(() => fetch("robot/robot.animgraph.json").then((r) => r.text()));
  await studio(page, "reloadGraph", robot, "robot.animgraph.json");
  await page.waitForFunction(() => document.body.dataset.graph === "ok");
  await slider(page, "speed", 3.2);
  await page.locator('#graph svg .state[data-state="Run"] rect.body').click();
  await page.waitForTimeout(1200);
  await page.screenshot({ path: join(OUT, "graph-editor-blend.png"), clip: await panels(page, [".graph-panel", ".inspector-panel"]) });
  // Findings on the graph: the parameter speed deleted (its conditions go; the blend's axis is flagged).
  await page.locator('[data-key="p-delete-speed"]').click();
  await page.waitForTimeout(800);
  await page.screenshot({ path: join(OUT, "graph-editor-findings.png"), clip: await panels(page, [".graph-panel", ".inspector-panel", ".params-panel", ".log-panel"]) });
  await page.keyboard.press("Control+z");
  await page.waitForFunction(() => document.body.dataset.graph === "ok");

  // A crowd of 1,000 drawn.
  await page.fill("#crowd-size", "1000");
  await page.check("#toggle-crowd");
  await page.waitForTimeout(3000);
  await page.keyboard.press("f");
  await page.waitForTimeout(1500);
  await page.screenshot({ path: join(OUT, "crowd.png"), clip: await panels(page, [".viewport-panel", ".perf-panel"]) });
  if (errors.length > 0) throw new Error(`page errors: ${errors.join("\n")}`);
  console.log(`wrote ${["layers", "rewind", "why-not", "editor", "seed-demo", "graph-editor", "graph-editor-blend", "graph-editor-findings", "crowd"].map((n) => `docs/studio/${n}.png`).join(", ")}`);
} finally {
  await browser.close();
  await new Promise((r) => server.httpServer.close(r));
}
