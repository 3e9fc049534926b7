// The character and its graph are served from ../robot (in your own app: put them in public/).
import { defineConfig } from "vite";

export default defineConfig({
  publicDir: new URL("../robot", import.meta.url).pathname,
});
