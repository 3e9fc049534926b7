// The API reference (`npm run docs:api`, TypeDoc over the three package entries) has no gaps: every
// export is documented, every type an export refers to is in the reference, every {@link} resolves.
// typedoc.json turns those validation warnings into a failing exit code; this test runs it without
// writing HTML (`--emit none` still validates) and without TypeScript's own error check (`npm test`
// typechecks already; skipping it saves about 40 % of the run), and checks on a one-file fixture that the config does
// fail on an undocumented export — so the first test cannot pass by validating nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoPath } from "../helpers/assets.ts";

const TYPEDOC = repoPath("node_modules/typedoc/bin/typedoc");

function typedoc(args: string[]): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [TYPEDOC, ...args, "--emit", "none", "--skipErrorChecking"], {
    cwd: repoPath("."),
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

test("every export of animgraph, animgraph/node and animgraph/three is documented", { timeout: 120_000 }, () => {
  const r = typedoc([]);
  assert.doesNotMatch(r.output, /warning|error/i, r.output);
  assert.equal(r.status, 0, r.output);
});

test("the TypeDoc config fails on an undocumented export", { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "animgraph-typedoc-"));
  try {
    writeFileSync(join(dir, "index.ts"), [
      "/** Documented: the reference shows this sentence. */",
      "export function documented(): number { return 1; }",
      "export function undocumented(): number { return 2; }",
      "",
    ].join("\n"));
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
      compilerOptions: { strict: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", skipLibCheck: true, types: [] },
      files: ["index.ts"],
    }));
    // The project's options, with only the entry point and tsconfig replaced.
    writeFileSync(join(dir, "typedoc.json"), JSON.stringify({
      extends: [repoPath("typedoc.json")], entryPoints: ["index.ts"], tsconfig: "tsconfig.json",
    }));
    const r = typedoc(["--options", join(dir, "typedoc.json")]);
    assert.notEqual(r.status, 0, r.output);
    assert.match(r.output, /undocumented \(CallSignature\).*does not have any documentation/);
    assert.doesNotMatch(r.output, /\bdocumented \(CallSignature\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
