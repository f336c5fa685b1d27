// The browser host of @wiregrad/tensor (Note [Platform modules]): nothing from Node.
import type { PlatformThread, TensorPlatform } from './types.js';

/** The few web APIs used here (the package compiles without the DOM lib). */
interface WebWorker {
  postMessage(data: unknown): void;
  addEventListener(type: 'message' | 'error', listener: () => void): void;
}
interface BrowserGlobals {
  GPU?: unknown;
  crossOriginIsolated?: boolean;
  navigator?: { hardwareConcurrency?: number };
  Worker?: new (url: string) => WebWorker;
  Blob: new (parts: string[], options: { type: string }) => object;
  URL: { createObjectURL(blob: object): string; revokeObjectURL(url: string): void };
}
const web = globalThis as unknown as BrowserGlobals;

/**
 * Note [Pool on the web]
 * Threads that share a WebAssembly.Memory need SharedArrayBuffer, which a page has only when
 * it is cross-origin isolated (served with `Cross-Origin-Opener-Policy: same-origin` and
 * `Cross-Origin-Embedder-Policy: require-corp`). There the cpu kernels' pool runs on Web
 * Workers started from a Blob URL of the same worker script as on Node (Note [Pool worker]),
 * which gets the compiled module, the memory and its control words in one message. Elsewhere
 * there are no pool threads and every task of a kernel runs on the calling thread, in order:
 * the same kernels on the same split, so the results are the same bytes (the
 * browser-threads spec in consumer-tests compares them with Node's). Two rules of the web
 * shape the pool (ThreadPool.run): a worker starts only after the page's event loop turns, so
 * a task goes to a worker only once it said it is ready (the calling thread runs it
 * otherwise); and a page's main thread may not Atomics.wait, so it spins on the done word.
 */
function startWorker(source: string, data: Record<string, unknown>): PlatformThread {
  const script = `onmessage = (event) => {\nonmessage = null;\nconst workerData = event.data;\n${source}\npostMessage('exit');\nclose();\n};`;
  const url = web.URL.createObjectURL(new web.Blob([script], { type: 'text/javascript' }));
  const worker = new web.Worker!(url);
  worker.postMessage(data);
  return {
    // a Web Worker never keeps a page open
    unref: () => undefined,
    ref: () => undefined,
    onceExit: (listener) => {
      let exited = false;
      const exit = (code: number): void => {
        if (exited) return;
        exited = true;
        web.URL.revokeObjectURL(url);
        listener(code);
      };
      worker.addEventListener('message', () => exit(0));
      worker.addEventListener('error', () => exit(1));
    },
  };
}

const threads = web.crossOriginIsolated === true && typeof web.Worker === 'function';

export const platform: TensorPlatform = {
  name: 'browser',
  env: () => undefined,
  cores: () => (threads ? Math.max(1, web.navigator?.hardwareConcurrency ?? 1) : 1),
  decodeBase64: (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)),
  startThread: threads ? startWorker : null,
  threadsRunWhileBlocked: false,
  loadGpuJs: () => {
    // gpu.js's browser build (gpu-browser.js) defines a global GPU; so does every current Chromium,
    // as the WebGPU interface (not constructible), so only a class with gpu.js's statics is taken
    const g = web.GPU;
    if (g === undefined) throw new Error("gpu.js's browser build is not loaded (no global GPU)");
    const cls = typeof g === 'function' ? g : (g as { GPU?: unknown } | null)?.GPU;
    if (typeof cls !== 'function' || !('isWebGL2Supported' in cls))
      throw new Error(
        "gpu.js's browser build is not loaded (the global GPU is not gpu.js's class: in this browser it is the WebGPU interface); load gpu-browser.js first, or call loadGpu(() => import('gpu.js'))",
      );
    return { GPU: cls };
  },
};
