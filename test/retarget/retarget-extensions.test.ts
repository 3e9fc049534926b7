// Nothing dropped on write (issue 11): a character retargeted keeps its extensions and materials.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KHRMaterialsEmissiveStrength, KHRMaterialsSpecular, KHRTextureTransform } from "@gltf-transform/extensions";
import { main } from "../../src/cli/main.ts";
import { createGltfIO } from "../../src/io/gltf/gltf-io.ts";
import { HAVE_SHARED_ASSETS, repoPath, sharedAsset } from "../helpers/assets.ts";

const skip = !HAVE_SHARED_ASSETS;
const dir = mkdtempSync(join(tmpdir(), "animgraph-extensions-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** The JSON chunk of a GLB. */
function glbJson(path: string): { extensionsUsed?: string[]; extensionsRequired?: string[]; materials?: unknown[]; textures?: unknown[] } {
  const bytes = readFileSync(path);
  const length = bytes.readUInt32LE(12);
  return JSON.parse(bytes.subarray(20, 20 + length).toString("utf8")) as ReturnType<typeof glbJson>;
}

async function retarget(target: string, out: string, map?: string): Promise<{ code: number; err: string }> {
  let err = "";
  const code = await main(["retarget", sharedAsset("bvh-cmu-131/131_01.bvh"), "--to", target, "--out", out, ...(map ? ["--map", map] : [])], {
    stdout: () => {}, stderr: (s) => void (err += s), cwd: process.cwd(),
  });
  return { code, err };
}

/** A material's JSON without the properties that only restate glTF's defaults (writers may omit them). */
function withoutDefaults(material: unknown): unknown {
  const m = structuredClone(material) as Record<string, unknown>;
  const defaults: Record<string, unknown> = { alphaMode: "OPAQUE", doubleSided: false, emissiveFactor: [0, 0, 0] };
  for (const [key, value] of Object.entries(defaults)) if (JSON.stringify(m[key]) === JSON.stringify(value)) delete m[key];
  const pbr = m["pbrMetallicRoughness"] as Record<string, unknown> | undefined;
  if (pbr) {
    for (const [key, value] of Object.entries({ baseColorFactor: [1, 1, 1, 1], metallicFactor: 1, roughnessFactor: 1 })) {
      if (JSON.stringify(pbr[key]) === JSON.stringify(value)) delete pbr[key];
    }
  }
  return m;
}

function assertSameLook(input: string, output: string): void {
  const a = glbJson(input), b = glbJson(output);
  assert.deepEqual([...(b.extensionsUsed ?? [])].sort(), [...(a.extensionsUsed ?? [])].sort());
  assert.deepEqual([...(b.extensionsRequired ?? [])].sort(), [...(a.extensionsRequired ?? [])].sort());
  assert.deepEqual((b.materials ?? []).map(withoutDefaults), (a.materials ?? []).map(withoutDefaults));
  assert.equal((b.textures ?? []).length, (a.textures ?? []).length);
}

test("retarget keeps every bundled character's materials, textures and extension lists", { skip }, async () => {
  const cases: [string, string?][] = [
    [repoPath("examples/robot/RobotExpressive.glb")],
    [sharedAsset("fox/Fox.glb")],
    [sharedAsset("cesium-man/CesiumMan.glb")],
  ];
  for (const [input, map] of cases) {
    const out = join(dir, "out.glb");
    const r = await retarget(input, out, map);
    assert.ok(r.code === 0 || r.code === 1, r.err);
    assert.doesNotMatch(r.err, /Missing optional extension/);
    assertSameLook(input, out);
  }
});

test("retarget keeps KHR_materials_specular, KHR_materials_emissive_strength and KHR_texture_transform (they used to be dropped)", { skip }, async () => {
  const io = createGltfIO();
  const doc = await io.read(repoPath("examples/robot/RobotExpressive.glb"));
  const specular = doc.createExtension(KHRMaterialsSpecular).createSpecular().setSpecularFactor(0.25).setSpecularColorFactor([1, 0.5, 0.25]);
  const strength = doc.createExtension(KHRMaterialsEmissiveStrength).createEmissiveStrength().setEmissiveStrength(4);
  doc.createExtension(KHRTextureTransform);
  const material = doc.getRoot().listMaterials()[0]!;
  material.setExtension("KHR_materials_specular", specular).setExtension("KHR_materials_emissive_strength", strength);
  const input = join(dir, "robot-specular.glb");
  writeFileSync(input, await io.writeBinary(doc));
  assert.ok(glbJson(input).extensionsUsed?.includes("KHR_materials_specular"));
  const out = join(dir, "robot-specular-out.glb");
  const r = await retarget(input, out);
  assert.ok(r.code === 0 || r.code === 1, r.err);
  assert.doesNotMatch(r.err, /Missing optional extension/);
  assertSameLook(input, out);
  const written = glbJson(out).materials![0] as { extensions?: Record<string, { specularFactor?: number; emissiveStrength?: number }> };
  assert.equal(written.extensions?.["KHR_materials_specular"]?.specularFactor, 0.25);
  assert.equal(written.extensions?.["KHR_materials_emissive_strength"]?.emissiveStrength, 4);
});
