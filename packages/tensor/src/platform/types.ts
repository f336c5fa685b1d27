/**
 * Note [Platform modules]
 * What the tensor package needs from its host beyond ECMAScript: environment variables, the
 * number of cores, threads that share memory (the cpu kernels' pool), and gpu.js. The logic
 * is shared; only these primitives differ, in `platform/node.ts` and `platform/browser.ts`,
 * which modules import as `#platform`. package.json's `imports` map picks one by export
 * condition: `browser` gets browser.js (no `node:` module, no Node global), everything else
 * node.js; the `source` condition maps to the TypeScript files for the workspace's tests and
 * tsc (tsconfig's customConditions). The browser-bundle spec in packages/consumer-tests
 * checks that a browser bundle of tensor + autograd contains no `node:` import.
 */
export interface PlatformThread {
  /** lets the host exit while the thread idles (Node's unref; a no-op where it means nothing) */
  unref(): void;
  ref(): void;
  /** calls `listener` once the thread has exited, with its exit code */
  onceExit(listener: (code: number) => void): void;
}

export interface TensorPlatform {
  readonly name: 'node' | 'browser';
  /** an environment variable (WIREGRAD_*), undefined where the host has none */
  env(name: string): string | undefined;
  /** the default number of threads for the cpu kernels */
  cores(): number;
  /** the bytes of a base64 string */
  decodeBase64(base64: string): Uint8Array;
  /**
   * Starts a thread running the script `source`, in which `workerData` is `data` (a
   * worker_threads Worker on Node, a Web Worker on a page; the shared buffers and memory in
   * `data` are shared, not copied); null where the host has no threads that share memory (a
   * page that is not cross-origin isolated).
   */
  readonly startThread: ((source: string, data: Record<string, unknown>) => PlatformThread) | null;
  /**
   * Whether a thread runs while the thread that started it blocks: true on Node; false on a
   * page, whose workers start only once its event loop turns again and whose main thread may
   * not Atomics.wait (Note [Pool on the web]).
   */
  readonly threadsRunWhileBlocked: boolean;
  /** gpu.js's module (`{ GPU }`); throws with the reason when it cannot be loaded */
  loadGpuJs(): unknown;
}
