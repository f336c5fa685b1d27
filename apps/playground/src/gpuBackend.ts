// The gpu device's side of the page: gpu.js is fetched (its own chunk) the first time the gpu is
// picked, and the page shows gpu.js's mode and the WebGL renderer underneath it.
import { type GpuInfo, loadGpu } from '@wiregrad/autograd';

export interface GpuBackend extends GpuInfo {
  /** the WebGL renderer the browser reports (SwiftShader, ANGLE over a driver, ...), or why there is none */
  renderer: string;
}

/** What WebGL2 reports as its renderer: the unmasked name where the browser exposes it. */
function webglRenderer(): string {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return 'no WebGL2 in this browser';
  const debug = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(debug ? debug.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return name;
}

let backend: Promise<GpuBackend> | null = null;

/** Loads gpu.js once (see Note [gpu.js is an optional peer]) and describes the backend. */
export function gpuBackend(): Promise<GpuBackend> {
  backend ??= loadGpu(() => import('gpu.js')).then((info) => ({ ...info, renderer: webglRenderer() }));
  return backend;
}
