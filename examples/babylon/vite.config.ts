// The example imports the library by its package name, aliased to the sources (as the studio does),
// so it always runs the code in this checkout; examples/robot/ is served as static files.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here("."),
  base: "./",
  publicDir: here("../robot"),
  resolve: {
    alias: [
      { find: /^animgraph\/babylon$/, replacement: here("../../src/babylon/index.ts") },
      { find: /^animgraph$/, replacement: here("../../src/index.ts") },
    ],
  },
  build: { outDir: here("dist"), emptyOutDir: true, chunkSizeWarningLimit: 4000, target: "es2022" },
  logLevel: "warn",
});
