import { describe, expect, it } from 'vitest';
import { Function, type FunctionCtx } from '../function.js';
import { gradcheck } from '../gradcheck.js';
import { type Tensor, memory, randn } from '../index.js';

const N = 4096; // float32 tensors of 16 KiB: counted by memory()

/** y = x * w, its backward's temporaries put in `made` so a spec can look at them afterwards. */
function scaleBy(engineOwnsGrads: boolean, made: Tensor[]) {
  return class Scale extends Function {
    static override engineOwnsGrads = engineOwnsGrads;

    static override forward(ctx: FunctionCtx, x: Tensor, w: Tensor): Tensor {
      ctx.saveForBackward(x, w);
      return x.mul(w);
    }

    static override backward(ctx: FunctionCtx, grad: Tensor): Tensor[] {
      const [x, w] = ctx.savedTensors as [Tensor, Tensor];
      const twice = grad.mul(2); // a temporary of the formula
      made.push(twice);
      return [twice.mul(w).div(2), twice.mul(x).div(2)];
    }
  };
}

describe('a custom Function whose gradients the engine owns (Note [Functions whose gradients the engine owns])', () => {
  it('gets the gradients of x * w right, owned or not (gradcheck in float64)', () => {
    for (const owned of [true, false]) {
      const Scale = scaleBy(owned, []);
      const x = randn([3, 4], { dtype: 'float64', requiresGrad: true });
      const w = randn([3, 4], { dtype: 'float64', requiresGrad: true });
      expect(gradcheck((a, b) => Scale.apply<Tensor>(a!, b!), [x, w])).toBe(true);
    }
  });

  it('has its temporaries released and its returned gradients taken over as .grad: only the two .grad are new', () => {
    const made: Tensor[] = [];
    const Scale = scaleBy(true, made);
    const x = randn([N], { requiresGrad: true });
    const w = randn([N], { requiresGrad: true });
    const loss = Scale.apply<Tensor>(x, w).sum();
    const before = memory().cpuBytes;
    loss.backward();
    expect(made.length).toBe(1);
    expect(made[0]!.isDisposed).toBe(true);
    expect(memory().cpuBytes).toBe(before + 2 * 4 * N);
    expect(x.grad!.storage.holds).toBe(1);
    expect(w.grad!.storage.holds).toBe(1);
    expect(Array.from(x.grad!.toTypedArray())).toEqual(Array.from(w.toTypedArray()));
    expect(Array.from(w.grad!.toTypedArray())).toEqual(Array.from(x.toTypedArray()));
  });

  it('by default keeps what its backward made (it may hold on to it) and copies its gradients into .grad', () => {
    const made: Tensor[] = [];
    const Scale = scaleBy(false, made);
    const x = randn([N], { requiresGrad: true });
    const w = randn([N], { requiresGrad: true });
    Scale.apply<Tensor>(x, w).sum().backward();
    expect(made[0]!.isDisposed).toBe(false);
    expect(Array.from(made[0]!.toTypedArray())).toEqual(new Array<number>(N).fill(2));
    expect(Array.from(x.grad!.toTypedArray())).toEqual(Array.from(w.toTypedArray()));
  });
});
