import { describe, expect, it } from 'vitest';
import { manualSeed, randn, tensor, type Tensor } from '@wiregrad/autograd';
import * as F from './functional/index.js';
import { BatchNorm2d, Conv2d, Embedding, LayerNorm, Linear, ReLU, Sequential, crossEntropy } from './index.js';
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

/**
 * The normalisation, dropout and embedding layers on `dev` from the same seed: the output, every
 * parameter's gradient and BatchNorm's running stats after one training step.
 */
function layersStep(dev: 'cpu' | 'gpu:0'): number[][] {
  manualSeed(3);
  const conv = new Conv2d(2, 3, 3, { padding: 1, bias: false, device: dev }); // BatchNorm cancels a bias's gradient
  const bn = new BatchNorm2d(3, { device: dev });
  const ln = new LayerNorm([3, 4, 4], { device: dev });
  const emb = new Embedding(5, 4, { paddingIdx: 0, device: dev });
  const x = randn([2, 2, 4, 4]).to(dev);
  const idx = tensor(new Int32Array([0, 3, 3, 1]), { dtype: 'int32' }).to(dev);
  manualSeed(4); // the same dropout mask on both devices
  const y = F.dropout(ln.forward(bn.forward(conv.forward(x))), 0.3)
    .sum([1, 2])
    .mul(emb.forward(idx).sum(0));
  y.mul(y).sum().backward();
  const params = [...conv.parameters(), ...bn.parameters(), ...ln.parameters(), ...emb.parameters()];
  return [y, ...params.map((p) => p.grad!), ...bn.buffers()].map((t: Tensor) => {
    expect(t.device.toString()).toBe(dev);
    return Array.from(t.cpu().toTypedArray(), Number);
  });
}

describe('nn on the gpu device (gpu.js)', () => {
  // the first pow on the gpu runs inside backward here: its NaN operand must outlive the pass's temporaries
  it('BatchNorm2d, LayerNorm, dropout and Embedding after a Conv2d give the cpu outputs, gradients and running stats', () => {
    const cpu = layersStep('cpu');
    const gpu = layersStep('gpu:0');
    expect(gpu.map((v) => v.length)).toEqual(cpu.map((v) => v.length));
    // float32 sums in another order: within 1e-5 of each tensor's largest value
    gpu.forEach((v, k) => {
      const scale = Math.max(...cpu[k]!.map(Math.abs));
      v.forEach((g, i) => expect(Math.abs(g - cpu[k]![i]!)).toBeLessThanOrEqual(1e-4 + 1e-5 * scale));
    });
  });

  it('an MLP step on gpu:0 gives the cpu loss, gradients and SGD update to float32 tolerance', () => {
    const cpu = mlpStep('cpu');
    const gpu = mlpStep('gpu:0');
    expect(gpu.loss).toBeCloseTo(cpu.loss, 5);
    gpu.grads.forEach((g, i) => g.forEach((v, j) => expect(v).toBeCloseTo(cpu.grads[i]![j]!, 5)));
    gpu.params.forEach((p, i) => p.forEach((v, j) => expect(v).toBeCloseTo(cpu.params[i]![j]!, 5)));
  });
});
