import { platform } from '#platform';
import { TensorError } from '../../errors.js';
import {
  type GpuJs,
  type GpuJsModule,
  type GpuKernel,
  type GpuValue,
  gpuJsModule,
  missingGpuJs,
} from './gpuJsModule.js';

export type { GpuJs, GpuKernel, GpuTexture, GpuValue } from './gpuJsModule.js';

/** gpu.js modes, best first (Note [gpu.js modes]). */
export type GpuMode = 'headlessgl' | 'webgl2' | 'webgl' | 'webgpu' | 'webasm' | 'cpu';

export interface GpuInfo {
  available: boolean;
  mode: GpuMode;
  devices: number;
  /**
   * Whether kernels run through a graphics API (the GL modes, WebGPU). false in gpu.js's
   * webasm and cpu modes, where the "gpu" computes on the cpu, slower than the cpu device
   * (Note [Accelerated gpu modes]); false when unavailable.
   */
  accelerated: boolean;
}

/**
 * Note [gpu.js modes]
 * The gpu device runs on gpu.js, loaded on first use so cpu-only programs never load it.
 * Without a configured mode it takes the best one gpu.js can start here: headless-gl
 * (WebGL through the optional `gl` addon and an X display), WebGL2, WebGL, then
 * WebAssembly, then plain JS; WebGPU only when asked for (gpu.js itself treats it as
 * opt-in). WIREGRAD_GPU_MODE or `setGpuMode()` before first use picks one. Every value
 * is float32 (gpu.js's only precision): int32 and bool tensors are stored as exact float32
 * integers, so their values must stay within +-2^24; float64 is refused.
 */
const MODES: readonly GpuMode[] = ['headlessgl', 'webgl2', 'webgl', 'webgpu', 'webasm', 'cpu'];
let requested: GpuMode | null = (platform.env('WIREGRAD_GPU_MODE') as GpuMode | undefined) ?? null;
let gpu: GpuJs | null = null;
let compilations = 0;
const kernels = new Map<string, GpuKernel>();

export function setGpuMode(mode: GpuMode): void {
  if (!MODES.includes(mode))
    throw new TensorError('INVALID_ARGUMENT', `setGpuMode expects one of ${MODES.join(', ')}, got ${String(mode)}`);
  if (gpu !== null && gpu.mode !== mode)
    throw new TensorError(
      'UNSUPPORTED',
      `the gpu device already runs in ${gpu.mode} mode; set the mode before first use`,
    );
  requested = mode;
}

/**
 * Note [Accelerated gpu modes]
 * gpu.js falls back to WebAssembly (or plain JS) where no GL or WebGPU context starts, and
 * reports itself available there: the gpu device then computes correctly on the cpu, several
 * times slower than the cpu device's own kernels (bench/gpu.bench.ts, load ~14 on 2 cores: an
 * MLP step 6x, a 512^2 matmul 25x slower). gpuInfo().accelerated says which case a program is
 * in, so an app can tell its user instead of silently running slower. It is about the API, not the hardware:
 * GL on a software rasterizer (Mesa's llvmpipe, SwiftShader) still counts as accelerated.
 */
const ACCELERATED: ReadonlySet<GpuMode> = new Set(['headlessgl', 'webgl2', 'webgl', 'webgpu']);

function start(mod: GpuJsModule): GpuJs {
  const { GPU } = mod;
  const auto: GpuMode = GPU.isHeadlessGLSupported
    ? 'headlessgl'
    : GPU.isWebGL2Supported
      ? 'webgl2'
      : GPU.isWebGLSupported
        ? 'webgl'
        : 'webasm';
  const started = new GPU({ mode: requested ?? auto });
  gpu = started;
  return started;
}

function load(): GpuJs {
  if (gpu !== null) return gpu;
  return start(gpuJsModule(platform.loadGpuJs));
}

/**
 * Starts the gpu device now (a no-op once started) and resolves with its gpuInfo(); rejects with
 * MISSING_DEPENDENCY when gpu.js cannot be loaded. `importGpuJs` loads gpu.js asynchronously,
 * e.g. `() => import('gpu.js')` in a bundled page, where the bundler then puts gpu.js in its
 * own chunk, fetched only here (Note [gpu.js is an optional peer]); without it, gpu.js loads
 * as on first use.
 */
export async function loadGpu(importGpuJs?: () => Promise<unknown>): Promise<GpuInfo> {
  if (gpu === null && importGpuJs) {
    let mod: unknown;
    try {
      mod = await importGpuJs();
    } catch (e) {
      throw missingGpuJs(e);
    }
    if (gpu === null) start(gpuJsModule(() => mod));
  }
  load();
  return gpuInfo();
}

export function gpuInfo(): GpuInfo {
  try {
    const { mode } = load();
    return { available: true, mode: mode as GpuMode, devices: 1, accelerated: ACCELERATED.has(mode as GpuMode) };
  } catch {
    return { available: false, mode: 'cpu', devices: 0, accelerated: false };
  }
}

/** Starts gpu.js on first use, or throws its MISSING_DEPENDENCY error; gpuInfo() says unavailable instead. */
export function startGpu(): void {
  load();
}

/**
 * Programs built so far: one per gpu.js kernel (each (op, dtype, specialised dim) variant once)
 * plus, in webasm mode, each WebAssembly module gpu.js assembles (Note [webasm modules]).
 * Tests count recompilations with it.
 */
export function gpuCompilations(): number {
  return compilations;
}

/**
 * Note [webasm modules]
 * On GL a kernel compiles once and serves every shape (dynamicOutput, dynamicArguments:
 * sizes are uniforms). gpu.js's webasm backend instead assembles one WebAssembly module per
 * size signature (output and argument sizes) and keeps the last 8 per kernel (LRU,
 * `moduleCacheLimit`): a training loop using one kernel at more than 8 shapes per step
 * (every layer's bias add, the optimizer's updates) rebuilt modules every step (measured:
 * 48 modules and ~80 ms per step of 12 small shapes). Kernels here keep WASM_SHAPES
 * modules each, and each assembly counts as a compilation, so specs see it. The price is
 * memory: every module owns a WebAssembly.Memory the size of its arguments and output.
 */
const WASM_SHAPES = 64;
interface WasmKernel {
  moduleCacheLimit: number;
  _assembleModule(...args: unknown[]): unknown;
}

function countWasmAssemblies(k: GpuKernel): void {
  const inner = (k as { kernel?: Partial<WasmKernel> }).kernel;
  if (typeof inner?.moduleCacheLimit !== 'number' || typeof inner._assembleModule !== 'function') return;
  inner.moduleCacheLimit = WASM_SHAPES;
  const assemble = inner._assembleModule.bind(inner);
  inner._assembleModule = (...args: unknown[]) => {
    compilations++;
    return assemble(...args);
  };
}

/**
 * The cached kernel for `key`, compiled from `source` on first use. Every kernel has a 1-D
 * output set per call (dynamicOutput) and takes any argument sizes (dynamicArguments),
 * so one compiled kernel serves every shape (on webasm: Note [webasm modules]). Its output
 * is one float per element, or with `returnType` 'Array(4)' four (an RGBA texture, GL modes only).
 */
export function kernel(key: string, source: () => string, returnType?: 'Array(4)'): GpuKernel {
  let k = kernels.get(key);
  if (!k) {
    k = load().createKernel(source(), {
      dynamicOutput: true,
      dynamicArguments: true,
      pipeline: true,
      immutable: true,
      precision: 'single',
      tactic: 'precision',
      loopMaxIterations: MAX_LOOP,
      ...(returnType && { returnType }),
    });
    countWasmAssemblies(k);
    kernels.set(key, k);
    compilations++;
  }
  return k;
}

/**
 * The longest loop a kernel runs (a matmul's K slice, scatterAdd's indices): gpu.js silently
 * cuts loops at loopMaxIterations, and Mesa's llvmpipe at 65535 iterations (a 65536-step
 * loop there ran 65535), so longer work is sliced (Note [gpu folds in passes]).
 */
export const MAX_LOOP = 1 << 15;

/**
 * The most elements a gpu tensor holds. Kernels index in float32 (GLSL ES 1 and gpu.js's
 * webasm have no wider numbers) and divide as floor((r + 0.5) / s), which is exact while
 * r + 0.5 is: below 2^23. Measured past it: wrong elements in a transposed map from 2^23 + 2^21.
 */
export const MAX_ELEMENTS = 1 << 23;

/** Runs a kernel over n output elements. */
export function launch(k: GpuKernel, n: number, args: unknown[]): GpuValue {
  if (n > MAX_ELEMENTS) {
    throw new TensorError(
      'UNSUPPORTED',
      `a gpu tensor holds at most 2^23 (${MAX_ELEMENTS}) elements (gpu kernels index in float32), got ${n}`,
    );
  }
  k.setOutput([Math.max(n, 1)]);
  return k(...args);
}

/** A gpu value's floats on the host. */
export function download(v: GpuValue): Float32Array {
  if (v instanceof Float32Array) return v;
  const a = v.toArray();
  return a instanceof Float32Array ? a : Float32Array.from((a as Float32Array[]).flatMap((row) => Array.from(row)));
}

/** Frees a gpu value (textures; arrays are the GC's). */
export function release(v: GpuValue | null): void {
  if (v !== null && !(v instanceof Float32Array)) v.delete();
}
