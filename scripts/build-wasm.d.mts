// Types for scripts/build-wasm.mjs (imported by test/crowd/wasm-crowd.test.ts).
export declare const ASC_ARGS: readonly string[];
/** Compiles assembly/crowd-kernel.ts and returns the wasm as base64. */
export declare function compileKernel(): Promise<string>;
