import { CROWD_KERNEL_WASM_BASE64 } from "./kernel-binary.ts";

/** The compiled crowd kernel (assembly/crowd-kernel.ts): compile once, instantiate per crowd. */
export interface CrowdKernel {
  readonly module: WebAssembly.Module;
  /** First byte after the module's static data; a crowd's memory layout starts here. */
  readonly heapBase: number;
}

/** The functions a kernel instance exports. */
export interface KernelExports {
  run(commands: number): number;
  heapBase(): number;
  /** Largest y = 1 − cos A the kernel's slerp series takes with n terms (1 … 6); for the tests. */
  seriesLimit(n: number): number;
}

let cached: CrowdKernel | null = null;
let decoded: Uint8Array<ArrayBuffer> | null = null;

/** The module's bytes, decoded from base64 once. */
function bytes(): Uint8Array<ArrayBuffer> {
  if (decoded) return decoded;
  const text = atob(CROWD_KERNEL_WASM_BASE64);
  decoded = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) decoded[i] = text.charCodeAt(i);
  return decoded;
}

function finish(module: WebAssembly.Module): CrowdKernel {
  const memory = new WebAssembly.Memory({ initial: 1 });
  const probe = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as KernelExports;
  cached = { module, heapBase: probe.heapBase() };
  return cached;
}

/** Whether this engine runs WebAssembly with 128-bit SIMD (Node ≥ 16.4, every current browser). */
export function crowdKernelSupported(): boolean {
  return typeof WebAssembly === "object" && WebAssembly.validate(bytes());
}

/**
 * The crowd kernel, compiled synchronously (Node, workers; browsers refuse synchronous compilation
 * of large modules on the main thread, so pages use `loadCrowdKernel`). Throws when the engine has no
 * WebAssembly SIMD (check `crowdKernelSupported` first to fall back to the JS path).
 */
export function loadCrowdKernelSync(): CrowdKernel {
  return cached ?? finish(new WebAssembly.Module(bytes()));
}

/** The crowd kernel, compiled asynchronously (works everywhere; cached after the first call). */
export async function loadCrowdKernel(): Promise<CrowdKernel> {
  return cached ?? finish(await WebAssembly.compile(bytes()));
}
