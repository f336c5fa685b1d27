import { type Tensor, zerosLike } from '@wiregrad/tensor';
import { grad } from './backward.js';
import { AutogradError } from './errors.js';
import { noGrad } from './gradMode.js';

export interface GradcheckOptions {
  eps?: number;
  atol?: number;
  rtol?: number;
  raiseException?: boolean;
}

type Fn = (...inputs: Tensor[]) => Tensor | Tensor[];

function physicalOffset(t: Tensor, k: number): number {
  let off = t.offset;
  let rem = k;
  for (let d = t.ndim - 1; d >= 0; d--) {
    const c = rem % t.shape[d]!;
    rem = (rem - c) / t.shape[d]!;
    off += c * t.strides[d]!;
  }
  return off;
}

function flatOutputs(fn: Fn, inputs: Tensor[]): Float64Array {
  const out = noGrad(() => fn(...inputs));
  const list = Array.isArray(out) ? out : [out];
  const parts = list.map((o) => Array.from(o.toTypedArray(), Number));
  return Float64Array.from(parts.flat());
}

/**
 * Compares the analytical Jacobian (one grad() per output element) with central finite
 * differences, in float64, like torch.autograd.gradcheck: every |a - n| <= atol + rtol * |n|.
 */
export function gradcheck(fn: Fn, inputs: Tensor[], opts: GradcheckOptions = {}): boolean {
  const { eps = 1e-6, atol = 1e-5, rtol = 1e-3, raiseException = false } = opts;
  const diff = inputs.filter((t) => t.requiresGrad);
  for (const t of diff) {
    if (t.dtype !== 'float64') {
      throw new AutogradError(
        'INVALID_GRADIENT',
        `gradcheck expects float64 inputs that require grad, got ${t.dtype}: finite differences in float32 are too imprecise`,
      );
    }
  }
  const out = fn(...inputs);
  const outs = Array.isArray(out) ? out : [out];
  const outSizes = outs.map((o) => o.numel);
  const nOut = outSizes.reduce((a, b) => a + b, 0);

  // analytical: row k of the Jacobian is grad of output element k
  const analytical = diff.map((t) => new Float64Array(nOut * t.numel));
  let k = 0;
  outs.forEach((o, oi) => {
    for (let e = 0; e < outSizes[oi]!; e++, k++) {
      if (!o.requiresGrad) continue;
      const seed = zerosLike(o);
      (seed.storage.data as Float64Array | Float32Array)[e] = 1;
      const gradOutputs = outs.map((other, j) => (j === oi ? seed : zerosLike(other)));
      const gs = grad(
        outs.filter((x) => x.requiresGrad),
        diff,
        {
          gradOutputs: gradOutputs.filter((_, j) => outs[j]!.requiresGrad),
          retainGraph: true,
          allowUnused: true,
        },
      );
      gs.forEach((g, i) => {
        if (!g) return;
        const vals = g.toTypedArray();
        for (let j = 0; j < vals.length; j++) analytical[i]![k * diff[i]!.numel + j] = vals[j]!;
      });
    }
  });

  // numerical: column j of the Jacobian from central differences on input element j
  for (let i = 0; i < diff.length; i++) {
    const t = diff[i]!;
    const data = t.storage.data as Float64Array;
    for (let j = 0; j < t.numel; j++) {
      const at = physicalOffset(t, j);
      const orig = data[at]!;
      data[at] = orig + eps;
      const plus = flatOutputs(fn, inputs);
      data[at] = orig - eps;
      const minus = flatOutputs(fn, inputs);
      data[at] = orig;
      for (let r = 0; r < nOut; r++) {
        const n = (plus[r]! - minus[r]!) / (2 * eps);
        const a = analytical[i]![r * t.numel + j]!;
        if (!(Math.abs(a - n) <= atol + rtol * Math.abs(n))) {
          if (raiseException) {
            throw new AutogradError(
              'INVALID_GRADIENT',
              `Jacobian mismatch for output ${r} with respect to input ${i} element ${j},\nnumerical:${n}\nanalytical:${a}`,
            );
          }
          return false;
        }
      }
    }
  }
  return true;
}
