import { CPU } from '../device.js';
import { type DType, type PromotionOperand, castScalar, resultType, scalarDType, typedArrayFor } from '../dtype.js';
import { runKernel1 } from '../dispatch.js';
import { TensorError } from '../errors.js';
import * as K from '../kernelNames.js';
import { Storage } from '../storage.js';
import { Tensor } from '../tensor.js';

export type Scalar = number | boolean;

/** PyTorch's ScalarType names, for error texts users search for (`Got: Int`). */
export const TORCH_TYPE_NAME: Readonly<Record<DType, string>> = { float32: 'Float', float64: 'Double', int32: 'Int', bool: 'Bool' };
export type TensorOrScalar = Tensor | Scalar;

function assertOperand(v: unknown): asserts v is TensorOrScalar {
  if (!(v instanceof Tensor) && typeof v !== 'number' && typeof v !== 'boolean') {
    throw new TensorError('INVALID_ARGUMENT', `expected a Tensor, number or boolean operand, got ${v === null ? 'null' : typeof v}`);
  }
}

/**
 * Note [Wrapped scalars]
 * A JS number in an op becomes a 0-dim tensor. Those never reach user code (ops only read
 * them; autograd may save them, read-only), so the cpu ones are interned in a small cache:
 * a loop like `y = y.mul(0.9)` then allocates one tensor per op, not two.
 */
const scalarCache = new Map<string, Tensor>();
const SCALAR_CACHE_SIZE = 512;

/** A fresh 0-dim tensor holding `v` as `dtype`, on `like`'s device. */
export function scalarTensor(v: Scalar, dtype: DType, like?: Tensor): Tensor {
  const data = typedArrayFor(dtype, 1);
  data[0] = castScalar(v, dtype);
  const t = new Tensor(new Storage(CPU, dtype, 1, data), []);
  return like && like.device !== CPU ? runKernel1(K.ToDevice, [t], { device: like.device }) : t;
}

/** The interned 0-dim tensor for a wrapped scalar operand (Note [Wrapped scalars]). */
function wrappedScalar(v: Scalar, dtype: DType, like: Tensor): Tensor {
  const key = `${dtype}:${Object.is(v, -0) ? '-0' : Number(v)}`;
  let t = scalarCache.get(key);
  if (!t || t.storage.disposed) {
    const data = typedArrayFor(dtype, 1);
    data[0] = castScalar(v, dtype);
    t = new Tensor(new Storage(CPU, dtype, 1, data), []);
    if (scalarCache.size >= SCALAR_CACHE_SIZE) scalarCache.delete(scalarCache.keys().next().value!);
    scalarCache.set(key, t);
  }
  return like && like.device !== CPU ? runKernel1(K.ToDevice, [t], { device: like.device }) : t;
}

/** `t` as `dtype`, through the Cast kernel (so autograd sees it); `t` itself when already right. */
export function castTo(t: Tensor, dtype: DType): Tensor {
  return t.dtype === dtype ? t : runKernel1(K.Cast, [t], { dtype });
}

/** PyTorch's result type of a mix of tensors and JS scalars. See Note [Type promotion]. */
export function operandsResultType(values: readonly TensorOrScalar[]): DType {
  const ops: PromotionOperand[] = values.map((v) => {
    assertOperand(v);
    if (v instanceof Tensor) return { dtype: v.dtype, tier: v.ndim === 0 ? 1 : 0 };
    return { dtype: scalarDType(v), tier: 2 };
  });
  return resultType(ops);
}

/**
 * Every operand as a tensor of one compute dtype on the first tensor's device: scalars are
 * wrapped, tensors cast. `dtype` overrides the promoted type (e.g. true division of ints).
 */
export function promoteOperands(values: readonly TensorOrScalar[], dtype: DType = operandsResultType(values)): Tensor[] {
  const like = values.find((v): v is Tensor => v instanceof Tensor);
  if (!like) throw new TensorError('INVALID_ARGUMENT', 'at least one operand must be a Tensor');
  return values.map((v) => (v instanceof Tensor ? castTo(v, dtype) : wrappedScalar(v, dtype, like)));
}
