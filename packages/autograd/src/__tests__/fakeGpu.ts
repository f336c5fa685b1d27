import { KernelNames, Storage, Tensor, device, getKernel, registerKernel, registerTransfer, type Attrs, type Device } from '@wiregrad/tensor';

/**
 * Test-only gpu device: storages that say `gpu:N` but keep cpu typed arrays, with every
 * kernel registered for 'gpu' as the cpu kernel run over cpu aliases of those storages
 * (views and in-place writes keep sharing the gpu storage). Enough for the engine, which only
 * looks at devices to pick lanes (Note [Device lanes]); no real gpu is involved.
 */
const CPU = device('cpu');
const cpuAlias = new WeakMap<Storage, Storage>();
const gpuOf = new WeakMap<Storage, Storage>();

const runCpu = (name: string, inputs: readonly Tensor[], attrs: Attrs = {}) => getKernel(name, 'cpu')(inputs, attrs);

function asCpu(t: Tensor): Tensor {
  if (t.device.type === 'cpu') return t;
  let alias = cpuAlias.get(t.storage);
  if (!alias) {
    alias = new Storage(CPU, t.dtype, t.storage.length, t.storage.data);
    cpuAlias.set(t.storage, alias);
    gpuOf.set(alias, t.storage);
  }
  return new Tensor(alias, t.shape, t.strides, t.offset);
}

/** A contiguous copy of `t` on `target`. */
function copyTo(t: Tensor, target: Device): Tensor {
  const c = runCpu(KernelNames.Copy, [asCpu(t)])[0]!;
  return new Tensor(new Storage(target, c.dtype, c.numel, c.storage.data), c.shape);
}

/** A cpu kernel's output back on the gpu: views keep sharing their gpu storage. */
function backOnGpu(t: Tensor, target: Device): Tensor {
  const shared = gpuOf.get(t.storage);
  return new Tensor(shared ?? new Storage(target, t.dtype, t.storage.length, t.storage.data), t.shape, t.strides, t.offset);
}

let installed = false;

/** Registers the fake gpu (once per test file: module registries are per file under vitest). */
export function installFakeGpu(): void {
  if (installed) return;
  installed = true;
  for (const name of KernelNames.ALL_KERNELS) {
    registerKernel({
      kernelName: name,
      device: 'gpu',
      kernelFunc: (inputs, attrs) => {
        if (name === KernelNames.ToDevice) return [copyTo(inputs[0]!, attrs.device as Device)];
        const outs = runCpu(name, inputs.map(asCpu), attrs);
        return KernelNames.INPLACE_KERNELS.has(name) ? [inputs[0]!] : outs.map((o) => backOnGpu(o, inputs[0]!.device));
      },
    });
  }
  registerTransfer('cpu', 'gpu', copyTo);
  registerTransfer('gpu', 'cpu', copyTo);
}
