import { describe, expect, it } from 'vitest';
import { type Tensor, tensor, tidy } from '@wiregrad/autograd';
import { Linear } from '../index.js';
import { Adagrad, Adam, AdamW, RMSprop, SGD } from './index.js';

const leaf = (v: number[], dtype: 'float32' | 'float64' = 'float64') => tensor(v, { dtype, requiresGrad: true });
const quad = (p: Tensor) => p.mul(p).sum().add(p.pow(3).sum());

describe('Optimizer', () => {
  it('steps inside tidy() like outside it: its state outlives the scope of the step that made it (Note [Optimizer state outlives tidy])', () => {
    const make = [
      (p: Tensor[]) => new SGD(p, { lr: 0.1, momentum: 0.9 }),
      (p: Tensor[]) => new Adam(p, { lr: 0.1, amsgrad: true }),
      (p: Tensor[]) => new AdamW(p, { lr: 0.1 }),
      (p: Tensor[]) => new RMSprop(p, { lr: 0.01, momentum: 0.5, centered: true }),
      (p: Tensor[]) => new Adagrad(p, { lr: 0.1 }),
    ];
    for (const m of make) {
      const [inScope, plain] = [leaf([1, -2, 3]), leaf([1, -2, 3])];
      const [a, b] = [m([inScope]), m([plain])];
      for (let i = 0; i < 3; i++) {
        tidy(() => {
          a.zeroGrad();
          quad(inScope).backward();
          a.step();
        });
        b.zeroGrad();
        quad(plain).backward();
        b.step();
      }
      expect(inScope.tolist()).toEqual(plain.tolist());
    }
  });

  it("checks its arguments with PyTorch's messages and a code", () => {
    const p = [leaf([1])];
    expect(() => new SGD(p, { lr: -1 })).toThrow('Invalid learning rate: -1');
    expect(() => new SGD(p, { lr: 0.1, momentum: -1 })).toThrow('Invalid momentum value: -1');
    expect(() => new SGD(p, { lr: 0.1, nesterov: true })).toThrow(
      'Nesterov momentum requires a momentum and zero dampening',
    );
    expect(() => new SGD(p)).toThrow("parameter group didn't specify a value of required optimization parameter lr");
    expect(() => new SGD(p)).toThrow(expect.objectContaining({ name: 'NnError', code: 'INVALID_ARGUMENT' }));
    expect(() => new Adam(p, { betas: [1, 0.9] })).toThrow('Invalid beta parameter at index 0: 1');
    expect(() => new AdamW(p, { eps: -1 })).toThrow('Invalid epsilon value: -1');
    expect(() => new Adam(p, { weightDecay: -0.1 })).toThrow('Invalid weight_decay value: -0.1');
    expect(() => new RMSprop(p, { alpha: -1 })).toThrow('Invalid alpha value: -1');
    expect(() => new Adagrad(p, { lrDecay: -1 })).toThrow('Invalid lr_decay value: -1');
    expect(() => new Adagrad(p, { initialAccumulatorValue: -1 })).toThrow(
      'Invalid initial_accumulator_value value: -1',
    );
  });

  it('refuses bad parameter lists', () => {
    const p = leaf([1]);
    expect(() => new SGD([], { lr: 0.1 })).toThrow('optimizer got an empty parameter list');
    expect(() => new SGD(p as never, { lr: 0.1 })).toThrow(
      'params argument given to the optimizer should be an iterable of Tensors or dicts, but got Tensor',
    );
    expect(() => new SGD([p.mul(2)], { lr: 0.1 })).toThrow("can't optimize a non-leaf Tensor");
    expect(() => new SGD([p, p], { lr: 0.1 })).toThrow('some parameters appear in more than one parameter group');
    const opt = new SGD([p], { lr: 0.1 });
    expect(() => opt.addParamGroup({ params: [p] })).toThrow('some parameters appear in more than one parameter group');
  });

  it('addParamGroup takes the defaults for options the group leaves out; takes module parameters directly', () => {
    const opt = new Adam(new Linear(2, 2).parameters(), { lr: 0.01 });
    opt.addParamGroup({ params: [leaf([1])], betas: [0.5, 0.6] });
    expect(opt.paramGroups).toHaveLength(2);
    expect(opt.paramGroups[1]).toMatchObject({ lr: 0.01, betas: [0.5, 0.6], eps: 1e-8, amsgrad: false });
  });

  it('skips parameters without a gradient (no state is created for them)', () => {
    const [a, b] = [leaf([1, 2]), leaf([3])];
    const opt = new Adam([a, b], { lr: 0.1 });
    quad(a).backward();
    opt.step();
    expect(b.tolist()).toEqual([3]);
    expect(opt.state.has(a)).toBe(true);
    expect(opt.state.has(b)).toBe(false);
  });

  it('step(closure) evaluates the loss with grad enabled and returns it', () => {
    const p = leaf([2]);
    const opt = new SGD([p], { lr: 0.1 });
    const loss = opt.step(() => {
      opt.zeroGrad();
      const l = quad(p);
      l.backward();
      return l;
    }) as Tensor;
    expect(loss.item()).toBe(12);
    expect(p.item()).toBeCloseTo(2 - 0.1 * 16, 12);
  });

  it('zeroGrad sets gradients to null, or zeros them with setToNone: false', () => {
    const p = leaf([1, 2]);
    const opt = new SGD([p], { lr: 0.1 });
    quad(p).backward();
    opt.zeroGrad({ setToNone: false });
    expect(p.grad!.tolist()).toEqual([0, 0]);
    opt.zeroGrad();
    expect(p.grad).toBeNull();
  });

  it.each([
    ['SGD', (ps: Tensor[]) => new SGD(ps, { lr: 0.05, momentum: 0.9 })],
    ['Adam amsgrad', (ps: Tensor[]) => new Adam(ps, { lr: 0.05, amsgrad: true })],
    ['RMSprop centered', (ps: Tensor[]) => new RMSprop(ps, { momentum: 0.5, centered: true })],
    ['Adagrad', (ps: Tensor[]) => new Adagrad(ps, { lrDecay: 0.1 })],
  ])(
    '%s: stateDict() after 3 steps, loaded into a new optimizer, continues exactly like the uninterrupted run',
    (_name, make) => {
      const run = (p: Tensor, opt: ReturnType<typeof make>, n: number) => {
        for (let i = 0; i < n; i++) {
          opt.zeroGrad();
          quad(p).backward();
          opt.step();
        }
      };
      const p = leaf([0.5, -0.3]);
      const straight = make([p]);
      run(p, straight, 5);

      const q = leaf([0.5, -0.3]);
      const first = make([q]);
      run(q, first, 3);
      const sd = first.stateDict();
      run(q, first, 1); // the snapshot does not move with later steps
      const q2 = leaf([0.5, -0.3]);
      run(q2, make([q2]), 3);
      const second = make([q2]);
      second.loadStateDict(sd);
      run(q2, second, 2);
      expect(q2.tolist()).toEqual(p.tolist());
    },
  );

  it('loadStateDict casts state to the parameter dtype, restores group options, and checks group sizes', () => {
    const p = leaf([1, 2]);
    const opt = new Adam([p], { lr: 0.1 });
    quad(p).backward();
    opt.step();
    const sd = opt.stateDict();
    sd.paramGroups[0]!.lr = 0.5;
    const p32 = leaf([1, 2], 'float32');
    const other = new Adam([p32], { lr: 0.1 });
    other.loadStateDict(sd);
    expect(other.paramGroups[0]!.lr).toBe(0.5);
    expect(other.paramGroups[0]!.params[0]).toBe(p32);
    expect((other.state.get(p32)!.exp_avg as Tensor).dtype).toBe('float32');
    expect(() => new Adam([leaf([1]), leaf([2])], {}).loadStateDict(sd)).toThrow(
      "loaded state dict contains a parameter group that doesn't match the size of optimizer's group",
    );
    expect(() => new Adam([{ params: [leaf([1])] }, { params: [leaf([1])] }]).loadStateDict(sd)).toThrow(
      'loaded state dict has a different number of parameter groups',
    );
  });
});
