import { describe, expect, it } from 'vitest';
import { manualSeed, randn, tensor, type Tensor } from '@wiregrad/autograd';
import { Linear, ReLU, Sequential, crossEntropy } from './index.js';
import { SGD } from './optim/index.js';

/** One MLP step on `dev` from the same seed: the loss, every parameter's gradient, the parameters after SGD. */
function mlpStep(dev: 'cpu' | 'gpu:0'): { loss: number; grads: number[][]; params: number[][] } {
  manualSeed(7);
  const model = new Sequential(new Linear(20, 16, { device: dev }), new ReLU(), new Linear(16, 3, { device: dev }));
  const xs = randn([8, 20]).to(dev);
  const ys = tensor(Int32Array.from({ length: 8 }, (_, i) => i % 3)).to(dev);
  const opt = new SGD(model.parameters(), { lr: 0.1, momentum: 0.9 });
  const loss = crossEntropy(model.forward(xs), ys);
  loss.backward();
  const grads = model.parameters().map((p: Tensor) => Array.from(p.grad!.toTypedArray()));
  opt.step();
  return { loss: loss.item(), grads, params: model.parameters().map((p: Tensor) => Array.from(p.toTypedArray())) };
}

describe('nn on the gpu device (gpu.js)', () => {
  it('an MLP step on gpu:0 gives the cpu loss, gradients and SGD update to float32 tolerance', () => {
    const cpu = mlpStep('cpu');
    const gpu = mlpStep('gpu:0');
    expect(gpu.loss).toBeCloseTo(cpu.loss, 5);
    gpu.grads.forEach((g, i) => g.forEach((v, j) => expect(v).toBeCloseTo(cpu.grads[i]![j]!, 5)));
    gpu.params.forEach((p, i) => p.forEach((v, j) => expect(v).toBeCloseTo(cpu.params[i]![j]!, 5)));
  });
});
