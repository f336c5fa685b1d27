import { TensorError } from '../../errors.js';

/** What a gpu.js kernel returns with `pipeline: true`: a typed array (webasm, cpu) or a Texture (GL). */
export type GpuValue = Float32Array | GpuTexture;
export interface GpuTexture {
  toArray(): Float32Array | Float32Array[];
  delete(): void;
  clone?(): GpuTexture;
}

export interface GpuKernel {
  (...args: unknown[]): GpuValue;
  setOutput(output: number[]): GpuKernel;
}
export interface GpuJs {
  mode: string;
  createKernel(source: string, settings: Record<string, unknown>): GpuKernel;
  addFunction(source: string): void;
  destroy(): void;
}

export interface GpuJsModule {
  GPU: (new (settings?: { mode?: string }) => GpuJs) & {
    isHeadlessGLSupported: boolean;
    isWebGL2Supported: boolean;
    isWebGLSupported: boolean;
  };
}

/**
 * Note [gpu.js is an optional peer]
 * gpu.js (with webgpu, the native gl addon and node-gyp: ~150 packages) is an optional peer
 * dependency of @wiregrad/tensor, so cpu-only installs never fetch it. Nothing imports it up
 * front: the gpu device loads it on first use (Node: a require from the platform module;
 * a browser page: the global GPU of gpu.js's browser build, or `loadGpu(() =>
 * import('gpu.js'))`, which lets a bundler split it into a chunk fetched only then). When it
 * cannot be loaded, using the gpu device throws MISSING_DEPENDENCY naming the package, and
 * gpuInfo() reports it unavailable.
 */
export function missingGpuJs(cause: unknown): TensorError {
  const why = cause instanceof Error ? cause.message : String(cause);
  const error = new TensorError(
    'MISSING_DEPENDENCY',
    `the gpu device needs the package gpu.js (an optional peer dependency of @wiregrad/tensor): install it with \`npm install gpu.js\` (loading it failed: ${why})`,
  );
  error.cause = cause;
  return error;
}

/** gpu.js's module from `loader` (its CommonJS exports, an ES module namespace around them, or the browser build's GPU). */
export function gpuJsModule(loader: () => unknown): GpuJsModule {
  let mod: unknown;
  try {
    mod = loader();
  } catch (e) {
    throw missingGpuJs(e);
  }
  const candidates = [mod, (mod as { default?: unknown } | null)?.default];
  for (const c of candidates) {
    if (typeof c === 'function' && 'isWebGL2Supported' in c) return { GPU: c as GpuJsModule['GPU'] };
    const GPU = (c as { GPU?: unknown } | null | undefined)?.GPU;
    if (typeof GPU === 'function') return { GPU: GPU as GpuJsModule['GPU'] };
  }
  throw missingGpuJs(new Error('the module has no GPU class'));
}
