// The bytes of the cpu device's WebAssembly kernels, each split over 4 threads: matmul,
// elementwise ops and reductions. browserThreads.test.ts runs it on Node and in Chromium pages
// with and without cross-origin isolation, and compares (Note [Pool on the web] in tensor).
import { type Tensor, cpuKernelInfo, setNumThreads, tensor } from '@wiregrad/tensor';

const THREADS = 4;
setNumThreads(THREADS);

/**
 * n floats k/128 in [-4, 4), the same on every host (no RNG, no Math.sin). Their products are
 * exact in float32, so the gemm gives the same bytes whether its multiply-add is fused (the
 * relaxed-SIMD build Chromium runs) or not (Node 20): what differs between hosts is then only
 * the pool, the split and the platform, which is what this program is about.
 */
function data(n: number, seed: number): Tensor {
  return tensor(Float32Array.from({ length: n }, (_, i) => (((i * 7919 + seed) % 1009) - 504) / 128));
}

function results(): Record<string, Tensor> {
  const x = data(1 << 19, 1);
  const y = data(1 << 19, 2);
  const rows = x.reshape([512, 1024]);
  return {
    matmul: data(256 * 320, 3)
      .reshape([256, 320])
      .matmul(data(320 * 192, 4).reshape([320, 192])),
    mulAdd: x.mul(y).add(y),
    exp: x.exp(),
    sigmoid: x.sigmoid(),
    sum: x.sum(),
    sumRows: rows.sum(1),
    softmax: rows.softmax(1),
  };
}

async function sha256(t: Tensor): Promise<string> {
  const values = t.toTypedArray();
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

// The first big kernel starts the pool; a page's workers start only once its event loop turns,
// so the kernels run again once they are all ready (at most a minute), where there can be any.
results();
const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
for (let waited = 0; isolated !== false && cpuKernelInfo().poolThreads < THREADS && waited < 60_000; waited += 10)
  await new Promise((resolve) => setTimeout(resolve, 10));
const info = cpuKernelInfo();
const digests: Record<string, string> = {};
for (const [name, t] of Object.entries(results())) digests[name] = await sha256(t);
const { wasm, relaxedSimd, poolThreads } = info;
console.log(JSON.stringify({ isolated: isolated ?? null, wasm, relaxedSimd, poolThreads, digests }));
