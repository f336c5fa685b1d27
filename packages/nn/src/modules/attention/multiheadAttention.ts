import type { Tensor } from '@wiregrad/autograd';
import { NnError } from '../../errors.js';
import { type FactoryOptions, emptyParameter, placeOnDevice } from '../../factory.js';
import { multiHeadAttentionForward } from '../../functional/multiheadAttention.js';
import { constant_, xavierNormal_, xavierUniform_ } from '../../init.js';
import { Module } from '../../module.js';
import type { Parameter } from '../../parameter.js';
import { Linear } from '../linear.js';

/** PyTorch's out_proj class: a Linear under the name PyTorch prints. */
export class NonDynamicallyQuantizableLinear extends Linear {}

export interface MultiheadAttentionOptions extends FactoryOptions {
  dropout?: number;
  bias?: boolean;
  addBiasKv?: boolean;
  addZeroAttn?: boolean;
  kdim?: number | null;
  vdim?: number | null;
  batchFirst?: boolean;
}

export interface MultiheadAttentionForwardOptions {
  keyPaddingMask?: Tensor | null;
  needWeights?: boolean;
  attnMask?: Tensor | null;
  averageAttnWeights?: boolean;
}

/**
 * torch.nn.MultiheadAttention: in_proj_weight [3E, E] and in_proj_bias [3E] (or q_proj_weight,
 * k_proj_weight [E, kdim], v_proj_weight [E, vdim] when kdim or vdim differ from E), out_proj,
 * optional bias_k / bias_v [1, 1, E]; xavier-uniform projections, zero biases, as PyTorch.
 * forward(query, key, value, opts) returns [output, attention weights or null].
 */
export class MultiheadAttention extends Module<
  [Tensor, Tensor, Tensor, MultiheadAttentionForwardOptions?],
  [Tensor, Tensor | null]
> {
  in_proj_weight: Parameter | null = null;
  q_proj_weight: Parameter | null = null;
  k_proj_weight: Parameter | null = null;
  v_proj_weight: Parameter | null = null;
  in_proj_bias: Parameter | null = null;
  bias_k: Parameter | null = null;
  bias_v: Parameter | null = null;
  out_proj: NonDynamicallyQuantizableLinear;
  readonly kdim: number;
  readonly vdim: number;
  readonly dropout: number;
  readonly batchFirst: boolean;
  readonly addZeroAttn: boolean;
  readonly headDim: number;

  constructor(
    readonly embedDim: number,
    readonly numHeads: number,
    opts: MultiheadAttentionOptions = {},
  ) {
    super();
    this.kdim = opts.kdim ?? embedDim;
    this.vdim = opts.vdim ?? embedDim;
    this.dropout = opts.dropout ?? 0;
    this.batchFirst = opts.batchFirst ?? false;
    this.addZeroAttn = opts.addZeroAttn ?? false;
    this.headDim = Math.floor(embedDim / numHeads);
    if (this.headDim * numHeads !== embedDim)
      throw new NnError('INVALID_ARGUMENT', 'embed_dim must be divisible by num_heads');
    const bias = opts.bias ?? true;
    if (this.sameEmbedDim) this.in_proj_weight = emptyParameter([3 * embedDim, embedDim], opts);
    else {
      this.q_proj_weight = emptyParameter([embedDim, embedDim], opts);
      this.k_proj_weight = emptyParameter([embedDim, this.kdim], opts);
      this.v_proj_weight = emptyParameter([embedDim, this.vdim], opts);
    }
    if (bias) this.in_proj_bias = emptyParameter([3 * embedDim], opts);
    if (opts.addBiasKv) {
      this.bias_k = emptyParameter([1, 1, embedDim], opts);
      this.bias_v = emptyParameter([1, 1, embedDim], opts);
    }
    this.out_proj = new NonDynamicallyQuantizableLinear(embedDim, embedDim, { bias, dtype: opts.dtype });
    this.resetParameters();
    placeOnDevice(this, opts);
  }

  /** PyTorch's _qkv_same_embed_dim: one packed in_proj_weight. */
  get sameEmbedDim(): boolean {
    return this.kdim === this.embedDim && this.vdim === this.embedDim;
  }

  resetParameters(): void {
    if (this.in_proj_weight) xavierUniform_(this.in_proj_weight);
    else for (const p of [this.q_proj_weight, this.k_proj_weight, this.v_proj_weight]) xavierUniform_(p!);
    if (this.in_proj_bias) {
      constant_(this.in_proj_bias, 0);
      constant_(this.out_proj.bias!, 0);
    }
    if (this.bias_k) xavierNormal_(this.bias_k);
    if (this.bias_v) xavierNormal_(this.bias_v);
  }

  /**
   * query [L, N, E] ([N, L, E] with batchFirst, [L, E] unbatched), key [S, N, kdim], value [S, N, vdim].
   * Returns [output like query, weights [N, L, S] (averaged over heads) or [N, H, L, S], or null
   * with needWeights: false]. Dropout on the weights in training mode only.
   */
  forward(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    opts: MultiheadAttentionForwardOptions = {},
  ): [Tensor, Tensor | null] {
    const tb = this.batchFirst && query.ndim === 3;
    // transposed once each, keeping self-attention's q === k === v (one packed projection)
    const t = (x: Tensor, ...same: [Tensor, Tensor][]) =>
      tb ? (same.find(([a]) => a === x)?.[1] ?? x.transpose(0, 1)) : x;
    const q = t(query);
    const k = t(key, [query, q]);
    const v = t(value, [query, q], [key, k]);
    const [out, weights] = multiHeadAttentionForward(
      q,
      k,
      v,
      this.numHeads,
      {
        inProjWeight: this.in_proj_weight,
        qProjWeight: this.q_proj_weight,
        kProjWeight: this.k_proj_weight,
        vProjWeight: this.v_proj_weight,
        inProjBias: this.in_proj_bias,
        biasK: this.bias_k,
        biasV: this.bias_v,
        outProjWeight: this.out_proj.weight,
        outProjBias: this.out_proj.bias,
      },
      { ...opts, addZeroAttn: this.addZeroAttn, dropoutP: this.dropout, training: this.training },
    );
    return [tb ? out.transpose(0, 1) : out, weights];
  }
}
