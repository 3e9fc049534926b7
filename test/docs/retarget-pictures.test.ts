// The pictures in docs/retargeting.md are current: `npm run docs:retarget` recorded, in
// docs/retarget/manifest.json, the hash of each retargeted GLB it drew, of its page and three.js's version.
// Retargeting the same pairs now must give the same bytes; otherwise run `npm run docs:retarget`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { main } from "../../src/cli/main.ts";
import { HAVE_SHARED_ASSETS, repoPath, sharedAsset } from "../helpers/assets.ts";

const skip = !HAVE_SHARED_ASSETS;
const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

interface Manifest {
  three: string;
  page: string;
  pictures: { name: string; source: string; target: string; glbSha256: string }[];
}

test("docs/retarget pictures are current (same retargeted bytes, same page, same three.js); else run npm run docs:retarget", { skip }, async () => {
  const manifest = JSON.parse(readFileSync(repoPath("docs/retarget/manifest.json"), "utf8")) as Manifest;
  assert.equal(manifest.three, (JSON.parse(readFileSync(repoPath("node_modules/three/package.json"), "utf8")) as { version: string }).version);
  assert.equal(manifest.page, sha256(readFileSync(repoPath("scripts/docs-retarget/page.html"))), "the page changed: run npm run docs:retarget");
  const doc = readFileSync(repoPath("docs/retargeting.md"), "utf8");
  const dir = mkdtempSync(join(tmpdir(), "animgraph-pictures-"));
  try {
    for (const picture of manifest.pictures) {
      assert.ok(existsSync(repoPath(`docs/retarget/${picture.name}.png`)), picture.name);
      assert.ok(doc.includes(`retarget/${picture.name}.png`), `docs/retargeting.md shows ${picture.name}.png`);
      const out = join(dir, `${picture.name}.glb`);
      let err = "";
      const code = await main(["retarget", sharedAsset(picture.source), "--to", resolve(repoPath(""), picture.target), "--name", "Retargeted", "--out", out], {
        stdout: () => {}, stderr: (s) => void (err += s), cwd: process.cwd(),
      });
      assert.ok(code === 0 || code === 1, err);
      assert.equal(sha256(readFileSync(out)), picture.glbSha256, `${picture.name}: the retarget output changed since the pictures were drawn; run npm run docs:retarget`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
