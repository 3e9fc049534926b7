// The example imports the library by its package name, aliased to the sources (as the studio does),
// so it always runs the code in this checkout; examples/robot/ is served as static files.
import { fileURLToPath } from "node:url";
import { createLogger, defineConfig } from "vite";

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

// Until the package's browser entry is free of Node imports (issue 13, done separately), Vite stubs
// the file-path helpers the page never calls and warns once per module; those warnings are expected.
const logger = createLogger("warn");
const warn = logger.warn.bind(logger);
logger.warn = (message, options) => {
  if (!message.includes("externalized for browser compatibility")) warn(message, options);
};

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
  customLogger: logger,
});
