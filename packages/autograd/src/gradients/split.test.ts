import { describe, expect, it } from 'vitest';
import {
  AutogradError,
  type Node,
  type Tensor,
  arange,
  chunk,
  grad,
  gradcheck,
  noGrad,
  split,
  tensor,
  unbind,
  zeros,
} from '../index.js';
import { gradientEdge } from '../internal.js';

/** arange(n) reshaped, float64, as a leaf that requires grad. */
const leaf = (...shape: number[]) => {
  const t = arange(
    shape.reduce((a, b) => a * b, 1),
    { dtype: 'float64' },
  ).reshape(shape);
  t.requiresGrad = true;
  return t;
};
const nameOf = (t: Tensor) => (t.gradFn as Node).name();

describe('Note [Multi-output views]: split, chunk and unbind record one node for all their pieces', () => {
  it.each([
    ['split(2)', (x: Tensor) => x.split(2), 'SplitBackward0', 3],
    ['split([1, 4])', (x: Tensor) => x.split([1, 4]), 'SplitWithSizesBackward0', 2],
    ['chunk(2)', (x: Tensor) => x.chunk(2), 'SplitBackward0', 2],
    ['unbind()', (x: Tensor) => x.unbind(), 'UnbindBackward0', 5],
  ] as const)(
    '%s: every piece has the same gradFn, named as PyTorch 1.13 names it, with outputNr 0..n-1',
    (_, f, name, n) => {
      const pieces = f(leaf(5, 2));
      expect(pieces).toHaveLength(n);
      const node = pieces[0]!.gradFn as Node;
      expect(node.name()).toBe(name);
      expect(pieces.every((p) => p.gradFn === node)).toBe(true);
      expect(pieces.map((p) => gradientEdge(p).inputNr)).toEqual(Array.from({ length: n }, (_, i) => i));
      expect(node.numInputs).toBe(n);
    },
  );

  it('a split into one piece is still a new view with its own SplitBackward0 (not the input itself)', () => {
    const x = leaf(3);
    const [only] = x.split(5);
    expect(only).not.toBe(x);
    expect(nameOf(only!)).toBe('SplitBackward0');
    expect(only!.storage).toBe(x.storage);
  });

  it('chunk of an empty dim gives its empty pieces from one SplitWithSizesBackward0, as torch.chunk does', () => {
    const pieces = chunk(zeros([0, 2], { dtype: 'float64' }).requiresGrad_(), 3);
    expect(pieces.map((p) => p.shape)).toEqual([
      [0, 2],
      [0, 2],
      [0, 2],
    ]);
    expect(pieces.map(nameOf)).toEqual(Array(3).fill('SplitWithSizesBackward0'));
    expect(new Set(pieces.map((p) => p.gradFn)).size).toBe(1);
  });

  it('the pieces stay views of the input storage', () => {
    const x = leaf(4, 3).mul(1);
    const pieces = [...split(x, 3, 1), ...unbind(x, 1), ...chunk(x, 2)];
    expect(pieces.every((p) => p.storage === x.storage)).toBe(true);
  });

  it('the input gradient is built from every piece, a piece without a gradient counting as zeros (split_backward)', () => {
    const x = leaf(5);
    const [a, , c] = x.split(2);
    a!.mul(2).sum().add(c!.mul(3).sum()).backward();
    expect(x.grad!.tolist()).toEqual([2, 2, 0, 0, 3]);
  });

  it('unbind: one gradient for one piece gives the stacked gradient with zeros elsewhere (test_unbind)', () => {
    const x = leaf(3, 2);
    const outs = x.unbind();
    const gi = tensor([5, 7], { dtype: 'float64' });
    for (let i = 0; i < 3; i++) {
      const [g] = grad([outs[i]!], [x], { gradOutputs: [gi], retainGraph: true });
      expect(g!.tolist()).toEqual([0, 1, 2].map((j) => (j === i ? [5, 7] : [0, 0])));
    }
    const all = tensor(
      [
        [1, 2],
        [3, 4],
        [5, 6],
      ],
      { dtype: 'float64' },
    );
    const [g] = grad(outs, [x], { gradOutputs: all.unbind() });
    expect(g!.tolist()).toEqual(all.tolist());
  });

  it('a hook on one piece gets null when backward starts from a sibling piece (PyTorch passes None)', () => {
    for (const pieces of [(x: Tensor) => x.split(1), (x: Tensor) => x.unbind(), (x: Tensor) => x.chunk(2)]) {
      const x = leaf(2);
      const [a, b] = pieces(x);
      const seen: (number[] | null)[] = [];
      a!.registerHook((g: Tensor | null) => {
        seen.push(g === null ? null : (g.reshape(-1).tolist() as number[]));
      });
      b!.sum().backward(undefined, { retainGraph: true });
      expect(seen).toEqual([null]);
      expect(x.grad!.tolist()).toEqual([0, 1]);
      a!.sum().backward();
      expect(seen).toEqual([null, [1]]);
    }
  });

  it('what a hook returns in place of null becomes that piece gradient', () => {
    const x = leaf(2);
    const [a, b] = x.split(1);
    a!.registerHook((g: Tensor | null) => g ?? tensor([4], { dtype: 'float64' }));
    b!.sum().backward();
    expect(x.grad!.tolist()).toEqual([4, 1]);
  });

  describe('in-place writes into a piece are refused, as PyTorch refuses them on the outputs of multi-view functions', () => {
    const suffix =
      ' This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.';
    const refused = (f: () => unknown, message: string) => {
      try {
        f();
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(AutogradError);
        expect((e as AutogradError).code).toBe('MULTI_OUTPUT_VIEW_INPLACE');
        expect((e as Error).message).toBe(message);
      }
    };

    it.each([
      ['split', (x: Tensor) => x.split(2), 'SplitBackward0'],
      ['split with sizes', (x: Tensor) => x.split([2, 2]), 'SplitWithSizesBackward0'],
      ['chunk', (x: Tensor) => x.chunk(2), 'SplitBackward0'],
      ['unbind', (x: Tensor) => x.unbind(), 'UnbindBackward0'],
    ] as const)('%s (test_inplace_on_view_multiple_outputs)', (_, f, name) => {
      const x = leaf(4, 1).mul(1);
      const pieces = f(x);
      refused(() => pieces[1]!.mul_(2), `Output 1 of ${name} is a view and is being modified inplace.${suffix}`);
      refused(() => pieces[0]!.fill_(0), `Output 0 of ${name} is a view and is being modified inplace.${suffix}`);
      expect(x.tolist()).toEqual([[0], [1], [2], [3]]);
    });

    it('on the pieces of a leaf too: the multi-output error comes before the view-of-a-leaf one', () => {
      refused(
        () => leaf(2).unbind()[0]!.zero_(),
        `Output 0 of UnbindBackward0 is a view and is being modified inplace.${suffix}`,
      );
    });

    it('writing a value that requires grad into a piece of a tensor that does not', () => {
      const w = leaf(2);
      refused(
        () => zeros([4], { dtype: 'float64' }).split(2)[1]!.copy_(w),
        `A view was created in no_grad mode and is being modified inplace with grad mode enabled.${suffix}`,
      );
    });

    it('after the base (or another piece) was written in place, using a piece is refused (the indirect case)', () => {
      const x = leaf(4).mul(1);
      const [a, b] = x.split(2);
      x.mul_(2);
      refused(
        () => a!.gradFn,
        `Output 0 of SplitBackward0 is a view and its base or another view of its base has been modified inplace.${suffix}`,
      );
      refused(
        () => b!.sum(),
        `Output 1 of SplitBackward0 is a view and its base or another view of its base has been modified inplace.${suffix}`,
      );
    });

    it('into a view of a piece too (PyTorch propagates the piece creation meta to its views)', () => {
      const x = leaf(4, 2).mul(1);
      refused(
        () => x.split(2)[1]!.narrow(0, 1, 1).mul_(2),
        `Output 0 of SliceBackward0 is a view and is being modified inplace.${suffix}`,
      );
    });

    it('a piece written under noGrad is allowed, and its siblings then refuse to be used', () => {
      const x = leaf(4).mul(1);
      const [a, b] = x.split(2);
      noGrad(() => a!.fill_(0));
      expect(x.tolist()).toEqual([0, 0, 2, 3]);
      refused(
        () => b!.mul(2),
        `Output 1 of SplitBackward0 is a view and its base or another view of its base has been modified inplace.${suffix}`,
      );
    });

    it('are allowed when nothing requires grad, and under noGrad (the pieces stay views)', () => {
      const plain = zeros([4], { dtype: 'float64' });
      plain.split(2)[1]!.fill_(1);
      expect(plain.tolist()).toEqual([0, 0, 1, 1]);
      const x = leaf(4).mul(1);
      noGrad(() => x.unbind()[0]!.fill_(9));
      expect(x.tolist()).toEqual([9, 1, 2, 3]);
    });
  });

  describe('gradcheck (float64) and double backward', () => {
    const r = (...shape: number[]) => {
      const n = shape.reduce((a, b) => a * b, 1);
      const t = tensor(
        Array.from({ length: n }, (_, i) => Math.sin(1 + i)),
        { dtype: 'float64' },
      ).reshape(shape);
      t.requiresGrad = true;
      return t;
    };
    it.each([
      ['split by size, uneven last piece', (a: Tensor) => a.split(2, 1)],
      ['split by sizes, an empty piece among them, negative dim', (a: Tensor) => a.split([1, 0, 4], -1)],
      ['split along dim 0 of a transposed input', (a: Tensor) => a.t().split(3)],
      ['chunk', (a: Tensor) => a.chunk(3, 1)],
      ['unbind dim 1', (a: Tensor) => a.unbind(1)],
      [
        'unbind dim 0, pieces used unevenly',
        (a: Tensor) => {
          const [p, q] = a.unbind(0);
          return p!.mul(q!).add(p!);
        },
      ],
      ['one piece only', (a: Tensor) => a.split(2, 1)[1]!],
    ] as const)('%s', (_, f) => {
      expect(gradcheck(f, [r(2, 5)], { raiseException: true })).toBe(true);
    });

    it('double backward through split (createGraph)', () => {
      const x = r(4);
      const [a, b] = x.split(2);
      const y = a!.pow(3).sum().add(b!.mul(a!).sum());
      const [g] = grad([y], [x], { createGraph: true });
      const [gg] = grad([g!.sum()], [x]);
      const v = x.tolist() as number[];
      // y = x0^3 + x1^3 + x2 x0 + x3 x1: d(sum of dy/dx)/dx = [6 x0 + 1, 6 x1 + 1, 1, 1]
      expect(gg!.tolist()).toEqual([6 * v[0]! + 1, 6 * v[1]! + 1, 1, 1].map((e) => expect.closeTo(e, 12)));
    });
  });
});
