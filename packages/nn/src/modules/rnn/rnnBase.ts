import { type Tensor, cat, dropout, stack, zeros } from '@wiregrad/autograd';
import { NnError, pyFloat } from '../../errors.js';
import { type FactoryOptions, emptyParameter, placeOnDevice } from '../../factory.js';
import type { CellWeights } from '../../functional/rnn.js';
import { linear } from '../../functional/linear.js';
import { uniform_ } from '../../init.js';
import { Module } from '../../module.js';
import { PackedSequence } from '../../utils/rnn.js';
import type { Parameter } from '../../parameter.js';

export type RnnMode = 'RNN_TANH' | 'RNN_RELU' | 'LSTM' | 'GRU';

/** The options RNN, LSTM and GRU share (PyTorch's keyword arguments, camelCase). */
export interface RnnOptions extends FactoryOptions {
  numLayers?: number;
  bias?: boolean;
  batchFirst?: boolean;
  /** dropout on the outputs of every layer but the last, in training mode */
  dropout?: number;
  bidirectional?: boolean;
}

/** One time step of a layer-direction: the input's gate pre-activations gi [N, G] and the state in, the state out. */
export type RnnStep = (gi: Tensor, state: Tensor[], w: CellWeights) => Tensor[];

const GATES: Record<RnnMode, number> = { RNN_TANH: 1, RNN_RELU: 1, LSTM: 4, GRU: 3 };

/** Python's repr of a shape tuple, as PyTorch's RNN messages print the expected hidden size: `(2, 3, 20)`. */
const pyTuple = (s: readonly number[]): string => `(${s.join(', ')}${s.length === 1 ? ',' : ''})`;

/**
 * torch.nn.RNNBase: the parameters of every layer and direction under PyTorch's names
 * (`weight_ih_l0`, `weight_hh_l0_reverse`, `bias_ih_l1`, `weight_hr_l0`), in PyTorch's order, so
 * state dicts load both ways; all drawn from U(±1/√hiddenSize).
 *
 * Note [Input gates of a whole sequence]
 * The input's contribution to the gates, x W_ihᵀ + b_ih, does not depend on the hidden state, so
 * each layer-direction computes it for all time steps in one [L·N, in] × [in, G] product before
 * its time loop (as cuDNN and oneDNN do); the loop is left with h W_hhᵀ + b_hh and the gate math.
 * The sums are the same as PyTorch's per-step cell, up to rounding order.
 */
export abstract class RNNBase<State> extends Module<
  [Tensor | PackedSequence, State?],
  [Tensor | PackedSequence, State]
> {
  readonly inputSize: number;
  readonly hiddenSize: number;
  readonly numLayers: number;
  readonly bias: boolean;
  readonly batchFirst: boolean;
  readonly dropout: number;
  readonly bidirectional: boolean;
  readonly projSize: number;
  /** Parameter names per layer-direction (layer 0 forward, layer 0 reverse, layer 1 forward, ...). */
  protected readonly allWeightNames: string[][] = [];

  constructor(
    readonly mode: RnnMode,
    inputSize: number,
    hiddenSize: number,
    opts: RnnOptions & { projSize?: number } = {},
  ) {
    super();
    this.inputSize = inputSize;
    this.hiddenSize = hiddenSize;
    this.numLayers = opts.numLayers ?? 1;
    this.bias = opts.bias ?? true;
    this.batchFirst = opts.batchFirst ?? false;
    this.dropout = opts.dropout ?? 0;
    this.bidirectional = opts.bidirectional ?? false;
    this.projSize = opts.projSize ?? 0;
    if (!(typeof this.dropout === 'number' && this.dropout >= 0 && this.dropout <= 1))
      throw new NnError(
        'INVALID_ARGUMENT',
        'dropout should be a number in range [0, 1] representing the probability of an element being zeroed',
      );
    if (!(hiddenSize > 0)) throw new NnError('INVALID_ARGUMENT', 'hidden_size must be greater than zero');
    if (!(this.numLayers > 0)) throw new NnError('INVALID_ARGUMENT', 'num_layers must be greater than zero');
    if (this.projSize < 0)
      throw new NnError('INVALID_ARGUMENT', 'proj_size should be a positive integer or zero to disable projections');
    if (this.projSize >= hiddenSize)
      throw new NnError('INVALID_ARGUMENT', 'proj_size has to be smaller than hidden_size');
    const gateSize = GATES[mode] * hiddenSize;
    const dirs = this.bidirectional ? 2 : 1;
    const realHidden = this.projSize > 0 ? this.projSize : hiddenSize;
    const self = this as unknown as Record<string, Parameter>;
    for (let layer = 0; layer < this.numLayers; layer++) {
      for (let dir = 0; dir < dirs; dir++) {
        const layerInput = layer === 0 ? inputSize : realHidden * dirs;
        const sfx = `_l${layer}${dir === 1 ? '_reverse' : ''}`;
        const shapes: [string, number[]][] = [
          [`weight_ih${sfx}`, [gateSize, layerInput]],
          [`weight_hh${sfx}`, [gateSize, realHidden]],
        ];
        if (this.bias) shapes.push([`bias_ih${sfx}`, [gateSize]], [`bias_hh${sfx}`, [gateSize]]);
        if (this.projSize > 0) shapes.push([`weight_hr${sfx}`, [this.projSize, hiddenSize]]);
        for (const [name, shape] of shapes) self[name] = emptyParameter(shape, opts);
        this.allWeightNames.push(shapes.map(([name]) => name));
      }
    }
    this.resetParameters();
    placeOnDevice(this, opts);
  }

  /** Every weight and bias from U(-1/√hiddenSize, 1/√hiddenSize), in parameter order, as PyTorch. */
  resetParameters(): void {
    const stdv = 1 / Math.sqrt(this.hiddenSize);
    for (const p of this.parameters()) uniform_(p, -stdv, stdv);
  }

  /** The weights of layer-direction `i` (looked up by name: `to()` replaces the parameters). */
  protected weightsOf(i: number): CellWeights {
    const self = this as unknown as Record<string, Tensor>;
    const [wIh, wHh, ...rest] = this.allWeightNames[i]!.map((n) => self[n]!);
    return {
      wIh: wIh!,
      wHh: wHh!,
      bIh: this.bias ? rest[0]! : null,
      bHh: this.bias ? rest[1]! : null,
      wHr: this.projSize > 0 ? rest.at(-1)! : null,
    };
  }

  protected get numDirections(): number {
    return this.bidirectional ? 2 : 1;
  }

  /** Checks a batched input [L, N, in] (time-major here), or packed data [Σ L, in], as PyTorch's check_input. */
  protected checkInput(input: Tensor, dims = 3): void {
    if (input.ndim !== dims)
      throw new NnError('INVALID_SHAPE', `input must have ${dims} dimensions, got ${input.ndim}`);
    if (input.shape.at(-1) !== this.inputSize)
      throw new NnError(
        'INVALID_SHAPE',
        `input.size(-1) must be equal to input_size. Expected ${this.inputSize}, got ${input.shape.at(-1)}`,
      );
  }

  /** PyTorch's check_hidden_size: `Expected hidden size (2, 3, 20), got [2, 3, 10]`. */
  protected checkHiddenSize(hx: Tensor, expected: number[], what = 'hidden'): void {
    if (hx.ndim !== expected.length || hx.shape.some((d, i) => d !== expected[i]))
      throw new NnError('INVALID_SHAPE', `Expected ${what} size ${pyTuple(expected)}, got [${hx.shape.join(', ')}]`);
  }

  /** Zeros [numLayers · directions, N, size] in the input's dtype and device: the default initial state. */
  protected zeroState(input: Tensor, batch: number, size: number): Tensor {
    return zeros([this.numLayers * this.numDirections, batch, size], { dtype: input.dtype, device: input.device });
  }

  /**
   * Runs every layer and direction over a time-major input [L, N, in] from the initial states
   * (each [layers · directions, N, ·]); returns the last layer's outputs [L, N, directions · H] and
   * the final states stacked like the initial ones. See Note [Input gates of a whole sequence].
   */
  protected runLayers(input: Tensor, init: Tensor[], step: RnnStep): [Tensor, Tensor[]] {
    const dirs = this.numDirections;
    const finals: Tensor[][] = init.map(() => []);
    let x = input;
    const [steps, batch] = [input.shape[0]!, input.shape[1]!];
    for (let layer = 0; layer < this.numLayers; layer++) {
      const outs: Tensor[] = [];
      for (let dir = 0; dir < dirs; dir++) {
        const idx = layer * dirs + dir;
        const w = this.weightsOf(idx);
        const gi = linear(x.reshape([steps * batch, x.shape[2]!]), w.wIh, w.bIh).reshape([steps, batch, -1]);
        let state = init.map((s) => s.select(0, idx));
        const hs: Tensor[] = new Array<Tensor>(steps);
        // one UnbindBackward gathers the steps' gradients; a select per step made each of them a
        // zero-filled [L, N, gates] tensor to sum in backward (8 MiB per step of the bench's LSTM)
        const gis = steps > 0 ? gi.unbind(0) : [];
        for (let k = 0; k < steps; k++) {
          const t = dir === 0 ? k : steps - 1 - k;
          state = step(gis[t]!, state, w);
          hs[t] = state[0]!;
        }
        outs.push(
          steps > 0 ? stack(hs, 0) : zeros([0, batch, state[0]!.shape[1]!], { dtype: x.dtype, device: x.device }),
        );
        state.forEach((s, j) => finals[j]!.push(s));
      }
      x = dirs === 1 ? outs[0]! : cat(outs, 2);
      if (this.dropout > 0 && this.training && layer < this.numLayers - 1) x = dropout(x, this.dropout, true);
    }
    return [x, finals.map((f) => stack(f, 0))];
  }

  /**
   * runLayers over a PackedSequence's data [Σ L, in]: at step t only the first batchSizes[t]
   * sequences (the longest) advance. Forward, a sequence's final state is taken when it drops out
   * of the batch; in reverse, each sequence joins from its initial state at its own last step.
   */
  protected runPackedLayers(
    data: Tensor,
    batchSizes: readonly number[],
    init: Tensor[],
    step: RnnStep,
  ): [Tensor, Tensor[]] {
    const dirs = this.numDirections;
    const finals: Tensor[][] = init.map(() => []);
    const offsets = batchSizes.map((_, t) => batchSizes.slice(0, t).reduce((a, b) => a + b, 0));
    const T = batchSizes.length;
    let x = data;
    for (let layer = 0; layer < this.numLayers; layer++) {
      const outs: Tensor[] = [];
      for (let dir = 0; dir < dirs; dir++) {
        const idx = layer * dirs + dir;
        const w = this.weightsOf(idx);
        const gi = linear(x, w.wIh, w.bIh);
        const h0 = init.map((s) => s.select(0, idx));
        const hs: Tensor[] = new Array<Tensor>(T);
        let state: Tensor[];
        if (dir === 0) {
          state = h0;
          const done: Tensor[][] = [];
          for (let t = 0; t < T; t++) {
            const bs = batchSizes[t]!;
            if (bs < state[0]!.shape[0]!) {
              done.push(state.map((s) => s.narrow(0, bs, s.shape[0]! - bs)));
              state = state.map((s) => s.narrow(0, 0, bs));
            }
            state = step(gi.narrow(0, offsets[t]!, bs), state, w);
            hs[t] = state[0]!;
          }
          const last = state;
          state = last.map((s, j) => (done.length ? cat([s, ...done.map((d) => d[j]!).reverse()], 0) : s));
        } else {
          state = h0.map((s) => s.narrow(0, 0, batchSizes[T - 1]!));
          for (let t = T - 1; t >= 0; t--) {
            const [bs, have] = [batchSizes[t]!, state[0]!.shape[0]!];
            if (bs > have) state = state.map((s, j) => cat([s, h0[j]!.narrow(0, have, bs - have)], 0));
            state = step(gi.narrow(0, offsets[t]!, bs), state, w);
            hs[t] = state[0]!;
          }
        }
        outs.push(cat(hs, 0));
        state.forEach((s, j) => finals[j]!.push(s));
      }
      x = dirs === 1 ? outs[0]! : cat(outs, 1);
      if (this.dropout > 0 && this.training && layer < this.numLayers - 1) x = dropout(x, this.dropout, true);
    }
    return [x, finals.map((f) => stack(f, 0))];
  }

  /**
   * The batched/unbatched and batchFirst plumbing around runLayers: a 2-D input is one unbatched
   * sequence (its states 2-D too), a batchFirst input is [N, L, in]; outputs come back the same way.
   */
  protected runSequence<I extends Tensor | PackedSequence>(
    input: I,
    hx: Tensor[] | null,
    stateSizes: number[],
    step: RnnStep,
    checkState: (hx: Tensor[], expected: number[][]) => void,
  ): [I, Tensor[]] {
    if (input instanceof PackedSequence) {
      // states follow the packed (sorted) order inside, the caller's order outside (PyTorch's permute_hidden)
      const { data, batchSizes, sortedIndices, unsortedIndices } = input;
      this.checkInput(data, 2);
      const batch = batchSizes[0]!;
      const h = hx
        ? hx.map((s) => (sortedIndices ? s.indexSelect(1, sortedIndices) : s))
        : stateSizes.map((size) => this.zeroState(data, batch, size));
      checkState(
        h,
        stateSizes.map((size) => [this.numLayers * this.numDirections, batch, size]),
      );
      const [out, finals] = this.runPackedLayers(data, batchSizes, h, step);
      return [input.withData(out) as I, finals.map((s) => (unsortedIndices ? s.indexSelect(1, unsortedIndices) : s))];
    }
    const seq = input as Tensor;
    const batched = seq.ndim === 3;
    let x = batched ? seq : seq.unsqueeze(this.batchFirst ? 0 : 1);
    let h = hx && !batched ? hx.map((s) => s.unsqueeze(1)) : hx;
    if (this.batchFirst) x = x.transpose(0, 1);
    this.checkInput(x);
    const batch = x.shape[1]!;
    h ??= stateSizes.map((size) => this.zeroState(x, batch, size));
    checkState(
      h,
      stateSizes.map((size) => [this.numLayers * this.numDirections, batch, size]),
    );
    let [out, finals] = this.runLayers(x, h, step);
    if (this.batchFirst) out = out.transpose(0, 1);
    if (!batched) {
      out = out.squeeze(this.batchFirst ? 0 : 1);
      finals = finals.map((s) => s.squeeze(1));
    }
    return [out as I, finals];
  }

  override extraRepr(): string {
    let s = `${this.inputSize}, ${this.hiddenSize}`;
    if (this.projSize !== 0) s += `, proj_size=${this.projSize}`;
    if (this.numLayers !== 1) s += `, num_layers=${this.numLayers}`;
    if (!this.bias) s += ', bias=False';
    if (this.batchFirst) s += ', batch_first=True';
    if (this.dropout !== 0) s += `, dropout=${pyFloat(this.dropout)}`;
    if (this.bidirectional) s += ', bidirectional=True';
    return s;
  }
}
