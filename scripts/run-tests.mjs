// Runs every test/**/*.test.ts with node's own test runner (TypeScript through tsx), so CI reads
// node's closing summary. Node 20's --test takes no globs, hence the explicit file list.
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { spawnSync } from "node:child_process";

const root = new URL("..", import.meta.url).pathname;
const filter = process.argv.slice(2);
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith(".test.ts")) files.push(relative(root, path));
  }
})(join(root, "test"));
const chosen = filter.length ? files.filter((f) => filter.some((w) => f.includes(w))) : files;
if (chosen.length === 0) {
  console.error("no test files matched");
  process.exit(2);
}
const result = spawnSync(
  process.execPath,
  ["--import", "tsx", "--import", "./test/helpers/property-config.ts", "--test", "--test-reporter=spec", "--test-concurrency=2", ...chosen],
  { cwd: root, stdio: "inherit" },
);
process.exit(result.status ?? 1);
