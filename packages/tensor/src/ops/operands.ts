import { CPU } from '../device.js';
import {
  type DType,
  type PromotionOperand,
  castScalar,
  category,
  resultType,
  scalarDType,
  typedArrayFor,
} from '../dtype.js';
import { runKernel1 } from '../dispatch.js';
import { TensorError } from '../errors.js';
import * as K from '../kernelNames.js';
import { Storage } from '../storage.js';
import { Tensor, unscoped } from '../tensor.js';

export type Scalar = number | boolean;

/** PyTorch's ScalarType names, for error texts users search for (`Got: Int`). */
export const TORCH_TYPE_NAME: Readonly<Record<DType, string>> = {
  float32: 'Float',
  float64: 'Double',
  int32: 'Int',
  bool: 'Bool',
};
export type TensorOrScalar = Tensor | Scalar;

function assertOperand(v: unknown): asserts v is TensorOrScalar {
  if (!(v instanceof Tensor) && typeof v !== 'number' && typeof v !== 'boolean') {
    throw new TensorError(
      'INVALID_ARGUMENT',
      `expected a Tensor, number or boolean operand, got ${v === null ? 'null' : typeof v}`,
    );
  }
}

/**
 * Note [Wrapped scalars]
 * A JS number in an op becomes a 0-dim tensor. Those never reach user code (ops only read
 * them; autograd may save them, read-only), so the cpu ones are interned in a small cache:
 * a loop like `y = y.mul(0.9)` then allocates one tensor per op, not two.
 */
const scalarCaches: Record<DType, Map<number, Tensor>> = {
  bool: new Map(),
  int32: new Map(),
  float32: new Map(),
  float64: new Map(),
};
const SCALAR_CACHE_SIZE = 256;

/** A fresh 0-dim tensor holding `v` as `dtype`, on `like`'s device. */
export function scalarTensor(v: Scalar, dtype: DType, like?: Tensor): Tensor {
  const data = typedArrayFor(dtype, 1);
  data[0] = castScalar(v, dtype);
  const t = new Tensor(new Storage(CPU, dtype, 1, data), []);
  return like && like.device !== CPU ? runKernel1(K.ToDevice, [t], { device: like.device }) : t;
}

/** The interned 0-dim tensor for a wrapped scalar operand (Note [Wrapped scalars]); -0 is not interned (Map keys equate it with 0). */
function wrappedScalar(v: Scalar, dtype: DType, like: Tensor): Tensor {
  const n = Number(v);
  if (Object.is(n, -0)) return scalarTensor(n, dtype, like);
  const cache = scalarCaches[dtype];
  let t = cache.get(n);
  if (!t || t.storage.disposed) {
    // an interned tensor is no scope's to dispose, and no mode's (never an inference tensor)
    t = unscoped(() => scalarTensor(n, dtype));
    if (cache.size >= SCALAR_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(n, t);
  }
  return like.device !== CPU ? runKernel1(K.ToDevice, [t], { device: like.device }) : t;
}

/** `t` as `dtype`, through the Cast kernel (so autograd sees it); `t` itself when already right. */
export function castTo(t: Tensor, dtype: DType): Tensor {
  return t.dtype === dtype ? t : runKernel1(K.Cast, [t], { dtype });
}

/** The result type of a tensor and a wrapped JS value: the value only counts when its category is higher. */
function withScalar(t: DType, v: Scalar): DType {
  const s = scalarDType(v);
  return category(s) > category(t) ? s : t;
}

/** PyTorch's result type of a mix of tensors and JS scalars. See Note [Type promotion]. */
export function operandsResultType(values: readonly TensorOrScalar[]): DType {
  for (const v of values) assertOperand(v);
  if (values.length === 2) {
    // the common binary-op cases, without building promotion operands
    const [a, b] = values as [TensorOrScalar, TensorOrScalar];
    if (a instanceof Tensor && !(b instanceof Tensor)) return withScalar(a.dtype, b);
    if (b instanceof Tensor && !(a instanceof Tensor)) return withScalar(b.dtype, a);
  }
  const ops: PromotionOperand[] = values.map((v) =>
    v instanceof Tensor ? { dtype: v.dtype, tier: v.ndim === 0 ? 1 : 0 } : { dtype: scalarDType(v), tier: 2 },
  );
  return resultType(ops);
}

/**
 * Every operand as a tensor of one compute dtype on the first tensor's device: scalars are
 * wrapped, tensors cast. `dtype` overrides the promoted type (e.g. true division of ints).
 */
export function promoteOperands(
  values: readonly TensorOrScalar[],
  dtype: DType = operandsResultType(values),
): Tensor[] {
  const like = values.find((v): v is Tensor => v instanceof Tensor);
  if (!like) throw new TensorError('INVALID_ARGUMENT', 'at least one operand must be a Tensor');
  return values.map((v) => (v instanceof Tensor ? castTo(v, dtype) : wrappedScalar(v, dtype, like)));
}
