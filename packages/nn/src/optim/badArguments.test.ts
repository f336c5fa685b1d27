import { describe, expect, it } from 'vitest';
import { type Tensor, tensor } from '@wiregrad/autograd';
import { NnError } from '../errors.js';
import { Adagrad, Adam, AdamW, type Optimizer, RMSprop, SGD } from './index.js';

type OptimizerClass = new (params: Iterable<Tensor> | Iterable<object>, opts?: object) => Optimizer;
const OPTIMIZERS = [SGD, Adam, AdamW, RMSprop, Adagrad] as unknown as OptimizerClass[];

/** Values of no option's type (a string, a list, a symbol...), and of none that takes a number or a bool. */
const BAD: readonly unknown[] = [
  'a',
  {},
  null,
  ['x'],
  NaN,
  -1,
  () => 1,
  Symbol('s'),
  10n,
  Object.create(null),
  [0.9],
  5,
  true,
];

const params = () => {
  const p = tensor([1, 2], { requiresGrad: true });
  p.grad = tensor([1, 1]);
  return [p];
};

/** 'ok' when building the optimizer and one step work, 'coded' for an NnError, else the raw error. */
function outcome(build: () => Optimizer): string {
  try {
    build().step();
    return 'ok';
  } catch (e) {
    return e instanceof NnError && typeof e.code === 'string'
      ? 'coded'
      : `${(e as Error).name}: ${(e as Error).message}`;
  }
}

describe('optimizer arguments (Note [Optimizer argument validation])', () => {
  it('every optimizer answers a bad params list, options object, option or group option with an NnError, never a TypeError', () => {
    const raw: string[] = [];
    for (const Optim of OPTIMIZERS) {
      const options = Object.keys(new Optim(params(), { lr: 0.1 }).defaults);
      BAD.forEach((bad, i) => {
        const cases: [string, () => Optimizer][] = [
          ['params', () => new Optim(bad as Tensor[])],
          ['[params]', () => new Optim([bad] as Tensor[])],
          ['opts', () => new Optim(params(), bad as object)],
          ...options.map((key): [string, () => Optimizer] => [key, () => new Optim(params(), { lr: 0.1, [key]: bad })]),
          ...options.map((key): [string, () => Optimizer] => [
            `group ${key}`,
            () => new Optim([{ params: params(), [key]: bad }], { lr: 0.1 }),
          ]),
        ];
        for (const [what, build] of cases) {
          const result = outcome(build);
          if (result !== 'ok' && result !== 'coded') raw.push(`${Optim.name} ${what} = BAD[${i}]: ${result}`);
        }
      });
    }
    expect(raw).toEqual([]);
  });

  it('names the optimizer and the option; SGD without a learning rate says so as PyTorch does', () => {
    expect(() => new SGD(params(), { lr: '0.1' as never })).toThrow("SGD(): argument 'lr' must be number, not str");
    expect(() => new Adam(params(), { betas: [0.9] as never })).toThrow(
      "Adam(): argument 'betas' must be tuple of two numbers, not array",
    );
    expect(() => new RMSprop([{ params: params(), centered: 1 as never }])).toThrow(
      "RMSprop.addParamGroup(): argument 'centered' must be bool, not int",
    );
    expect(() => new SGD(params())).toThrow(
      "parameter group didn't specify a value of required optimization parameter lr",
    );
    expect(() => new Adagrad([{ params: 3 } as never])).toThrow(
      "a param group's params must be a Tensor or an iterable of Tensors, not int",
    );
  });
});
