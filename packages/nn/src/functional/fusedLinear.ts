import {
  Function,
  type FunctionCtx,
  KernelNames,
  type Tensor,
  hasKernel,
  isGradEnabled,
  le,
  maskedFill,
  runKernel1,
} from '@wiregrad/autograd';

const { AddmmActivation, ThresholdBackward } = KernelNames;

/**
 * Note [Fused linear]
 * linear(x, W, b, { activation: 'relu' }) and a Sequential's Linear followed by ReLU compute
 * relu(x Wᵀ + b) in one kernel on cpu (AddmmActivation, PyTorch's _addmm_activation): the
 * bias and the ReLU are the gemm's epilogue (Note [Gemm epilogue]), applied to each block of
 * the product while it is in cache, instead of two more kernels and passes over the output.
 * It is a custom Function whose backward is ReLU's and the linear's together: g' = g where
 * y > 0 (else 0), dx = g' W, dW = g'ᵀ x, db = Σ g'. The option is ours, not PyTorch's
 * F.linear: a module pair is what PyTorch's graph-mode fusers (oneDNN, TorchScript) fuse;
 * in eager code only an explicit call or a container that sees both layers can. Other
 * devices and dtypes run linear then relu. Backward computes only the gradients
 * ctx.needsInputGrad asks for: a first layer's dx, as costly as its dW, is skipped.
 */
export function canFuseLinear(x: Tensor, weight: Tensor, bias: Tensor | null): bias is Tensor {
  return (
    bias !== null &&
    x.ndim >= 1 &&
    x.device.type === 'cpu' &&
    (x.dtype === 'float32' || x.dtype === 'float64') &&
    weight.dtype === x.dtype &&
    bias.dtype === x.dtype &&
    weight.device === x.device &&
    bias.device === x.device &&
    bias.ndim === 1 &&
    hasKernel(AddmmActivation, 'cpu')
  );
}

/** [*, K] -> [M, K]. */
const rows = (x: Tensor): Tensor => x.reshape([-1, x.shape[x.ndim - 1]!]);

class LinearReLU extends Function {
  // its backward keeps nothing: the engine releases its temporaries and steals dW (Note [Functions whose gradients the engine owns])
  static override engineOwnsGrads = true;

  static override forward(ctx: FunctionCtx, x: Tensor, weight: Tensor, bias: Tensor): Tensor {
    const x2 = rows(x);
    const wT = weight.t();
    const y2 = runKernel1(AddmmActivation, [bias, x2, wT]);
    const y = y2.reshape([...x.shape.slice(0, -1), weight.shape[0]!]);
    ctx.saveForBackward(x, weight, y);
    return y;
  }

  static override backward(ctx: FunctionCtx, grad: Tensor): (Tensor | null)[] {
    const [x, weight, y] = ctx.savedTensors as [Tensor, Tensor, Tensor];
    const [needX, needW, needB] = ctx.needsInputGrad;
    // ReLU's backward in one pass (PyTorch's threshold_backward), unless it must be differentiable
    const g = rows(
      isGradEnabled() || !hasKernel(ThresholdBackward, grad.device.type)
        ? maskedFill(grad, le(y, 0), 0)
        : runKernel1(ThresholdBackward, [grad, y], { threshold: 0 }),
    );
    // only the products asked for (PyTorch's output_mask)
    return [
      needX ? g.matmul(weight).reshape(x.shape) : null,
      needW ? g.t().matmul(rows(x)) : null,
      needB ? g.sum(0) : null,
    ];
  }
}

/** relu(x Wᵀ + b) in one kernel (Note [Fused linear]); check canFuseLinear first. */
export function fusedLinearRelu(x: Tensor, weight: Tensor, bias: Tensor): Tensor {
  return LinearReLU.apply<Tensor>(x, weight, bias);
}
