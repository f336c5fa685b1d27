import { type Tensor, cpuKernelInfo } from '@wiregrad/autograd';

type Floats = Float32Array | Float64Array;

/**
 * Note [Fused optimizer steps]
 * PyTorch's fused optimizers (and its foreach ones, which fuse across parameters) update a
 * parameter in one kernel: p, its gradient and its state are each read once and written
 * once. Op by op, SGD with momentum makes 5 passes over memory per parameter (mul_ and add_
 * of the buffer, the scaled update, the add_) and Adam about 12, each allocating a
 * temporary. With `fused` (the default) SGD and Adam/AdamW run one loop per parameter over
 * the typed arrays of contiguous cpu tensors of one floating dtype, the formulas of PyTorch
 * 1.13's single-tensor implementation element by element and in the same order, computed
 * in float64 and rounded once on store (so float64 parameters get the op-by-op bits and
 * float32 ones differ by float32 rounding). Each tensor written bumps its version once, as
 * an in-place kernel does. Parameters the loop cannot take (another device, a strided view,
 * mixed dtypes) and `fused: false` run the op-by-op formulas. SGD's float32 parameters of
 * SIMD_ELEMENTS or more also run op by op while the SIMD kernels are on: its in-place ops
 * (mul_, add_ with alpha) then run on them with no temporaries (Note [In-place fast path]),
 * and three SIMD passes took 0.25 ms of cpu on 200k floats with momentum where this loop,
 * scalar JavaScript over wasm memory, took 1.2 ms (0.04 against 0.7 without momentum).
 */

/** Parameters at least this big (the wasm kernels' own threshold) update faster on the SIMD kernels. */
const SIMD_ELEMENTS = 4096;

/** Whether p's op-by-op SGD update runs on the in-place SIMD kernels (Note [Fused optimizer steps]). */
function simdInPlace(p: Tensor): boolean {
  return p.dtype === 'float32' && p.device.type === 'cpu' && p.numel >= SIMD_ELEMENTS && cpuKernelInfo().wasm;
}

/** The elements of each tensor as typed arrays, when all are contiguous cpu tensors of one floating dtype and size. */
export function fusedArrays(tensors: readonly Tensor[]): Floats[] | null {
  const first = tensors[0]!;
  if (first.dtype !== 'float32' && first.dtype !== 'float64') return null;
  const out: Floats[] = [];
  for (const t of tensors) {
    if (t.device.type !== 'cpu' || t.dtype !== first.dtype || t.numel !== first.numel || !t.isContiguous()) return null;
    out.push((t.storage.data as Floats).subarray(t.offset, t.offset + t.numel));
  }
  return out;
}

/** One bump per tensor written (Note [Storage and version counter]). */
function bumpVersions(tensors: readonly Tensor[]): void {
  for (const t of tensors) t.storage.version++;
}

export interface FusedSgdArgs {
  lr: number;
  momentum: number;
  dampening: number;
  weightDecay: number;
  nesterov: boolean;
  maximize: boolean;
  /** the momentum buffer is new: it takes d instead of being decayed */
  firstStep: boolean;
}

/**
 * torch.optim.SGD's update of one parameter in one pass (Note [Fused optimizer steps]);
 * `buf` is the momentum buffer (null without momentum). False when the tensors do not allow it.
 */
export function fusedSgd(p: Tensor, grad: Tensor, buf: Tensor | null, o: FusedSgdArgs): boolean {
  if (simdInPlace(p)) return false;
  const arrays = fusedArrays(buf ? [p, grad, buf] : [p, grad]);
  if (arrays === null) return false;
  const [pa, ga, ba] = arrays as [Floats, Floats, Floats | undefined];
  const { lr, momentum, weightDecay, nesterov, maximize, firstStep } = o;
  const keep = 1 - o.dampening;
  for (let i = 0; i < pa.length; i++) {
    let d = maximize ? -ga[i]! : ga[i]!;
    if (weightDecay !== 0) d += weightDecay * pa[i]!;
    if (ba) {
      const b = firstStep ? d : ba[i]! * momentum + keep * d;
      ba[i] = b;
      d = nesterov ? d + momentum * ba[i]! : ba[i]!;
    }
    pa[i] = pa[i]! + -lr * d;
  }
  bumpVersions(buf ? [p, buf] : [p]);
  return true;
}

export interface FusedAdamArgs {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /** AdamW: p is scaled by 1 - lr wd instead of wd p being added to the gradient */
  decoupled: boolean;
  maximize: boolean;
  /** the step number, counted from 1 (bias correction) */
  step: number;
}

/**
 * torch.optim.Adam/AdamW's update of one parameter in one pass (Note [Fused optimizer steps]);
 * `maxExpAvgSq` is amsgrad's running maximum (null without amsgrad). False when the tensors do not allow it.
 */
export function fusedAdam(
  p: Tensor,
  grad: Tensor,
  expAvg: Tensor,
  expAvgSq: Tensor,
  maxExpAvgSq: Tensor | null,
  o: FusedAdamArgs,
): boolean {
  const written = maxExpAvgSq ? [p, expAvg, expAvgSq, maxExpAvgSq] : [p, expAvg, expAvgSq];
  const arrays = fusedArrays([grad, ...written]);
  if (arrays === null) return false;
  const [ga, pa, ma, va, xa] = arrays as [Floats, Floats, Floats, Floats, Floats | undefined];
  const { beta1, beta2, eps, weightDecay, maximize } = o;
  const decay = o.decoupled ? 1 - o.lr * weightDecay : 1;
  const addDecay = o.decoupled ? 0 : weightDecay;
  const biasCorrection2Sqrt = Math.sqrt(1 - beta2 ** o.step);
  const stepSize = -(o.lr / (1 - beta1 ** o.step));
  for (let i = 0; i < pa.length; i++) {
    let g = maximize ? -ga[i]! : ga[i]!;
    if (decay !== 1) pa[i] = pa[i]! * decay;
    if (addDecay !== 0) g += addDecay * pa[i]!;
    ma[i] = ma[i]! * beta1 + (1 - beta1) * g;
    va[i] = va[i]! * beta2 + (1 - beta2) * (g * g);
    let second = va[i]!;
    if (xa) second = xa[i] = Math.max(xa[i]!, second);
    const denom = Math.sqrt(second) / biasCorrection2Sqrt + eps;
    pa[i] = pa[i]! + stepSize * (ma[i]! / denom);
  }
  bumpVersions(written);
  return true;
}
