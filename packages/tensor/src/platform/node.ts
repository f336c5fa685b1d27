// The Node.js host of @wiregrad/tensor (Note [Platform modules]).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PlatformThread, TensorPlatform } from './types.js';

export const platform: TensorPlatform = {
  name: 'node',
  env: (name) => process.env[name],
  cores: () => availableParallelism(),
  decodeBase64: (base64) => {
    const b = Buffer.from(base64, 'base64');
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  },
  startThread: (source, data): PlatformThread => {
    const script = `const { workerData } = require('node:worker_threads');\n${source}`;
    const worker = new Worker(script, { eval: true, execArgv: [], workerData: data });
    return {
      unref: () => worker.unref(),
      ref: () => worker.ref(),
      onceExit: (listener) => worker.once('exit', listener),
    };
  },
  threadsRunWhileBlocked: true,
  loadGpuJs: () => nodeRequire()('gpu.js') as unknown,
};

/**
 * A `require` for the file that runs (a CommonJS bundle's `__filename`, else this module), from
 * `process.getBuiltinModule`: bundlers follow neither, so gpu.js and its native headless-gl stay
 * in node_modules, loaded by Node when the gpu device is first used (as rpc loads zeromq: Note
 * [zeromq is loaded by Node]).
 */
function nodeRequire(): NodeJS.Require {
  const { createRequire } = process.getBuiltinModule('node:module');
  return createRequire(typeof __filename === 'string' ? __filename : import.meta.url);
}
