// An example app as a user runs it: its files and the robot (in public/) copied into a fresh project
// with animgraph installed from the packed tarball, built by Vite with its defaults, served, and
// opened in headless Chromium (Debian's package; WebGL through SwiftShader).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { preview, type PreviewServer } from "vite";
// @ts-expect-error -- a plain .mjs script shared with `npm run size`
import { createApp, packTarball, removeApp, viteBuild } from "../../scripts/package-app.mjs";
import { repoPath } from "./assets.ts";

export const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
/** A skip reason when there is no Chromium (`.ci/run` installs Debian's). */
export const NO_CHROMIUM = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (.ci/run installs Debian's chromium)`;

export interface PackedExample {
  readonly page: Page;
  /** Everything Vite printed as a warning while building the app. */
  readonly buildWarnings: readonly string[];
  /** Page errors, console errors and failed requests, as they come. */
  readonly errors: string[];
  close(): Promise<void>;
}

/**
 * `files`: paths in the app → files of the checkout, or `{ text }` for a file written by the test (the
 * robot and its graph are added to public/).
 */
export async function openPackedExample(files: Record<string, string | { text: string }>, viewport: { width: number; height: number }): Promise<PackedExample> {
  const packDir = mkdtempSync(join(tmpdir(), "animgraph-pack-"));
  const app = createApp(packTarball(packDir) as string, {
    ...Object.fromEntries(Object.entries(files).map(([to, from]) => [to, typeof from === "string" ? { copy: from } : from.text])),
    "public/RobotExpressive.glb": { copy: repoPath("examples/robot/RobotExpressive.glb") },
    "public/robot.animgraph.json": { copy: repoPath("examples/robot/robot.animgraph.json") },
  }) as string;
  let server: PreviewServer | undefined;
  let browser: Browser | undefined;
  const close = async (): Promise<void> => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.httpServer.close(() => resolve()) : resolve()));
    removeApp(app);
    rmSync(packDir, { recursive: true, force: true });
  };
  try {
    const { warnings } = await viteBuild(app) as { warnings: string[] };
    server = await preview({ root: app, configFile: false, preview: { port: 0, host: "127.0.0.1" }, logLevel: "error" });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
      ],
    });
    const page = await browser.newPage({ viewport });
    const errors: string[] = [];
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("response", (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });
    await page.goto(server.resolvedUrls!.local[0]!);
    return { page, buildWarnings: warnings, errors, close };
  } catch (e) {
    await close();
    throw e;
  }
}
