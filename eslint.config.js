// Lint rules: the recommended sets, type-aware where it catches real bugs (floating promises).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "docs-api/**", "node_modules/**", "studio/dist/**", "coverage/**", "**/*.d.ts", "**/*.d.mts", "assembly/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-non-null-assertion": "off",
      "no-constant-condition": ["error", { checkLoops: false }],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
  {
    // Browser apps (the size probes, the examples): the page's globals.
    files: ["scripts/size/**/*.js", "examples/*/src/**/*.js", "examples/*/main.js"],
    languageOptions: { globals: { document: "readonly", window: "readonly", fetch: "readonly", addEventListener: "readonly", requestAnimationFrame: "readonly", performance: "readonly", devicePixelRatio: "readonly", innerWidth: "readonly", innerHeight: "readonly" } },
  },
);
