// The browser host of @wiregrad/tensor (Note [Platform modules]): nothing from Node.
import type { TensorPlatform } from './types.js';

interface BrowserGlobals {
  GPU?: unknown;
}

export const platform: TensorPlatform = {
  name: 'browser',
  env: () => undefined,
  // no thread pool here yet, so the cpu kernels run on the calling thread
  cores: () => 1,
  decodeBase64: (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)),
  startThread: null,
  loadGpuJs: () => {
    // gpu.js's browser build (gpu-browser.js) defines a global GPU
    const g = (globalThis as BrowserGlobals).GPU;
    if (g === undefined) throw new Error("gpu.js's browser build is not loaded (no global GPU)");
    return typeof g === 'function' ? { GPU: g } : g;
  },
};
