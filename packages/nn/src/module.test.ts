import { describe, expect, it } from 'vitest';
import { type Tensor, ones, randn, tensor, zeros } from '@wiregrad/autograd';
import { Identity, Linear, Module, Parameter, ReLU, Sequential } from './index.js';

/** A module written the way users write them: fields for layers and parameters, registered buffers. */
class Net extends Module {
  fc1 = new Linear(2, 3);
  scale = new Parameter(ones([3]));
  block = new Sequential(new ReLU(), new Linear(3, 1, { bias: false }));
  notState = tensor([1, 2]); // a plain tensor property is neither a parameter nor a buffer

  constructor() {
    super();
    this.registerBuffer('running_total', zeros([3]));
    this.registerBuffer('scratch', zeros([2]), { persistent: false });
  }

  forward(x: Tensor): Tensor {
    return this.block.forward(this.fc1.forward(x).mul(this.scale));
  }
}

describe('Module', () => {
  it('finds parameters by property, own first then children, with dotted PyTorch names', () => {
    const net = new Net();
    expect(net.namedParameters().map(([n]) => n)).toEqual(['scale', 'fc1.weight', 'fc1.bias', 'block.1.weight']);
    expect(net.parameters()).toHaveLength(4);
    expect(net.parameters(false)).toEqual([net.scale]);
    expect(net.namedParameters({ prefix: 'model' })[0]![0]).toBe('model.scale');
  });

  it('a frozen Parameter stays a parameter; a shared one is listed once', () => {
    const shared = new Linear(2, 2);
    const m = new Sequential(shared, shared);
    expect(m.parameters()).toHaveLength(2);
    expect(Object.keys(m.stateDict())).toEqual(['0.weight', '0.bias', '1.weight', '1.bias']);
    m.requiresGrad_(false);
    expect(m.parameters()).toHaveLength(2);
    expect(m.parameters().every((p) => !p.requiresGrad)).toBe(true);
  });

  it('buffers(): registered tensors, persistent or not; stateDict keeps only persistent ones', () => {
    const net = new Net();
    expect(net.namedBuffers().map(([n]) => n)).toEqual(['running_total', 'scratch']);
    expect(net.buffers()).toEqual([net.getBuffer('running_total'), net.getBuffer('scratch')]);
    expect(Object.keys(net.stateDict())).toEqual([
      'scale',
      'running_total',
      'fc1.weight',
      'fc1.bias',
      'block.1.weight',
    ]);
    expect(() => net.getBuffer('nope')).toThrow("Net has no buffer named 'nope'");
    expect(() => net.registerBuffer('a.b', null)).toThrow(expect.objectContaining({ code: 'KEY_ERROR' }));
  });

  it('children(), namedChildren() and modules() walk the tree pre-order', () => {
    const net = new Net();
    expect(net.namedChildren().map(([n]) => n)).toEqual(['fc1', 'block']);
    expect(net.children()).toEqual([net.fc1, net.block]);
    expect(net.namedModules().map(([n, m]) => `${n}:${m.constructor.name}`)).toEqual([
      ':Net',
      'fc1:Linear',
      'block:Sequential',
      'block.0:ReLU',
      'block.1:Linear',
    ]);
    expect(net.modules()).toHaveLength(5);
  });

  it('train()/eval() reach every submodule and return the module', () => {
    const net = new Net();
    expect(net.eval()).toBe(net);
    expect(net.modules().map((m) => m.training)).toEqual([false, false, false, false, false]);
    net.train();
    expect(net.modules().every((m) => m.training)).toBe(true);
  });

  it('zeroGrad() sets every gradient to null, or to zeros in place with setToNone: false', () => {
    const net = new Net();
    net
      .forward(randn([4, 2]))
      .sum()
      .backward();
    expect(net.parameters().every((p) => p.grad !== null)).toBe(true);
    net.zeroGrad({ setToNone: false });
    expect(net.parameters().map((p) => p.grad!.abs().sum().item())).toEqual([0, 0, 0, 0]);
    net.zeroGrad();
    expect(net.parameters().every((p) => p.grad === null)).toBe(true);
  });

  it('to(dtype) casts floating parameters and buffers into new Parameters; to(device) moves them', () => {
    const net = new Net();
    const before = net.fc1.weight;
    net
      .forward(randn([1, 2]))
      .sum()
      .backward();
    net.to('float64');
    expect(net.fc1.weight).toBeInstanceOf(Parameter);
    expect(net.fc1.weight).not.toBe(before);
    expect(net.fc1.weight.tolist()).toEqual(before.tolist());
    expect(net.fc1.weight.grad!.dtype).toBe('float64');
    expect(net.parameters().map((p) => p.dtype)).toEqual(['float64', 'float64', 'float64', 'float64']);
    expect(net.getBuffer('running_total')!.dtype).toBe('float64');
    expect(net.forward(randn([2, 2], { dtype: 'float64' })).dtype).toBe('float64');
    net.to('float32').to('gpu:0');
    expect(net.parameters().map((p) => p.device.toString())).toEqual(['gpu:0', 'gpu:0', 'gpu:0', 'gpu:0']);
    expect(net.buffers().map((b) => b.device.toString())).toEqual(['gpu:0', 'gpu:0']);
    expect(net.to('cpu').fc1.weight.device.toString()).toBe('cpu');
  });

  it('apply() visits children before the parent; call() is forward()', () => {
    const seen: string[] = [];
    const m = new Sequential(new Linear(1, 1), new Identity());
    m.apply((x) => seen.push(x.constructor.name));
    expect(seen).toEqual(['Linear', 'Identity', 'Sequential']);
    const x = randn([2, 1]);
    expect(m.call(x).tolist()).toEqual(m.forward(x).tolist());
  });

  it("prints like PyTorch's repr", () => {
    const m = new Sequential(new Linear(4, 16), new ReLU(), new Sequential(new Linear(16, 3, { bias: false })));
    expect(m.toString()).toBe(
      [
        'Sequential(',
        '  (0): Linear(in_features=4, out_features=16, bias=True)',
        '  (1): ReLU()',
        '  (2): Sequential(',
        '    (0): Linear(in_features=16, out_features=3, bias=False)',
        '  )',
        ')',
      ].join('\n'),
    );
  });

  it('modules written before Parameter: a leaf that requires grad is still a parameter', () => {
    class Old extends Module {
      w = randn([2], { requiresGrad: true });
      forward(x: Tensor): Tensor {
        return x.mul(this.w);
      }
    }
    expect(new Old().namedParameters().map(([n]) => n)).toEqual(['w']);
  });
});
