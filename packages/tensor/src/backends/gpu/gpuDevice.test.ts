import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { KernelNames, hasKernel, memory, randn, tensor, zeros } from '../../index.js';
import { gpuCompilations, gpuInfo } from './gpuRuntime.js';
import { valueOf } from './gpuTensor.js';

describe('the gpu device (gpu.js)', () => {
  it('reports the gpu.js mode it runs in', () => {
    const info = gpuInfo();
    expect(info.available).toBe(true);
    expect(info.devices).toBe(1);
    expect(['headlessgl', 'webgl2', 'webgl', 'webgpu', 'webasm', 'cpu']).toContain(info.mode);
    // See Note [Accelerated gpu modes]
    expect(info.accelerated).toBe(!['webasm', 'cpu'].includes(info.mode));
    // CI sets this where it installed headless-gl and an X display, so a silent fallback fails there
    const expected = process.env.WIREGRAD_EXPECT_GPU_MODE;
    if (expected) expect(info.mode).toBe(expected);
  });

  it('uploads a tensor whose storage lives in the shared wasm memory (Note [Storages in wasm memory]) and reads it back', () => {
    const x = randn([128, 256]).mul(2);
    expect(x.storage.data.buffer instanceof SharedArrayBuffer).toBe(true);
    const back = x.to('gpu').add(1).cpu();
    expect(back.toTypedArray()).toEqual(x.add(1).toTypedArray());
  });

  it('registers a kernel under every kernel name', () => {
    expect(KernelNames.ALL_KERNELS.filter((name) => !hasKernel(name, 'gpu'))).toEqual([]);
  });

  it('int32 and bool are exact float32 integers on the gpu: exact within +-2^24, rounded beyond (Note [gpu.js modes])', () => {
    const big = tensor(new Int32Array([16_777_215, -16_777_216, 7, 0]), { dtype: 'int32' }).to('gpu');
    expect(big.add(tensor(new Int32Array([1, 0, -8, 1]), { dtype: 'int32' }).to('gpu')).tolist()).toEqual([
      16_777_216, -16_777_216, -1, 1,
    ]);
    expect(
      tensor(new Int32Array([16_777_217]), { dtype: 'int32' })
        .to('gpu')
        .tolist(),
    ).toEqual([16_777_216]);
    expect(tensor([true, false]).to('gpu').logicalNot().tolist()).toEqual([false, true]);
  });

  it('refuses tensors past 2^23 elements, where float32 index math stops being exact', () => {
    const message = 'a gpu tensor holds at most 2^23 (8388608) elements (gpu kernels index in float32), got 8388609';
    expect(() => zeros([2 ** 23 + 1]).to('gpu')).toThrow(message);
    expect(() =>
      zeros([2 ** 22])
        .to('gpu')
        .expand([3, 2 ** 22])
        .mul(1),
    ).toThrow('got 12582912');
    expect(
      zeros([2 ** 23])
        .to('gpu')
        .sum()
        .item(),
    ).toBe(0);
  });

  it("refuses to mix devices with PyTorch's message, and float64", () => {
    expect(() => tensor([1]).add(tensor([1]).to('gpu'))).toThrow(
      'Expected all tensors to be on the same device, but found at least two devices, cpu and gpu:0!',
    );
    expect(() =>
      tensor([1, 2])
        .to('gpu')
        .mul(tensor([3])),
    ).toThrow('found at least two devices, gpu:0 and cpu!');
    // 0-dim cpu tensors are PyTorch's cpu scalars: they join a gpu operand (after promotion)
    const joined = [
      tensor([1, 2]).to('gpu').mul(tensor(3)),
      tensor(3, { dtype: 'float64' }).sub(tensor([1, 2]).to('gpu')),
      tensor(2).lt(tensor([1, 3]).to('gpu')),
    ];
    expect(joined.map((t) => [t.device.toString(), t.dtype, t.tolist()])).toEqual([
      ['gpu:0', 'float32', [3, 6]],
      ['gpu:0', 'float32', [2, 1]],
      ['gpu:0', 'bool', [false, true]],
    ]);
    expect(() => tensor([1.5], { dtype: 'float64' }).to('gpu')).toThrow(
      'float64 is not supported on the gpu device (gpu.js computes in float32); use float32',
    );
  });
});

/** A full GC, so the FinalizationRegistry sees what the loop dropped (the flag is set for this one lookup). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('gpu memory and compilation', () => {
  it('keeps gpu bytes flat over 1000 training-style iterations, and compiles nothing after the first', async () => {
    const w = randn([16, 8]).to('gpu');
    const x = randn([4, 16]).to('gpu');
    const step = () => {
      const y = x.matmul(w).relu().softmax(1).sum();
      w.sub_(w.mul(0.001));
      return y;
    };
    step().item();
    const compiled = gpuCompilations();
    // temporaries are released by dispose() or, once the GC has run, by the FinalizationRegistry
    // (its callbacks run between turns of the event loop, as in any real training loop)
    const bytesAfter: number[] = [];
    for (let i = 1; i <= 1000; i++) {
      step().item();
      if (i % 50 === 0) {
        collectGarbage();
        await new Promise((r) => setTimeout(r, 1));
        bytesAfter.push(memory().gpuBytes);
      }
    }
    expect(gpuCompilations()).toBe(compiled);
    // one iteration allocates ~1.5 KB of gpu temporaries: 1000 unreleased would be ~1.5 MB
    expect(Math.max(...bytesAfter.slice(4)) - Math.min(...bytesAfter.slice(4))).toBeLessThan(400 * 1024);
  }, 120_000);

  // the WebGL textures themselves, counted where headless-gl creates and deletes them
  it.runIf(gpuInfo().mode === 'headlessgl')(
    'deletes its WebGL textures: the live count stays flat over 300 training-style iterations',
    async () => {
      const require = createRequire(createRequire(import.meta.url).resolve('gpu.js'));
      const proto = Object.getPrototypeOf((require('gl') as (w: number, h: number) => object)(1, 1)) as Record<
        string,
        (...args: unknown[]) => unknown
      >;
      const [create, remove] = [proto.createTexture!, proto.deleteTexture!];
      let live = 0;
      proto.createTexture = function (...args) {
        live++;
        return create.apply(this, args);
      };
      proto.deleteTexture = function (...args) {
        live--;
        return remove.apply(this, args);
      };
      try {
        const w = randn([16, 8]).to('gpu');
        const x = randn([4, 16]).to('gpu');
        const counts: number[] = [];
        for (let i = 1; i <= 300; i++) {
          x.matmul(w).relu().softmax(1).sum().item();
          w.sub_(w.mul(0.001));
          if (i % 50 === 0) {
            collectGarbage();
            await new Promise((r) => setTimeout(r, 1));
            counts.push(live);
          }
        }
        // each iteration makes ~12 textures: 3600 undeleted ones would show
        expect(Math.max(...counts) - Math.min(...counts)).toBeLessThan(40);
      } finally {
        [proto.createTexture, proto.deleteTexture] = [create, remove];
      }
    },
    120_000,
  );

  it('dispose() frees a gpu tensor now; later use throws', () => {
    const before = memory().gpuBytes;
    const t = randn([256]).to('gpu');
    expect(memory().gpuBytes).toBe(before + 1024);
    t.dispose();
    expect(memory().gpuBytes).toBe(before);
    expect(() => t.cpu()).toThrow('Tensor storage was disposed');
    // the kernels' own access to a released storage is the same coded error, not a TypeError
    expect(() => valueOf(t)).toThrow(expect.objectContaining({ code: 'DISPOSED' }));
  });
});
