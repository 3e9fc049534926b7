import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadGltf } from "../../../src/io/gltf/load-gltf.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../../helpers/assets.ts";
import { mulberry32 } from "../../helpers/seeded-random.ts";

const skip = HAVE_SHARED_ASSETS ? false : "shared assets not present";

const prng = mulberry32;

/**
 * One mutation of a GLB: most of them edit digits inside the JSON chunk (counts, offsets, indices and
 * component types change while the JSON stays parseable), the rest corrupt BIN bytes, write NaN or
 * huge floats, or truncate the file.
 */
function mutate(original: Uint8Array, rand: () => number): { bytes: Uint8Array; kind: string } {
  const bytes = original.slice();
  const dv = new DataView(bytes.buffer);
  const jsonLength = dv.getUint32(12, true);
  const binStart = 28 + jsonLength;
  const pick = (from: number, to: number) => from + Math.floor(rand() * (to - from));
  const r = rand();
  if (r < 0.5) {
    // Replace 1–3 digits in the JSON with other digits.
    for (let n = pick(1, 4); n > 0; n--) {
      for (let tries = 0; tries < 64; tries++) {
        const i = pick(20, 20 + jsonLength);
        if (bytes[i]! >= 0x30 && bytes[i]! <= 0x39) {
          bytes[i] = 0x30 + pick(0, 10);
          break;
        }
      }
    }
    return { bytes, kind: "json-digit" };
  }
  if (r < 0.65) {
    for (let n = pick(1, 16); n > 0; n--) { const at = pick(binStart, bytes.length); bytes[at] = bytes[at]! ^ (1 << pick(0, 8)); }
    return { bytes, kind: "bin-bits" };
  }
  if (r < 0.8) {
    const special = [NaN, Infinity, -Infinity, 1e30, -1, 0][pick(0, 6)]!;
    for (let n = pick(1, 8); n > 0; n--) dv.setFloat32(binStart + 4 * pick(0, (bytes.length - binStart) / 4 - 1), special, true);
    return { bytes, kind: "bin-float" };
  }
  if (r < 0.9) return { bytes: bytes.subarray(0, pick(0, bytes.length)), kind: "truncate" };
  for (let n = pick(1, 8); n > 0; n--) bytes[pick(0, Math.min(bytes.length, binStart))] = pick(0, 256);
  return { bytes, kind: "any-byte" };
}

const PLAN: [string, number][] = [
  ["rigged-simple/RiggedSimple.glb", 120],
  ["fox/Fox.glb", 80],
  ["cesium-man/CesiumMan.glb", 60],
  ["robot-expressive/RobotExpressive.glb", 40],
];

test("300 seeded mutations of the real assets: the loader loads or reports diagnostics, never throws", { skip }, async () => {
  const rand = prng(20261202);
  const outcomes = new Map<string, number>();
  const wrapped: string[] = [];
  let total = 0;
  for (const [file, runs] of PLAN) {
    const original = new Uint8Array(readFileSync(sharedAsset(file)));
    for (let i = 0; i < runs; i++) {
      const { bytes, kind } = mutate(original, rand);
      const label = `${file}#${i}(${kind})`;
      const r = await loadGltf(bytes, { fileName: label, mergeAnimations: i % 2 === 1 });
      total++;
      assert.equal(typeof r.ok, "boolean");
      for (const d of r.diagnostics) {
        assert.equal(d.file, label);
        assert.match(d.code, /^[EWI]_GL(TF|B)_[A-Z_]+$/);
        assert.equal(typeof d.pointer, "string");
        assert.ok(d.pointer === "" || d.pointer.startsWith("/"), `${label}: pointer ${d.pointer}`);
      }
      if (!r.ok) {
        assert.ok(r.diagnostics.some((d) => d.severity === "error"), `${label}: not ok without an error`);
        for (const d of r.diagnostics) outcomes.set(d.code, (outcomes.get(d.code) ?? 0) + 1);
        const general = r.diagnostics.find((d) => d.message.startsWith("the glTF could not be read:"));
        if (general) wrapped.push(`${label}: ${general.message}`);
      } else {
        outcomes.set("ok", (outcomes.get("ok") ?? 0) + 1);
        // A loaded result is internally consistent: clips are bound to returned skeletons.
        for (const clip of r.clips) assert.ok(r.skeletons.includes(clip.skeleton), `${label}: clip bound to a foreign skeleton`);
      }
      // Whatever loaded, every key time is finite and ascending, every value finite.
      for (const clip of r.clips) {
        for (const t of [...clip.tracks, ...clip.floatTracks]) {
          for (let k = 1; k < t.times.length; k++) assert.ok(t.times[k]! > t.times[k - 1]!, `${label}: times`);
          assert.ok(t.values.every(Number.isFinite), `${label}: values`);
        }
      }
    }
  }
  assert.equal(total, 300);
  // The mutations reach the specific checks, not only the catch-all.
  for (const code of ["E_GLTF_READ", "E_GLTF_NONFINITE", "E_GLB_TRUNCATED"]) assert.ok((outcomes.get(code) ?? 0) > 0, `no ${code} in ${JSON.stringify([...outcomes])}`);
  assert.ok((outcomes.get("ok") ?? 0) > 0, "some mutations leave a loadable file");
  // Exceptions from @gltf-transform/core are wrapped as E_GLTF_READ; they should be rare, since the
  // JSON is validated before it is handed on.
  assert.ok(wrapped.length <= 5, `too many wrapped exceptions:\n${wrapped.join("\n")}`);
});
