import { type Tensor, Tensor as TensorClass, detach, getRngState, setRngState } from '@wiregrad/tensor';
import { backward } from './backward.js';
import { currentGraphTask } from './engine/threadState.js';
import { AutogradError } from './errors.js';
import { type FunctionCtx, Function } from './function.js';
import { enableGrad } from './gradMode.js';

type Fn = (...args: Tensor[]) => Tensor;

/**
 * Reentrant checkpointing (torch.utils.checkpoint with use_reentrant=True): forward runs
 * without saving activations; backward recomputes them with grad enabled and runs a nested
 * (reentrant) backward through the recomputed graph. See Note [Reentrant backward].
 * Like torch's preserve_rng_state=True, the recomputation draws the same random numbers as the
 * forward did (dropout masks match) and leaves the generator where it was.
 */
class CheckpointFunction extends Function {
  static override forward(ctx: FunctionCtx, fn: Fn, ...inputs: Tensor[]): Tensor {
    ctx.fn = fn;
    ctx.rngState = getRngState();
    ctx.saveForBackward(...inputs);
    return fn(...inputs);
  }

  static override backward(ctx: FunctionCtx, grad: Tensor): (Tensor | null)[] {
    const task = currentGraphTask();
    if (task && task.execInfo.size > 0) {
      throw new AutogradError(
        'CHECKPOINT',
        'Checkpointing is not compatible with .grad() or when an `inputs` parameter is passed to .backward(). Please use .backward() and do not pass its `inputs` argument.',
      );
    }
    // forward saved its tensor arguments only: none is null
    const inputs = (ctx.savedTensors as Tensor[]).map((t) => {
      const d = detach(t);
      d.requiresGrad = t.requiresGrad;
      return d;
    });
    const current = getRngState();
    setRngState(ctx.rngState as number[]);
    let out: Tensor;
    try {
      out = enableGrad(() => (ctx.fn as Fn)(...inputs));
    } finally {
      setRngState(current);
    }
    if (out.requiresGrad) backward(out, grad);
    // no gradient for `fn`, one per tensor argument
    return [null, ...inputs.map((t) => t.grad)];
  }
}

export function checkpoint(fn: Fn, ...args: Tensor[]): Tensor {
  if (!args.every((a) => a instanceof TensorClass))
    throw new AutogradError('CHECKPOINT', 'checkpoint expects tensor arguments');
  return CheckpointFunction.apply<Tensor>(fn, ...args);
}
