// End-to-end test of joint picking in the studio's viewport (headless Chromium). On the robot: the
// pointer over the hand (where the hand joint is drawn: its world position through the camera) marks the
// hand or a joint next to it, a click selects it (the store's selection, labelled in the viewport, not an
// undo step), a click on empty space clears it; an IK layer's end-joint "pick" button is reached and armed
// from the keyboard, Escape cancels, and armed, a click on the hand writes the picked joint into the
// layer's JSON (one undo step, the chain finding gone), which undo takes back; the keyboard alone walks
// the skeleton in the viewport and fills the armed field with Enter. On Fox the same with the mouse, on
// its head and its near front leg.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Locator } from "playwright-core";
import { repoPath } from "../helpers/assets.ts";
import { studioPageForFile, waitForState } from "../helpers/studio-page.ts";

const studio = studioPageForFile("joint-pick", { width: 1440, height: 1000 }, () => document.body.dataset["graph"] === "ok" && document.body.dataset["state"] !== undefined);
const skip = studio.skip;

interface Hit { name: string; joint: number; how: "mesh" | "bone" }
interface Skeleton { names: string[]; parents: number[] }
// Reading the store and the hooks is only for checking: the picks are made with the mouse and the keyboard.
const storeText = (): Promise<string> => studio.page.evaluate("window.animgraphStudio.store.text") as Promise<string>;
const selectedJoint = (): Promise<string | null> => studio.page.evaluate("window.animgraphStudio.store.selection.joint") as Promise<string | null>;
const ikOf = async (): Promise<Record<string, unknown>[]> => (JSON.parse(await storeText()) as { ik?: Record<string, unknown>[] }).ik ?? [];
const ik = (key: string): Locator => studio.page.locator(`#ik [data-key="${key}"]`);
const skeleton = (): Promise<Skeleton> => studio.page.evaluate("window.animgraphStudio.skeleton()") as Promise<Skeleton>;
/** Where a joint is drawn: its world position (the three.js bone) projected through the camera, in page pixels. */
const drawnAt = (name: string): Promise<{ x: number; y: number }> =>
  studio.page.evaluate(`(() => { const s = window.animgraphStudio; return s.screenPoint(s.joint(${JSON.stringify(name)}).world); })()`) as Promise<{ x: number; y: number }>;
const pickAt = (p: { x: number; y: number }): Promise<Hit | null> => studio.page.evaluate(`window.animgraphStudio.pickAt(${p.x}, ${p.y})`) as Promise<Hit | null>;
const undoTitle = async (): Promise<string> => (await studio.page.getAttribute("#undo", "title")) ?? "";

/**
 * The joint and the joints next to it: its parent, its children, and joints drawn at the same place (a
 * rig's sibling palm joints all sit at the wrist: no click can tell them apart).
 */
async function neighbourhood(sk: Skeleton, name: string): Promise<Set<string>> {
  const j = sk.names.indexOf(name);
  assert.ok(j >= 0, `no joint ${name}`);
  const out = new Set([name]);
  if (sk.parents[j]! >= 0) out.add(sk.names[sk.parents[j]!]!);
  sk.parents.forEach((p, k) => { if (p === j) out.add(sk.names[k]!); });
  const world = await studio.page.evaluate(`window.animgraphStudio.skeleton().names.map((n) => window.animgraphStudio.joint(n)?.world ?? null)`) as ([number, number, number] | null)[];
  const size = await studio.page.evaluate("window.animgraphStudio.framing().size") as number;
  const here = world[j]!;
  world.forEach((w, k) => { if (w && Math.hypot(w[0] - here[0], w[1] - here[1], w[2] - here[2]) < 1e-6 * size) out.add(sk.names[k]!); });
  return out;
}

/** Pauses the clock, so the joints stay where they are drawn between measuring and clicking. */
async function pause(): Promise<void> {
  await studio.page.check("#toggle-pause");
  const start = await studio.page.evaluate("window.animgraphStudio.frames()") as number;
  await studio.page.waitForFunction(`window.animgraphStudio.frames() >= ${start + 3}`);
}

/**
 * Arms the pick button of a two-bone layer's end joint from the keyboard, checks Escape cancels it, arms it
 * again with the mouse and clicks where `joint` is drawn: the field gets the picked joint (one undo step)
 * and undo restores `wrong`, the end the layer had.
 */
async function pickEndJoint(layer: number, joint: string, wrong: string): Promise<string> {
  const sk = await skeleton();
  const button = ik("ik-pick-joints-2");
  await button.focus();
  await studio.page.keyboard.press("Enter");
  await studio.page.waitForFunction(`window.animgraphStudio.armedPick()?.key === "${layer}:joints-2"`);
  assert.equal(await ik("ik-pick-joints-2").getAttribute("aria-pressed"), "true");
  assert.match(await studio.page.locator("#edit-status").textContent() ?? "", /Click a joint in the viewport for End joint/);
  await studio.page.keyboard.press("Escape");
  await studio.page.waitForFunction("window.animgraphStudio.armedPick() === null");
  assert.equal(await ik("ik-pick-joints-2").getAttribute("aria-pressed"), "false");
  assert.equal(((await ikOf())[layer]!["joints"] as string[])[2], wrong, "Escape leaves the field as it was");

  await ik("ik-pick-joints-2").click();
  await studio.page.waitForFunction("window.animgraphStudio.armedPick() !== null");
  // The panel may have scrolled the page: the viewport back in view, as a user would scroll.
  await studio.page.locator("#viewport").scrollIntoViewIfNeeded();
  const at = await drawnAt(joint);
  const expected = await pickAt(at);
  assert.ok(expected && (await neighbourhood(sk, joint)).has(expected.name), `at ${joint} the pick is ${expected?.name}`);
  await studio.page.mouse.click(at.x, at.y);
  await studio.page.waitForFunction((l) => JSON.parse((window as unknown as { animgraphStudio: { store: { text: string } } }).animgraphStudio.store.text).ik[l].joints[2] !== undefined
    && (window as unknown as { animgraphStudio: { armedPick(): unknown } }).animgraphStudio.armedPick() === null, layer);
  const picked = ((await ikOf())[layer]!["joints"] as string[])[2]!;
  assert.equal(picked, expected.name, "the field has the joint clicked");
  assert.equal(await selectedJoint(), picked, "and the viewport selects it");
  assert.match(await undoTitle(), /End joint of .*: .* \(picked\)/);
  // The chain is one again: the linter's and the compiler's finding on the row goes.
  await studio.page.waitForFunction((l) => document.querySelector(`#ik [data-ik-layer="${l}"]`)?.classList.contains("finding-error") === false, layer, { timeout: 30_000 });
  assert.equal(await ik("ik-joint-joints-2").evaluate((el) => el.classList.contains("joint-picked")), true, "the field naming the selected joint is marked");
  // One undo step takes the pick back.
  await studio.page.locator("#viewport").focus();
  await studio.page.keyboard.press("Control+z");
  await studio.page.waitForFunction(([l, w]) => JSON.parse((window as unknown as { animgraphStudio: { store: { text: string } } }).animgraphStudio.store.text).ik[l].joints[2] === w, [layer, wrong] as const);
  return picked;
}

test("robot: hover marks and a click selects the joint drawn under the pointer (not an undo step); a two-bone layer's end joint picked in the viewport, Escape cancels, undo restores it", { skip, timeout: 300_000 }, async () => {
  await pause();
  const sk = await skeleton();
  const hand = "Palm2.L";
  const original = await storeText();
  const undoBefore = await undoTitle();

  const at = await drawnAt(hand);
  await studio.page.mouse.move(at.x, at.y);
  await studio.page.waitForFunction("window.animgraphStudio.hoveredJoint() !== null");
  const hovered = await studio.page.evaluate("window.animgraphStudio.hoveredJoint()") as string;
  assert.ok((await neighbourhood(sk, hand)).has(hovered), `hovering the hand marks ${hovered}`);
  await studio.page.mouse.click(at.x, at.y);
  await studio.page.waitForFunction("window.animgraphStudio.store.selection.joint !== null");
  const selected = (await selectedJoint())!;
  assert.ok((await neighbourhood(sk, hand)).has(selected), `clicking the hand selects ${selected}`);
  assert.equal(selected, hovered, "the click selects what the hover marked");
  const label = studio.page.locator("#viewport .joint-label");
  await label.waitFor({ state: "visible" });
  await studio.page.waitForFunction((name) => document.querySelector("#viewport .joint-label")?.textContent === name, selected);
  assert.equal(await storeText(), original, "selecting is not an edit");
  assert.equal(await undoTitle(), undoBefore, "nor an undo step");

  // A drag orbits the camera and selects nothing new; a click on empty space clears the selection.
  const box = (await studio.page.locator("#viewport canvas").boundingBox())!;
  await studio.page.mouse.move(box.x + 20, box.y + 20);
  await studio.page.mouse.down();
  await studio.page.mouse.move(box.x + 60, box.y + 30, { steps: 4 });
  await studio.page.mouse.up();
  assert.equal(await selectedJoint(), selected);
  // (Framing again puts the camera back where the joints were measured.)
  await studio.page.keyboard.press("f");
  assert.equal(await pickAt({ x: box.x + 8, y: box.y + 8 }), null);
  await studio.page.mouse.click(box.x + 8, box.y + 8);
  await studio.page.waitForFunction("window.animgraphStudio.store.selection.joint === null");
  await label.waitFor({ state: "hidden" });

  // A two-bone layer whose end joint is wrong (the head is not below the forearm): picked right in the viewport.
  await ik("ik-new-solver").selectOption("twoBone");
  await ik("ik-add").click();
  await studio.page.locator('#ik [data-ik-layer="0"]').waitFor();
  const joints = (await ikOf())[0]!["joints"] as string[];
  await ik("ik-joint-joints-2").selectOption("Head");
  await studio.page.waitForFunction(() => document.querySelector('#ik [data-ik-layer="0"]')?.classList.contains("finding-error") === true, undefined, { timeout: 30_000 });
  const picked = await pickEndJoint(0, joints[2]!, "Head");
  assert.ok((await neighbourhood(sk, joints[2]!)).has(picked));

  // The keyboard alone: on the focused viewport the arrows walk the skeleton from the selected joint (↑
  // parent, ↓ first child, → next sibling), and Enter puts it into the armed field.
  assert.equal(await selectedJoint(), picked, "undo leaves the picked joint selected");
  const index = (n: string | null): number => sk.names.indexOf(n ?? "");
  await studio.page.locator("#viewport").focus();
  await studio.page.keyboard.press("ArrowUp");
  await studio.page.waitForFunction((p) => (window as unknown as { animgraphStudio: { store: { selection: { joint: string } } } }).animgraphStudio.store.selection.joint === p, sk.names[sk.parents[index(picked)]!]!);
  await studio.page.keyboard.press("ArrowDown");
  await studio.page.waitForFunction((p) => (window as unknown as { animgraphStudio: { store: { selection: { joint: string } } } }).animgraphStudio.store.selection.joint !== p, sk.names[sk.parents[index(picked)]!]!);
  assert.equal(sk.parents[index(await selectedJoint())], sk.parents[index(picked)], "↓ goes to a child of the parent");
  for (let k = 0; k < sk.names.length && (await selectedJoint()) !== picked; k++) await studio.page.keyboard.press("ArrowRight");
  assert.equal(await selectedJoint(), picked, "→ walks the siblings round to it");
  await ik("ik-pick-joints-2").focus();
  await studio.page.keyboard.press("Enter");
  await studio.page.waitForFunction("window.animgraphStudio.armedPick() !== null");
  await studio.page.locator("#viewport").focus();
  await studio.page.keyboard.press("Enter");
  await studio.page.waitForFunction((p) => JSON.parse((window as unknown as { animgraphStudio: { store: { text: string } } }).animgraphStudio.store.text).ik[0].joints[2] === p, picked);
  assert.equal(await studio.page.evaluate("window.animgraphStudio.armedPick()"), null);
  await studio.page.keyboard.press("Control+z");
  await studio.page.waitForFunction(() => JSON.parse((window as unknown as { animgraphStudio: { store: { text: string } } }).animgraphStudio.store.text).ik[0].joints[2] === "Head");
  assert.deepEqual(studio.pageErrors, []);
});

test("Fox: a click on the head selects it or a joint next to it; a two-bone layer's end joint picked on the leg", { skip, timeout: 300_000 }, async () => {
  await studio.page.uncheck("#toggle-pause");
  await studio.page.setInputFiles("#open-glb", repoPath("examples/fox/Fox.glb"));
  await studio.page.waitForFunction(() => /Fox/.test(document.querySelector("#status")?.textContent ?? ""), undefined, { timeout: 60_000 });
  await studio.page.selectOption("#new-graph", "clips");
  await waitForState(studio.page, "Survey", { graphOk: true });
  await pause();
  const sk = await skeleton();
  const head = sk.names.find((n) => /head/i.test(n))!;
  const at = await drawnAt(head);
  await studio.page.mouse.click(at.x, at.y);
  await studio.page.waitForFunction("window.animgraphStudio.store.selection.joint !== null");
  const selected = (await selectedJoint())!;
  assert.ok((await neighbourhood(sk, head)).has(selected), `clicking ${head} selects ${selected}`);
  await studio.page.waitForFunction((name) => document.querySelector("#viewport .joint-label")?.textContent === name, selected);

  // The panel's two-bone layer takes the first front leg it finds; the camera sees the other side, so
  // the layer is set to the near leg (a foot's chain: the joint two above it, the one above, the foot).
  await ik("ik-new-solver").selectOption("twoBone");
  await ik("ik-add").click();
  await studio.page.locator('#ik [data-ik-layer="0"]').waitFor();
  const end = sk.names.find((n) => /left.*hand/i.test(n))!;
  const middle = sk.names[sk.parents[sk.names.indexOf(end)]!]!;
  const upper = sk.names[sk.parents[sk.names.indexOf(middle)]!]!;
  for (const [k, name] of [upper, middle, end].entries()) await ik(`ik-joint-joints-${k}`).selectOption(name);
  await studio.page.waitForFunction((e) => JSON.parse((window as unknown as { animgraphStudio: { store: { text: string } } }).animgraphStudio.store.text).ik[0].joints[2] === e, end);
  await ik("ik-joint-joints-2").selectOption(head);
  await studio.page.waitForFunction(() => document.querySelector('#ik [data-ik-layer="0"]')?.classList.contains("finding-error") === true, undefined, { timeout: 30_000 });
  const picked = await pickEndJoint(0, end, head);
  assert.ok((await neighbourhood(sk, end)).has(picked));
  assert.deepEqual(studio.pageErrors, []);
});
