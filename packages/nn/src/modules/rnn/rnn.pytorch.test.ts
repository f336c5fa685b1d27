import { describe, expect, it } from 'vitest';
import { type NestedArray, type Tensor, noGrad } from '@wiregrad/autograd';
import { expectClose, f64, loadFixture } from '../../__tests__/fixture.js';
import { GRU, GRUCell, LSTM, LSTMCell, type Module, RNN, RNNCell } from '../../index.js';

interface Case {
  stateDict: Record<string, NestedArray>;
  x: NestedArray;
  hx: NestedArray[] | null;
  outputs: NestedArray[];
  dx: NestedArray;
  dhx: NestedArray[] | null;
  dparams: Record<string, NestedArray>;
  repr: string;
}
const F = loadFixture<{ cases: Record<string, Case>; errors: Record<string, string> }>('rnn');

type AnyRnn = Module<[Tensor, never?], unknown>;
const modules: [string, () => AnyRnn][] = [
  ['rnnTanh2LayerBidirectional', () => new RNN(3, 4, { numLayers: 2, bidirectional: true })],
  ['rnnReluBatchFirstNoBias', () => new RNN(3, 4, { nonlinearity: 'relu', batchFirst: true, bias: false })],
  ['rnnUnbatched', () => new RNN(3, 4, { numLayers: 2 })],
  ['lstm2LayerBidirectional', () => new LSTM(3, 5, { numLayers: 2, bidirectional: true })],
  ['lstmProjBatchFirst', () => new LSTM(3, 5, { numLayers: 2, projSize: 2, batchFirst: true })],
  ['lstmProjBidirectional', () => new LSTM(3, 4, { projSize: 3, bidirectional: true })],
  ['lstmUnbatched', () => new LSTM(3, 4)],
  ['gru2LayerBidirectionalBatchFirst', () => new GRU(3, 4, { numLayers: 2, bidirectional: true, batchFirst: true })],
  ['gruNoBias', () => new GRU(2, 3, { bias: false })],
  ['gruDropoutOneTraining', () => new GRU(3, 4, { numLayers: 2, dropout: 1 })],
  ['lstmDropoutEval', () => new LSTM(3, 4, { numLayers: 2, dropout: 0.5 })],
  ['rnnCellTanh', () => new RNNCell(3, 4)],
  ['rnnCellReluNoBias', () => new RNNCell(3, 4, { bias: false, nonlinearity: 'relu' })],
  ['rnnCellUnbatched', () => new RNNCell(3, 4)],
  ['lstmCell', () => new LSTMCell(3, 4)],
  ['lstmCellUnbatchedZeroState', () => new LSTMCell(3, 4)],
  ['gruCell', () => new GRUCell(3, 4)],
  ['gruCellNoBias', () => new GRUCell(3, 4, { bias: false })],
] as unknown as [string, () => AnyRnn][];

/** r = linspace(-1, 1) over y's elements (-1 for one element), as gen_rnn.py weights each output. */
const ramp = (y: Tensor) => {
  const n = y.numel;
  const r = Array.from({ length: n }, (_, i) => (n === 1 ? -1 : -1 + (2 * i) / (n - 1)));
  return f64(r).reshape([...y.shape]);
};
const flatOutputs = (out: unknown): Tensor[] => (Array.isArray(out) ? out.flatMap(flatOutputs) : [out as Tensor]);

describe('recurrent layers agree with PyTorch 1.13 (fixtures/rnn.json)', () => {
  it.each(modules)('%s: state dict keys, outputs, and gradients of inputs, states and parameters', (name, make) => {
    const c = F.cases[name]!;
    const m = make().to('float64');
    m.train(name.endsWith('Training'));
    expect(Object.keys(m.stateDict())).toEqual(Object.keys(c.stateDict));
    expect(m.loadStateDict(Object.fromEntries(Object.entries(c.stateDict).map(([k, v]) => [k, f64(v)])))).toEqual({
      missingKeys: [],
      unexpectedKeys: [],
    });
    const x = f64(c.x, true);
    const hx = c.hx?.map((h) => f64(h, true)) ?? null;
    const state = hx === null ? undefined : hx.length === 1 ? hx[0] : hx;
    const ys = flatOutputs((m.forward as (x: Tensor, s?: unknown) => unknown)(x, state));
    expect(ys).toHaveLength(c.outputs.length);
    ys.forEach((y, i) => expectClose(y, c.outputs[i]!, 1e-9, 1e-12));
    ys.map((y) => y.mul(ramp(y)).sum())
      .reduce((a, b) => a.add(b))
      .backward();
    expectClose(x.grad!, c.dx, 1e-9, 1e-12);
    hx?.forEach((h, i) => expectClose(h.grad!, c.dhx![i]!, 1e-9, 1e-12));
    for (const [k, p] of m.namedParameters()) expectClose(p.grad!, c.dparams[k]!, 1e-9, 1e-12);
    expect(m.toString()).toBe(c.repr);
  });
});

describe("recurrent layers' errors are PyTorch's", () => {
  const E = F.errors;
  const r = (...s: number[]) => noGrad(() => f64(0).expand(s).contiguous());
  it.each([
    ['hiddenSize', () => new RNN(3, 4, { numLayers: 2 }).forward(r(5, 2, 3), r(2, 3, 4))],
    ['lstmCellSize', () => new LSTM(3, 4).forward(r(5, 2, 3), [r(1, 2, 4), r(1, 2, 3)])],
    ['inputSize', () => new GRU(3, 4).forward(r(5, 2, 2))],
    ['inputDims', () => new GRU(3, 4).forward(r(3))],
    ['unbatchedHx', () => new RNN(3, 4).forward(r(5, 3), r(1, 1, 4))],
    ['batchedHx', () => new GRU(3, 4).forward(r(5, 2, 3), r(2, 4))],
    ['lstmBatchedHx', () => new LSTM(3, 4).forward(r(5, 2, 3), [r(1, 2, 4), r(2, 4)])],
    ['dropout', () => new LSTM(3, 4, { dropout: 1.5 })],
    ['projSize', () => new LSTM(3, 4, { projSize: 4 })],
    ['cellDims', () => new GRUCell(3, 4).forward(r(1, 2, 3))],
    ['cellInputSize', () => new GRUCell(3, 4).forward(r(2, 2))],
    ['cellHiddenSize', () => new RNNCell(3, 4).forward(r(2, 3), r(2, 5))],
    ['cellBatch', () => new LSTMCell(3, 4).forward(r(2, 3), [r(3, 4), r(3, 4)])],
  ] as [string, () => unknown][])('%s', (name, fn) => {
    expect(fn).toThrow(E[name]!);
  });
});
