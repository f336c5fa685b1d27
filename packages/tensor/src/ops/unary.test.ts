import { describe, expect, it } from 'vitest';
import { arange, clamp, exp, relu, tensor, type Tensor } from '../index.js';

const values = (t: Tensor) => t.tolist() as number[];
const closeTo = (got: number[], want: number[], digits: number) =>
  expect(got).toEqual(want.map((v) => expect.closeTo(v, digits)));

// float64 values from PyTorch 1.13 on x = [-3, -1, -0.5, 0, 0.5, 1, 2.5, 25]
const X = [-3, -1, -0.5, 0, 0.5, 1, 2.5, 25];
const TORCH: Record<string, number[]> = {
  exp: [
    0.049787068367863944, 0.36787944117144233, 0.6065306597126334, 1.0, 1.6487212707001282, 2.718281828459045,
    12.182493960703473, 72004899337.38588,
  ],
  sin: [
    -0.1411200080598672, -0.8414709848078965, -0.479425538604203, 0.0, 0.479425538604203, 0.8414709848078965,
    0.5984721441039564, -0.13235175009777303,
  ],
  cos: [
    -0.9899924966004454, 0.5403023058681398, 0.8775825618903728, 1.0, 0.8775825618903728, 0.5403023058681398,
    -0.8011436155469337, 0.9912028118634736,
  ],
  tanh: [
    -0.9950547536867305, -0.7615941559557649, -0.46211715726000974, 0.0, 0.46211715726000974, 0.7615941559557649,
    0.9866142981514303, 1.0,
  ],
  sigmoid: [
    0.04742587317756678, 0.2689414213699951, 0.3775406687981454, 0.5, 0.6224593312018546, 0.7310585786300049,
    0.9241418199787566, 0.999999999986112,
  ],
  relu: [0, 0, 0, 0, 0.5, 1, 2.5, 25],
  gelu: [
    -0.00404969409489031, -0.15865525393145702, -0.15426876936299344, 0.0, 0.34573123063700656, 0.841344746068543,
    2.4844758366855597, 25.0,
  ],
  silu: [
    -0.14227761953270035, -0.2689414213699951, -0.1887703343990727, 0.0, 0.3112296656009273, 0.7310585786300049,
    2.3103545499468914, 24.9999999996528,
  ],
  softplus: [
    0.04858735157374206, 0.31326168751822286, 0.4740769841801067, 0.6931471805599453, 0.9740769841801067,
    1.3132616875182228, 2.5788897342925496, 25.0,
  ],
  abs: [3, 1, 0.5, 0, 0.5, 1, 2.5, 25],
  sign: [-1, -1, -1, 0, 1, 1, 1, 1],
  neg: [3, 1, 0.5, -0, -0.5, -1, -2.5, -25],
};
// on p = [0.25, 1, 2, 9, 100]
const P = [0.25, 1, 2, 9, 100];
const TORCH_POSITIVE: Record<string, number[]> = {
  log: [-1.3862943611198906, 0.0, 0.6931471805599453, 2.1972245773362196, 4.605170185988092],
  log1p: [0.22314355131420976, 0.6931471805599453, 1.0986122886681098, 2.302585092994046, 4.61512051684126],
  sqrt: [0.5, 1.0, 1.4142135623730951, 3.0, 10.0],
  rsqrt: [2.0, 1.0, 0.7071067811865475, 0.3333333333333333, 0.1],
};

/** `t.<name>()` for a unary method name. */
const call = (t: Tensor, name: string) => (t as unknown as Record<string, () => Tensor>)[name]!.call(t);

describe('unary ops', () => {
  it.each(Object.keys(TORCH))('%s matches PyTorch in float64', (name) => {
    const got = call(tensor(X, { dtype: 'float64' }), name);
    expect(got.dtype).toBe('float64');
    closeTo(values(got), TORCH[name]!, 12);
  });

  it.each(Object.keys(TORCH_POSITIVE))('%s matches PyTorch in float64 (positive inputs)', (name) => {
    closeTo(values(call(tensor(P, { dtype: 'float64' }), name)), TORCH_POSITIVE[name]!, 12);
  });

  // torch float32 gelu on X
  const TORCH_GELU_F32 = [
    -0.004049867391586304, -0.1586552858352661, -0.1542687863111496, 0, 0.3457311987876892, 0.8413447141647339,
    2.48447585105896, 25,
  ];

  it('computes float32 inputs in float32 (values rounded like PyTorch)', () => {
    const x = tensor(X);
    expect(x.gelu().dtype).toBe('float32');
    closeTo(values(x.gelu()), TORCH_GELU_F32, 6);
    expect(values(x.sigmoid())[7]).toBe(1);
  });

  it('float32 gelu of a tensor big enough for the cpu device wasm kernel gives the same PyTorch values', () => {
    const big = tensor(X).expand([1024, X.length]).contiguous().gelu();
    const rows = big.tolist() as number[][];
    for (const row of [rows[0]!, rows[511]!, rows[1023]!]) closeTo(row, TORCH_GELU_F32, 6);
  });

  it('promotes int and bool inputs of float ops to float32; abs/neg/sign/relu keep int32', () => {
    const i = arange(-2, 2);
    for (const name of [
      'exp',
      'log',
      'log1p',
      'sqrt',
      'rsqrt',
      'sin',
      'cos',
      'tanh',
      'sigmoid',
      'gelu',
      'silu',
      'softplus',
    ] as const) {
      expect(call(i, name).dtype).toBe('float32');
    }
    expect(tensor([true, false]).exp().tolist()).toEqual([Math.fround(Math.E), 1]);
    expect(i.abs().tolist()).toEqual([2, 1, 0, 1]);
    expect(i.neg().tolist()).toEqual([2, 1, 0, -1]);
    expect(i.sign().tolist()).toEqual([-1, -1, 0, 1]);
    expect(i.relu().tolist()).toEqual([0, 0, 0, 1]);
    for (const name of ['abs', 'neg', 'sign', 'relu'] as const) expect(call(i, name).dtype).toBe('int32');
  });

  it('treats NaN, infinities and -0 like PyTorch', () => {
    const s = tensor([NaN, Infinity, -Infinity], { dtype: 'float64' });
    expect(values(s.sigmoid())).toEqual([NaN, 1, 0]);
    expect(values(s.tanh())).toEqual([NaN, 1, -1]);
    expect(values(tensor([NaN, -0, 2]).sign())).toEqual([0, 0, 1]);
    expect(Object.is(values(relu(tensor([-0])))[0], -0)).toBe(true);
    expect(values(tensor([NaN, -1]).relu())).toEqual([NaN, 0]);
    expect(values(tensor([-1, 0]).log())).toEqual([NaN, -Infinity]);
    // softplus: threshold 20 (x > 20 is returned as is); tiny values stay accurate
    closeTo(
      values(tensor([19, 20, 21, -100], { dtype: 'float64' }).softplus()),
      [19.000000005602796, 20.000000002061153, 21, 3.720075976020836e-44],
      12,
    );
  });

  it('reads strided inputs (transposed, sliced, expanded)', () => {
    const m = tensor(
      [
        [0, 1, 2],
        [3, 4, 5],
      ],
      { dtype: 'float64' },
    );
    expect(values(m.t().exp().reshape([6]))).toEqual([0, 3, 1, 4, 2, 5].map(Math.exp));
    expect(values(m.slice(1, 0, null, 2).neg().reshape([4]))).toEqual([-0, -2, -3, -5]);
    expect(exp(tensor([1]).expand([3])).tolist()).toEqual([
      Math.fround(Math.E),
      Math.fround(Math.E),
      Math.fround(Math.E),
    ]);
  });

  it("refuses neg on bool with PyTorch's message; logicalNot gives bool (NaN is true)", () => {
    expect(() => tensor([true]).neg()).toThrow(
      'Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.',
    );
    expect(tensor([true, false]).logicalNot().tolist()).toEqual([false, true]);
    expect(tensor([NaN, 0, -2]).logicalNot().tolist()).toEqual([false, true, false]);
    expect(arange(2).logicalNot().dtype).toBe('bool');
  });
});

describe('clamp', () => {
  it('clamps with both bounds, either one, and min > max (every element becomes max)', () => {
    const x = tensor([-2, 0, 3, NaN]);
    expect(x.clamp(-1, 1).tolist()).toEqual([-1, 0, 1, NaN]);
    expect(x.clamp(null, 1).tolist()).toEqual([-2, 0, 1, NaN]);
    expect(x.clamp(0).tolist()).toEqual([0, 0, 3, NaN]);
    expect(clamp(tensor([0, 5, 10]), 6, 4).tolist()).toEqual([4, 4, 4]);
  });

  it('keeps int32 for integer bounds and computes in float32 for fractional ones', () => {
    expect(arange(5).clamp(1, 3).tolist()).toEqual([1, 1, 2, 3, 3]);
    expect(arange(5).clamp(1, 3).dtype).toBe('int32');
    const f = arange(3).clamp(0.5);
    expect(f.dtype).toBe('float32');
    expect(f.tolist()).toEqual([0.5, 1, 2]);
  });

  it('needs a bound', () => {
    expect(() => tensor([1]).clamp()).toThrow("torch.clamp: At least one of 'min' or 'max' must not be None");
  });
});
