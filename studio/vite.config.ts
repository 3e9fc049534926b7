// The studio imports the library by its package name: "animgraph" (the browser-safe entry) and
// "animgraph/three" (the three.js adapter), aliased to the sources so the studio always runs the
// code in this checkout. The bundled examples are served as static files.
import { fileURLToPath } from "node:url";
import { createLogger, defineConfig } from "vite";

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

// The library's file-path helpers import node built-ins that the studio never calls; Vite stubs them
// for the browser and warns once per module. Those warnings are expected, so they are not printed.
const logger = createLogger("warn");
const warn = logger.warn.bind(logger);
logger.warn = (message, options) => {
  if (!message.includes("externalized for browser compatibility")) warn(message, options);
};

// Cross-origin isolation: with it, browsers give performance.now() at 5 µs instead of 100 µs, so the
// Performance panel's phases are measured, not rounded to zero (everything the studio loads is same-origin).
const isolation = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };

export default defineConfig({
  server: { headers: isolation },
  preview: { headers: isolation },
  root: here("."),
  base: "./",
  publicDir: here("../examples"),
  resolve: {
    alias: [
      { find: /^animgraph\/three$/, replacement: here("../src/three/index.ts") },
      { find: /^animgraph$/, replacement: here("../src/index.ts") },
    ],
  },
  build: { outDir: here("dist"), emptyOutDir: true, chunkSizeWarningLimit: 2000, target: "es2022" },
  logLevel: "warn",
  customLogger: logger,
});
