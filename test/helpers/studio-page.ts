// One studio page in headless Chromium for an end-to-end test file: the studio built into its own
// directory (other e2e files build at the same time), served by vite preview, opened once it is ready.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { after, before } from "node:test";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, preview } from "vite";
import { chromium, type Page } from "playwright-core";
import { repoPath } from "./assets.ts";

export const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
/** node:test's `skip` for the studio's e2e tests: false, or why they cannot run. */
export const skipWithoutChromium: false | string = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}`;

export interface StudioPage {
  page: Page;
  /** Console errors and uncaught exceptions of the page, in order. */
  pageErrors: string[];
  close(): Promise<void>;
}

export async function openStudioPage(name: string, viewport: { width: number; height: number }): Promise<StudioPage> {
  const outDir = mkdtempSync(join(tmpdir(), `animgraph-${name}-e2e-`));
  const configFile = repoPath("studio/vite.config.ts");
  await build({ configFile, logLevel: "error", build: { outDir, emptyOutDir: true } });
  const server = await preview({ configFile, build: { outDir }, preview: { port: 0, host: "127.0.0.1" }, logLevel: "error" });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--no-first-run", "--disable-background-networking", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"],
  });
  const page = await browser.newPage({ viewport });
  const pageErrors: string[] = [];
  page.on("console", (m) => { if (m.type() === "error") pageErrors.push(m.text()); });
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(server.resolvedUrls!.local[0]!);
  await page.waitForFunction("window.animgraphStudio !== undefined");
  await page.evaluate("window.animgraphStudio.ready");
  return {
    page,
    pageErrors,
    async close() {
      await browser.close();
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/** A studio page shared by a test file's tests (`studioPageForFile`). */
export interface FileStudioPage {
  /** node:test's `skip` for the file's tests: false, or why they cannot run. */
  readonly skip: false | string;
  /** The page; only inside tests (it opens in the file's `before` hook). */
  readonly page: Page;
  /** Console errors and uncaught exceptions of the page so far, in order. */
  readonly pageErrors: string[];
}

/**
 * Opens a studio page before a test file's tests and closes it after them (node:test hooks registered
 * here, at the file's top level): built, served and loaded as `openStudioPage` does, then waited for
 * until `ready` (a page function or expression) holds. Without Chromium it opens nothing and `skip` says why.
 */
export function studioPageForFile(
  name: string, viewport: { width: number; height: number }, ready: Parameters<Page["waitForFunction"]>[0],
): FileStudioPage {
  let studio: StudioPage | undefined;
  before(async () => {
    if (skipWithoutChromium) return;
    studio = await openStudioPage(name, viewport);
    await studio.page.waitForFunction(ready, undefined, { timeout: 60_000 });
  }, { timeout: 180_000 });
  after(async () => {
    await studio?.close();
  });
  const opened = (): StudioPage => {
    if (!studio) throw new Error(`the ${name} studio page is not open: read it inside a test`);
    return studio;
  };
  return {
    skip: skipWithoutChromium,
    get page() { return opened().page; },
    get pageErrors() { return opened().pageErrors; },
  };
}

/**
 * Waits until the base layer's machine is in `state` (and, with `graphOk`, the document plays). A loaded
 * machine renders SwiftShader frames slowly and the simulation advances at most 0.1 s per frame, so the
 * default wait is generous; on timeout the error says where the machine was and whether time moved.
 */
export async function waitForState(page: Page, state: string, options: { timeout?: number; graphOk?: boolean } = {}): Promise<void> {
  const { timeout = 30_000, graphOk = false } = options;
  try {
    await page.waitForFunction(
      ([s, ok]) => document.body.dataset["state"] === s && (!ok || document.body.dataset["graph"] === "ok"),
      [state, graphOk] as const,
      { timeout },
    );
  } catch (e) {
    // Twice, a second apart: whether frames are drawn and whether the simulation steps.
    const seen = [await pageState(page)];
    await page.waitForTimeout(1000);
    seen.push(await pageState(page));
    throw new Error(`state ${state}${graphOk ? " (graph ok)" : ""} not reached in ${timeout} ms; page shows ${JSON.stringify(seen)}`, { cause: e });
  }
}

/** What the studio shows about its run: machine state, mode, simulation time, frames drawn, parameters. */
function pageState(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(() => {
    const studio = (window as unknown as { animgraphStudio: { simulationTime(): number; frames(): number } }).animgraphStudio;
    return {
      state: document.body.dataset["state"], graph: document.body.dataset["graph"], mode: document.body.dataset["mode"],
      simulationTime: studio.simulationTime(), frames: studio.frames(),
      paused: document.querySelector<HTMLInputElement>("#toggle-pause")?.checked,
      params: Array.from(document.querySelectorAll<HTMLInputElement>("input[data-param]")).map((i) => `${i.dataset["param"]}=${i.type === "checkbox" ? i.checked : i.value}`).join(" "),
      // (no helper function here: tsx names functions with a __name the page does not have)
      timeline: document.querySelector("#timeline-label")?.textContent, status: document.querySelector("#status")?.textContent,
      error: document.querySelector("#error")?.textContent,
    };
  });
}
