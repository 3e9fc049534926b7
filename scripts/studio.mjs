// `npm start`: builds the studio with Vite and serves it on localhost, printing its URL.
// Options: --port N (default 5173), --no-build (serve the last build).
import { build, preview } from "vite";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const portArg = args.indexOf("--port");
const port = portArg >= 0 ? Number(args[portArg + 1]) : 5173;
const configFile = fileURLToPath(new URL("../studio/vite.config.ts", import.meta.url));
if (!args.includes("--no-build")) await build({ configFile, logLevel: "warn" });
const server = await preview({ configFile, preview: { port, strictPort: false, host: "127.0.0.1" } });
const url = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`;
console.log(`animgraph studio: ${url}`);
console.log("(Ctrl+C to stop)");
