import { describe, expect, it } from 'vitest';
import { type NestedArray, type Tensor, zeros } from '@wiregrad/autograd';
import { expectClose, f64, loadFixture } from '../__tests__/fixture.js';
import { ramp } from '../__tests__/maskFixture.js';
import {
  GRU,
  LSTM,
  type Module,
  PackedSequence,
  RNN,
  packPaddedSequence,
  packSequence,
  padPackedSequence,
  padSequence,
} from '../index.js';

interface PackedCase {
  stateDict: Record<string, NestedArray>;
  lengths: number[];
  inputs: { seqs?: NestedArray[]; x?: NestedArray };
  hx: NestedArray[] | null;
  batchSizes: number[];
  sortedIndices: number[] | null;
  packedInput: NestedArray;
  outputs: NestedArray[];
  unpackedLengths: number[];
  dinputs: { seqs?: NestedArray[]; x?: NestedArray };
  dhx: NestedArray[] | null;
  dparams: Record<string, NestedArray>;
}
const R = loadFixture<{
  packed: Record<string, PackedCase>;
  padding: { seqs: NestedArray[]; padded: NestedArray; timeMajor: NestedArray };
  errors: Record<string, string>;
}>('rnn');

type Packing = Module<[PackedSequence, never?], [PackedSequence, Tensor | Tensor[]]>;
const cases: [string, () => Packing, { enforceSorted: boolean }][] = [
  [
    'lstm2LayerBidirectionalUnsorted',
    () => new LSTM(3, 4, { numLayers: 2, bidirectional: true }),
    { enforceSorted: false },
  ],
  ['gruBidirectionalPaddedBatchFirst', () => new GRU(3, 4, { bidirectional: true }), { enforceSorted: true }],
  ['rnnSortedTies', () => new RNN(2, 3), { enforceSorted: true }],
  ['lstmProjUnsortedPadded', () => new LSTM(3, 4, { projSize: 2, batchFirst: true }), { enforceSorted: false }],
] as unknown as [string, () => Packing, { enforceSorted: boolean }][];

describe('packed sequences through RNN, LSTM and GRU agree with PyTorch 1.13 (fixtures/rnn.json)', () => {
  it.each(cases)('%s: packing, outputs, final states, unpacking and gradients', (name, make, { enforceSorted }) => {
    const c = R.packed[name]!;
    const m = make().to('float64').eval();
    m.loadStateDict(Object.fromEntries(Object.entries(c.stateDict).map(([k, v]) => [k, f64(v)])));
    const seqs = c.inputs.seqs?.map((s) => f64(s, true));
    const x = c.inputs.x ? f64(c.inputs.x, true) : null;
    const packed = seqs
      ? packSequence(seqs, { enforceSorted })
      : packPaddedSequence(x!, c.lengths, { batchFirst: true, enforceSorted });
    expect(packed.batchSizes).toEqual(c.batchSizes);
    expect(packed.sortedIndices?.tolist() ?? null).toEqual(c.sortedIndices);
    expectClose(packed.data, c.packedInput);
    const hx = c.hx?.map((h) => f64(h, true)) ?? null;
    const state = hx === null ? undefined : hx.length === 1 ? hx[0] : hx;
    const [out, h] = (m.forward as (p: PackedSequence, s?: unknown) => [PackedSequence, Tensor | Tensor[]])(
      packed,
      state,
    );
    expect(out).toBeInstanceOf(PackedSequence);
    const [padded, lens] = padPackedSequence(out, { batchFirst: true, totalLength: Math.max(...c.lengths) + 1 });
    expect(lens.tolist()).toEqual(c.unpackedLengths);
    const ys = [out.data, ...(Array.isArray(h) ? h : [h]), padded];
    ys.forEach((y, i) => expectClose(y, c.outputs[i]!));
    ys.map((y) => y.mul(ramp(y)).sum())
      .reduce((a, b) => a.add(b))
      .backward();
    seqs?.forEach((s, i) => expectClose(s.grad!, c.dinputs.seqs![i]!));
    if (x) expectClose(x.grad!, c.dinputs.x!);
    hx?.forEach((t, i) => expectClose(t.grad!, c.dhx![i]!));
    for (const [k, p] of m.namedParameters()) expectClose(p.grad!, c.dparams[k]!);
  });

  it('padSequence pads to the longest, time-major or batchFirst, with paddingValue', () => {
    const seqs = R.padding.seqs.map((s) => f64(s));
    expectClose(padSequence(seqs, { batchFirst: true, paddingValue: -1 }), R.padding.padded);
    expectClose(padSequence(seqs), R.padding.timeMajor);
  });

  it("raises PyTorch's messages", () => {
    const s = (n: number, f?: number) => zeros(f === undefined ? [n] : [n, f], { dtype: 'float64' });
    expect(() => packSequence([s(1), s(2)])).toThrow(R.errors.unsorted!);
    expect(() => padPackedSequence(packSequence([s(3), s(2)]), { totalLength: 2 })).toThrow(R.errors.totalLength!);
    expect(() =>
      new GRU(1, 2).to('float64').forward(packSequence([s(3, 1), s(2, 1)]), zeros([1, 3, 2], { dtype: 'float64' })),
    ).toThrow(R.errors.packedHidden!);
  });
});
