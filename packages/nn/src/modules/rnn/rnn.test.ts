import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Tensor, gradcheck, manualSeed, randn } from '@wiregrad/autograd';
import { expectClose } from '../../__tests__/fixture.js';
import { type CellWeights, gruCell, lstmCell, rnnCell } from '../../functional/rnn.js';
import { GRU, LSTM, RNN } from '../../index.js';

const leaf = (t: Tensor) => t.requiresGrad_(true);
const r64 = (...shape: number[]) => randn(shape, { dtype: 'float64' });

describe('recurrent gradients agree with finite differences (gradcheck, float64)', () => {
  manualSeed(3);
  const w = (g: number, inp: number, h: number) => [
    leaf(r64(g * h, inp)),
    leaf(r64(g * h, h)),
    leaf(r64(g * h)),
    leaf(r64(g * h)),
  ];
  const cw = ([wIh, wHh, bIh, bHh]: Tensor[], wHr?: Tensor): CellWeights => ({
    wIh: wIh!,
    wHh: wHh!,
    bIh: bIh!,
    bHh: bHh!,
    wHr: wHr ?? null,
  });
  it.each([
    ['rnn_tanh_cell', (x: Tensor, h: Tensor, ...p: Tensor[]) => rnnCell(x, h, cw(p), 'tanh'), 1],
    ['rnn_relu_cell', (x: Tensor, h: Tensor, ...p: Tensor[]) => rnnCell(x, h, cw(p), 'relu'), 1],
    ['gru_cell', (x: Tensor, h: Tensor, ...p: Tensor[]) => gruCell(x, h, cw(p)), 3],
    ['lstm_cell', (x: Tensor, h: Tensor, ...p: Tensor[]) => lstmCell(x, [h, h.mul(0.5)], cw(p)), 4],
  ] as [string, (...t: Tensor[]) => Tensor | Tensor[], number][])(
    '%s: input, state, weights and biases',
    (_name, f, gates) => {
      expect(gradcheck(f, [leaf(r64(2, 3)), leaf(r64(2, 4)), ...w(gates, 3, 4)], { raiseException: true })).toBe(true);
    },
  );

  it('lstm_cell with a projection (weight_hr)', () => {
    const f = (x: Tensor, h: Tensor, c: Tensor, wHr: Tensor, ...p: Tensor[]) => lstmCell(x, [h, c], cw(p, wHr));
    const inputs = [leaf(r64(2, 3)), leaf(r64(2, 2)), leaf(r64(2, 4)), leaf(r64(2, 4))];
    expect(
      gradcheck(f, [...inputs, leaf(r64(16, 3)), leaf(r64(16, 2)), leaf(r64(16)), leaf(r64(16))], {
        raiseException: true,
      }),
    ).toBe(true);
  });

  it.each([
    [
      'RNN relu, 2 layers, bidirectional',
      () => new RNN(2, 3, { numLayers: 2, bidirectional: true, nonlinearity: 'relu' }),
      1,
    ],
    [
      'GRU, 2 layers, bidirectional, batchFirst',
      () => new GRU(2, 3, { numLayers: 2, bidirectional: true, batchFirst: true }),
      1,
    ],
    [
      'LSTM, projSize 2, 2 layers, bidirectional',
      () => new LSTM(2, 3, { numLayers: 2, bidirectional: true, projSize: 2 }),
      2,
    ],
  ] as [string, () => RNN | GRU | LSTM, number][])(
    '%s: input and initial states through the whole sequence',
    (_n, make, nStates) => {
      const m = make().to('float64');
      const hOut = m.projSize || m.hiddenSize;
      const states = [leaf(r64(4, 2, hOut)), leaf(r64(4, 2, m.hiddenSize))].slice(0, nStates);
      const f = (x: Tensor, ...s: Tensor[]) => {
        const [out, fin] = (m.forward as (x: Tensor, s: unknown) => [Tensor, Tensor | Tensor[]])(
          x,
          s.length === 1 ? s[0] : s,
        );
        return [out, ...(Array.isArray(fin) ? fin : [fin])];
      };
      expect(gradcheck(f, [leaf(r64(2, 2, 2)), ...states], { raiseException: true })).toBe(true);
    },
  );
});

describe('recurrent layers: structure and modes', () => {
  it('names parameters as PyTorch, each drawn from U(±1/√hiddenSize)', () => {
    const m = new LSTM(3, 8, { numLayers: 2, bidirectional: true, projSize: 2, bias: false });
    expect(m.namedParameters().map(([n, p]) => `${n} ${p.shape.join('x')}`)).toEqual([
      'weight_ih_l0 32x3',
      'weight_hh_l0 32x2',
      'weight_hr_l0 2x8',
      'weight_ih_l0_reverse 32x3',
      'weight_hh_l0_reverse 32x2',
      'weight_hr_l0_reverse 2x8',
      'weight_ih_l1 32x4',
      'weight_hh_l1 32x2',
      'weight_hr_l1 2x8',
      'weight_ih_l1_reverse 32x4',
      'weight_hh_l1_reverse 32x2',
      'weight_hr_l1_reverse 2x8',
    ]);
    const values = m.parameters().flatMap((p) => [...p.toTypedArray()]);
    expect(Math.max(...values.map(Math.abs))).toBeLessThanOrEqual(1 / Math.sqrt(8));
    expect(Math.max(...values.map(Math.abs))).toBeGreaterThan(0.9 / Math.sqrt(8));
  });

  it('batchFirst is the time-major layer on transposed inputs and outputs (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 3 }),
        fc.boolean(),
        (steps, batch, bidirectional) => {
          const a = new GRU(2, 3, { bidirectional }).to('float64');
          const b = new GRU(2, 3, { bidirectional, batchFirst: true }).to('float64');
          b.loadStateDict(a.stateDict());
          const x = r64(steps, batch, 2);
          const [ya, ha] = a.forward(x);
          const [yb, hb] = b.forward(x.transpose(0, 1));
          expectClose(yb.transpose(0, 1), ya.tolist() as number[][][]);
          expectClose(hb, ha.tolist() as number[][][]);
        },
      ),
      { numRuns: 20 },
    );
  });

  it('dropout acts between layers in training mode only, never on the last layer', () => {
    manualSeed(0);
    const m = new LSTM(3, 16, { numLayers: 2, dropout: 0.5 }).to('float64');
    const x = r64(4, 2, 3);
    const [evalOut] = m.eval().forward(x);
    const [evalAgain] = m.forward(x);
    expectClose(evalAgain, evalOut.tolist() as number[][][]);
    const [trainOut] = m.train().forward(x);
    expect(trainOut.sub(evalOut).abs().max().item()).toBeGreaterThan(1e-3);
    const single = new LSTM(3, 16, { dropout: 0.5 }).to('float64');
    const [a] = single.train().forward(x);
    const [b] = single.eval().forward(x);
    expectClose(a, b.tolist() as number[][][]);
  });

  it('moves to another dtype and keeps state dict keys (weights are looked up by name)', () => {
    const m = new RNN(2, 3, { bidirectional: true });
    const keys = Object.keys(m.stateDict());
    m.to('float64');
    expect(Object.keys(m.stateDict())).toEqual(keys);
    const [y, h] = m.forward(r64(5, 1, 2));
    expect([y.dtype, y.shape, h.shape]).toEqual(['float64', [5, 1, 6], [2, 1, 3]]);
  });
});
