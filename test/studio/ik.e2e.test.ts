// End-to-end test of the studio's IK layers panel in headless Chromium: on the robot's graph, a two-bone
// layer on the left arm is added and its target and weight bound to new parameters through the panel
// alone; moving the parameters' sliders puts the hand (the three.js bone the output pose is drawn with)
// on the target gizmo; the keyboard disables, adds, reorders and removes layers; undo takes every edit
// back to the original JSON, and the gizmos go with the layers. On Fox, a foot-placement layer's ground
// raised by its parameter raises the planted feet by as much; a target dragged in the viewport is one edit.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Locator } from "playwright-core";
import { repoPath } from "../helpers/assets.ts";
import { studioPageForFile, waitForState } from "../helpers/studio-page.ts";

const studio = studioPageForFile("ik", { width: 1440, height: 1000 }, () => document.body.dataset["graph"] === "ok" && document.body.dataset["state"] !== undefined);
const skip = studio.skip;

type Vec = [number, number, number];
interface Gizmo { name: string; solver: string; weight: number; target: Vec | null; targetModel: Vec | null }
// Reading the store and the hooks is only for checking: every edit goes through the page's controls.
const storeText = (): Promise<string> => studio.page.evaluate("window.animgraphStudio.store.text") as Promise<string>;
const ikOf = async (): Promise<Record<string, unknown>[]> => (JSON.parse(await storeText()) as { ik?: Record<string, unknown>[] }).ik ?? [];
const gizmos = (): Promise<Gizmo[]> => studio.page.evaluate("window.animgraphStudio.ikGizmos()") as Promise<Gizmo[]>;
const joint = (name: string): Promise<{ world: Vec; model: Vec; pose: Vec }> => studio.page.evaluate(`window.animgraphStudio.joint(${JSON.stringify(name)})`) as Promise<{ world: Vec; model: Vec; pose: Vec }>;
const ik = (key: string): Locator => studio.page.locator(`#ik [data-key="${key}"]`);
const dist = (a: readonly number[], b: readonly number[]): number => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/** Moves a parameter's slider in the Parameters panel to `value` (as dragging it would). */
async function slide(param: string, value: number): Promise<void> {
  await studio.page.locator(`input[data-param="${param}"]`).waitFor();
  await studio.page.evaluate(([p, v]) => {
    const input = document.querySelector<HTMLInputElement>(`input[data-param="${p}"]`)!;
    input.value = String(v);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }, [param, value] as const);
}
/** Waits for `n` more frames of the studio's loop. */
async function frames(n: number): Promise<void> {
  const start = await studio.page.evaluate("window.animgraphStudio.frames()") as number;
  await studio.page.waitForFunction(`window.animgraphStudio.frames() >= ${start + n}`);
}

test("robot: a two-bone IK layer added and bound to new parameters from the panel puts the hand on the target; the keyboard edits the stack; undo gives the original JSON", { skip, timeout: 300_000 }, async () => {
  const original = await storeText();
  assert.equal((await ikOf()).length, 0);
  const handBefore = await joint("Palm2.L");

  // Add: the solver picker and the + button.
  await ik("ik-new-solver").selectOption("twoBone");
  await ik("ik-add").click();
  await studio.page.locator('#ik [data-ik-layer="0"]').waitFor();
  assert.deepEqual((await ikOf())[0], { name: "Palm2.L IK", solver: "twoBone", joints: ["UpperArm.L", "LowerArm.L", "Palm2.L"], target: (await ikOf())[0]!["target"] });
  assert.equal(await ik("ik-joint-joints-2").inputValue(), "Palm2.L");

  // Bind the target's coordinates and the weight to new parameters.
  for (const slot of ["target/0", "target/1", "target/2", "weight"]) {
    await ik(`ik-bind-${slot}`).selectOption({ label: "new parameter…" });
    await studio.page.waitForFunction(`(() => { const l = JSON.parse(window.animgraphStudio.store.text).ik[0]; const v = ${JSON.stringify(slot)} === "weight" ? l.weight : l.target[${Number(slot.slice(-1))}]; return v && typeof v.param === "string"; })()`);
  }
  const layer = (await ikOf())[0]!;
  assert.deepEqual(layer["target"], [{ param: "Palm2.L IK x" }, { param: "Palm2.L IK y" }, { param: "Palm2.L IK z" }]);
  assert.deepEqual(layer["weight"], { param: "Palm2.L IK weight" });
  // The graph recompiles and plays the layer: its gizmo is drawn, the sliders are in the Parameters panel.
  await studio.page.waitForFunction(() => document.body.dataset["graph"] === "ok" && document.querySelector('input[data-param="Palm2.L IK weight"]') !== null, undefined, { timeout: 30_000 });
  await studio.page.waitForFunction("window.animgraphStudio.ikGizmos().length === 1");

  // A target three quarters of the way from the shoulder to where the hand is now, a little forward: within
  // reach (the robot's forearm is twice its upper arm, so a target nearer the shoulder than a third of the arm is not).
  const shoulder = await joint("UpperArm.L");
  const hand = await joint("Palm2.L");
  const arm = dist(shoulder.model, (await joint("LowerArm.L")).model) + dist((await joint("LowerArm.L")).model, hand.model);
  const want: Vec = [0, 1, 2].map((c) => shoulder.model[c]! + 0.75 * (hand.model[c]! - shoulder.model[c]!) + (c === 2 ? 0.1 * arm : 0)) as Vec;
  for (const [c, axis] of ["x", "y", "z"].entries()) await slide(`Palm2.L IK ${axis}`, want[c]!);
  await frames(4);
  // The gizmo and the bones read in one go (the same frame).
  const [[g], reached, upper, middle] = await studio.page.evaluate(`(() => { const s = window.animgraphStudio; return [s.ikGizmos(), s.joint("Palm2.L"), s.joint("UpperArm.L"), s.joint("LowerArm.L")]; })()`) as [Gizmo[], { world: Vec; model: Vec; pose: Vec }, { world: Vec; model: Vec; pose: Vec }, { world: Vec; model: Vec; pose: Vec }];
  assert.equal(g!.weight, 1);
  // The slider's step rounds the value: the target is what the parameters hold, near the one asked for.
  assert.ok(dist(g!.targetModel!, want) < 0.05 * arm, `target ${g!.targetModel} vs asked ${want}`);
  const miss = dist(reached.world, g!.target!);
  const armWorld = dist(upper.world, middle.world) + dist(middle.world, reached.world);
  assert.ok(miss < 1e-3 * armWorld, `the hand is ${miss} from the target gizmo (arm ${armWorld}, world units)`);
  // From the output pose itself (the library's model-space transform), and the bone drawn agrees with it.
  assert.ok(dist(reached.pose, g!.targetModel!) < 1e-4 * arm, `the output pose's hand is ${dist(reached.pose, g!.targetModel!)} from the target (arm ${arm})`);
  assert.ok(dist(reached.model, reached.pose) < 1e-5 * arm, "the drawn bone is the output pose's");
  assert.ok(dist(reached.model, handBefore.model) > 0.2 * arm, "the hand moved");
  // Weight 0: the hand goes back to where the animation has it.
  await slide("Palm2.L IK weight", 0);
  await frames(4);
  assert.ok(dist((await joint("Palm2.L")).model, (await gizmos())[0]!.targetModel!) > 0.2 * arm, "weight 0 leaves the hand to the animation");
  assert.equal((await gizmos())[0]!.weight, 0);
  await slide("Palm2.L IK weight", 1);

  // Keyboard: Space disables the focused layer, N adds one (the solver picked), Alt+↑ runs it earlier, Delete removes it.
  await studio.page.locator('#ik [data-ik-layer="0"]').focus();
  await studio.page.keyboard.press(" ");
  await studio.page.waitForFunction(() => JSON.parse((window as unknown as { animgraphStudio: { store: { text: string } } }).animgraphStudio.store.text).ik[0].enabled === false);
  await frames(4);
  assert.ok(dist((await joint("Palm2.L")).model, (await gizmos())[0]!.targetModel!) > 0.2 * arm, "a disabled layer does not run");
  await studio.page.locator('#ik [data-ik-layer="0"]').focus();
  await studio.page.keyboard.press(" ");
  await studio.page.waitForFunction(() => !("enabled" in JSON.parse((window as unknown as { animgraphStudio: { store: { text: string } } }).animgraphStudio.store.text).ik[0]));
  await ik("ik-new-solver").selectOption("aim");
  await studio.page.locator('#ik [data-ik-layer="0"]').focus();
  await studio.page.keyboard.press("n");
  await studio.page.waitForFunction(() => document.querySelectorAll("#ik [data-ik-layer]").length === 2);
  assert.deepEqual((await ikOf()).map((l) => l["name"]), ["Palm2.L IK", "Head aim"]);
  assert.equal(await studio.page.evaluate(() => document.activeElement?.getAttribute("data-ik-layer")), "1", "the new layer has the focus");
  await studio.page.keyboard.press("Alt+ArrowUp");
  await studio.page.waitForFunction(() => JSON.parse((window as unknown as { animgraphStudio: { store: { text: string } } }).animgraphStudio.store.text).ik[0].name === "Head aim");
  await studio.page.waitForFunction("window.animgraphStudio.ikGizmos().length === 2");
  await studio.page.locator('#ik [data-ik-layer="0"]').focus();
  await studio.page.keyboard.press("Delete");
  await studio.page.waitForFunction(() => document.querySelectorAll("#ik [data-ik-layer]").length === 1);
  assert.deepEqual((await ikOf()).map((l) => l["name"]), ["Palm2.L IK"]);

  // A chain that is not one: the compiler's finding shows at the layer; the last good graph plays on.
  await ik("ik-joint-joints-2").selectOption("Head");
  await studio.page.waitForFunction(() => document.querySelector('#ik [data-ik-layer="0"]')?.classList.contains("finding-error") === true, undefined, { timeout: 30_000 });
  assert.match(await studio.page.locator("#ik .ik-findings").textContent() ?? "", /E_IK_NOT_A_CHAIN \/ik\/0\/joints\/2/);
  await studio.page.locator('#ik [data-ik-layer="0"]').focus();
  await studio.page.keyboard.press("Control+z");
  await studio.page.waitForFunction(() => document.querySelector('#ik [data-ik-layer="0"]')?.classList.contains("finding-error") === false, undefined, { timeout: 30_000 });

  // Undo everything: the JSON is the original, the layer and its gizmos are gone.
  let undos = 0;
  while ((await studio.page.getAttribute("#undo", "aria-disabled")) !== "true") { await studio.page.keyboard.press("Control+z"); undos++; }
  assert.ok(undos >= 5, `${undos} undo steps`);
  assert.equal(await storeText(), original);
  await studio.page.waitForFunction("window.animgraphStudio.ikGizmos().length === 0", undefined, { timeout: 30_000 });
  assert.equal(await studio.page.locator("#ik [data-ik-layer]").count(), 0);
  assert.deepEqual(studio.pageErrors, []);
});

test("Fox: a foot-placement layer added from the panel, its ground height bound to a new parameter: raising the ground raises the planted feet by as much", { skip, timeout: 300_000 }, async () => {
  await studio.page.setInputFiles("#open-glb", repoPath("examples/fox/Fox.glb"));
  await studio.page.waitForFunction(() => /Fox/.test(document.querySelector("#status")?.textContent ?? ""), undefined, { timeout: 60_000 });
  await studio.page.selectOption("#new-graph", "clips");
  await waitForState(studio.page, "Survey", { graphOk: true });
  await ik("ik-new-solver").selectOption("footPlacement");
  await ik("ik-add").click();
  await studio.page.locator('#ik [data-ik-layer="0"]').waitFor();
  const layer = (await ikOf())[0]!;
  assert.equal(layer["pelvis"], "b_Hip_01");
  assert.deepEqual(layer["legs"], [["b_LeftLeg01_015", "b_LeftLeg02_016", "b_LeftFoot01_017"], ["b_RightLeg01_019", "b_RightLeg02_020", "b_RightFoot01_021"]]);
  await ik("ik-bind-ground/height").selectOption({ label: "new parameter…" });
  const param = "Foot placement ground height";
  await studio.page.waitForFunction((p) => document.body.dataset["graph"] === "ok" && document.querySelector(`input[data-param="${p}"]`) !== null, param, { timeout: 30_000 });
  await studio.page.waitForFunction("window.animgraphStudio.ikGizmos().length === 1 && window.animgraphStudio.ikGizmos()[0].ground !== null");

  const feet = ["b_LeftFoot01_017", "b_RightFoot01_021"];
  /** Each foot's height (model y, from the output pose) over `n` frames, with the ground height of each frame. */
  const sample = async (n: number): Promise<{ heights: number[][]; ground: number[] }> => {
    const heights: number[][] = feet.map(() => []), ground: number[] = [];
    for (let k = 0; k < n; k++) {
      await frames(1);
      const [g, ...joints] = await studio.page.evaluate(`(() => { const s = window.animgraphStudio; return [s.ikGizmos()[0], ${feet.map((f) => `s.joint(${JSON.stringify(f)})`).join(", ")}]; })()`) as [{ ground: { height: number } }, ...{ pose: Vec }[]];
      joints.forEach((j, f) => heights[f]!.push(j.pose[1]));
      ground.push(g.ground.height);
    }
    return { heights, ground };
  };
  const hip = (await joint("b_LeftLeg01_015")).pose, knee = (await joint("b_LeftLeg02_016")).pose, ankle = (await joint("b_LeftFoot01_017")).pose;
  const leg = dist(hip, knee) + dist(knee, ankle);
  // On the floor the clip was made on (height 0), the feet are as animated; Survey keeps them planted.
  const flat = await sample(20);
  assert.ok(flat.ground.every((h) => h === 0));
  await slide(param, 0.25 * leg);
  await frames(3);
  const raised = await sample(20);
  const h = raised.ground[0]!;
  assert.ok(h > 0.15 * leg && raised.ground.every((x) => x === h), `ground at ${h} (leg ${leg})`);
  feet.forEach((foot, f) => {
    const lo = Math.min(...flat.heights[f]!), hi = Math.max(...flat.heights[f]!);
    for (const y of raised.heights[f]!) {
      // The foot's height above the raised ground is its animated height (within the clip's own range over the frames sampled).
      assert.ok(y - h >= lo - 1e-3 * leg && y - h <= hi + 1e-3 * leg, `${foot} at ${y} on ground ${h}: ${y - h} outside the animated ${lo}..${hi}`);
    }
  });
  // The plane gizmo sits at the ground's height under the pelvis (world space: its centre's model height is h).
  const centre = (await gizmos() as unknown as { ground: { centre: Vec } }[])[0]!.ground.centre;
  const model = await studio.page.evaluate(`(() => { const s = window.animgraphStudio; const m = s.modelPoint(${JSON.stringify(centre)}); return m; })()`) as Vec;
  assert.ok(Math.abs(model[1] - h) < 1e-6 * leg + 1e-9, `the plane's centre is at model height ${model[1]}, the ground at ${h}`);
  assert.deepEqual(studio.pageErrors, []);
});

test("dragging the selected layer's target in the viewport moves its numbers in the document (one undo step) and the limb follows", { skip, timeout: 300_000 }, async () => {
  // Still Fox: a two-bone layer on its front leg, the target left as numbers.
  await ik("ik-new-solver").selectOption("twoBone");
  await ik("ik-add").click();
  await studio.page.waitForFunction(() => document.querySelectorAll("#ik [data-ik-layer]").length === 2);
  const before = (await ikOf())[1]!;
  const end = (before["joints"] as string[])[2]!;
  await studio.page.waitForFunction(() => document.body.dataset["graph"] === "ok" && (window as unknown as { animgraphStudio: { ikGizmos(): unknown[] } }).animgraphStudio.ikGizmos().length === 2, undefined, { timeout: 30_000 });
  await frames(3);
  const g = (await gizmos())[1]!;
  const from = await studio.page.evaluate(`window.animgraphStudio.screenPoint(${JSON.stringify(g.target)})`) as { x: number; y: number };
  const undoLabel = async (): Promise<string> => (await studio.page.getAttribute("#undo", "title")) ?? "";
  const labelBefore = await undoLabel();
  await studio.page.mouse.move(from.x, from.y);
  await studio.page.mouse.down();
  for (let k = 1; k <= 8; k++) await studio.page.mouse.move(from.x + 5 * k, from.y - 4 * k);
  await studio.page.mouse.up();
  await studio.page.waitForFunction((t) => JSON.stringify(JSON.parse((window as unknown as { animgraphStudio: { store: { text: string } } }).animgraphStudio.store.text).ik[1].target) !== t, JSON.stringify(before["target"]), { timeout: 30_000 });
  const moved = (await ikOf())[1]!["target"] as Vec;
  const was = before["target"] as Vec;
  assert.ok(dist(moved, was) > 0, `target ${was} → ${moved}`);
  assert.match(await undoLabel(), /Move target of /);
  // The limb's end follows the moved target (a recompile on the next frame).
  await studio.page.waitForFunction((t) => { const g2 = (window as unknown as { animgraphStudio: { ikGizmos(): { targetModel: number[] }[] } }).animgraphStudio.ikGizmos()[1]; return g2 !== undefined && Math.hypot(g2.targetModel[0]! - t[0]!, g2.targetModel[1]! - t[1]!, g2.targetModel[2]! - t[2]!) < 1e-9; }, moved, { timeout: 30_000 });
  await frames(3);
  const after = await joint(end);
  const g2 = (await gizmos())[1]!;
  const hipToEnd = dist((await joint((before["joints"] as string[])[0]!)).pose, after.pose);
  assert.ok(dist(after.pose, g2.targetModel!) < dist(was, g2.targetModel!) + 1e-9, "the end is nearer the dragged target than the old target is");
  assert.ok(hipToEnd > 0);
  // One drag, one undo step: undo gives the target it had.
  await studio.page.locator('#ik [data-ik-layer="1"]').focus();
  await studio.page.keyboard.press("Control+z");
  await studio.page.waitForFunction(() => (window as unknown as { animgraphStudio: { store: { text: string } } }).animgraphStudio.store.text.includes('"ik"'));
  assert.deepEqual((await ikOf())[1]!["target"], was);
  assert.equal(await undoLabel(), labelBefore);
  assert.deepEqual(studio.pageErrors, []);
});
