import { afterEach, describe, expect, it } from 'vitest';
import { gpuJsModule } from '../backends/gpu/gpuJsModule.js';
import { platform } from './browser.js';

// See Note [gpu.js is an optional peer]: on a page, gpu.js is the global GPU of its browser build.
const globals = globalThis as { GPU?: unknown };

/** The shape of Chromium's WebGPU interface: a global function that `new` refuses. */
function WebGpuInterface(): never {
  throw new TypeError('Illegal constructor');
}

/** The statics gpu.js's class has (a stand-in: no gpu.js is loaded in this spec). */
class GpuJsClass {
  static isWebGL2Supported = true;
  static isWebGLSupported = true;
  static isHeadlessGLSupported = false;
}

afterEach(() => {
  delete globals.GPU;
});

describe("the browser platform takes only gpu.js's GPU class", () => {
  it("gpu.js's browser build (a global class, or a namespace holding it) is taken", () => {
    globals.GPU = GpuJsClass;
    expect(gpuJsModule(platform.loadGpuJs).GPU).toBe(GpuJsClass);
    globals.GPU = { GPU: GpuJsClass };
    expect(gpuJsModule(platform.loadGpuJs).GPU).toBe(GpuJsClass);
  });

  it("the WebGPU interface GPU, or no GPU at all, is MISSING_DEPENDENCY naming gpu.js, not 'Illegal constructor'", () => {
    for (const [global, why] of [
      [WebGpuInterface, 'the WebGPU interface'],
      [{ requestAdapter: () => null }, 'the WebGPU interface'],
      [undefined, 'no global GPU'],
    ] as const) {
      if (global === undefined) delete globals.GPU;
      else globals.GPU = global;
      expect(() => gpuJsModule(platform.loadGpuJs)).toThrow(
        expect.objectContaining({
          code: 'MISSING_DEPENDENCY',
          message: expect.stringMatching(new RegExp(`needs the package gpu.js.*${why}`)),
        }),
      );
    }
  });
});
