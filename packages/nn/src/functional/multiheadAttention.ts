// torch.nn.functional.multi_head_attention_forward (PyTorch 1.13), time-major.
import { type Tensor, cat, dropout, matmul, softmax, zeros } from '@wiregrad/autograd';
import { NnError, shapeText } from '../errors.js';
import { linear } from './linear.js';

/** The projections of a MultiheadAttention: one packed in_proj_weight [3E, E], or q/k/v_proj_weight for kdim/vdim. */
export interface MultiheadAttentionWeights {
  inProjWeight: Tensor | null;
  qProjWeight?: Tensor | null;
  kProjWeight?: Tensor | null;
  vProjWeight?: Tensor | null;
  inProjBias: Tensor | null;
  biasK?: Tensor | null;
  biasV?: Tensor | null;
  outProjWeight: Tensor;
  outProjBias: Tensor | null;
}

export interface MultiheadAttentionOptions {
  /** [N, S] (or [S] unbatched): true (or -Infinity, for a float mask) ignores that key */
  keyPaddingMask?: Tensor | null;
  /** [L, S] or [N·H, L, S]: bool true shuts a pair out; a float mask is added to the scores */
  attnMask?: Tensor | null;
  needWeights?: boolean;
  averageAttnWeights?: boolean;
  addZeroAttn?: boolean;
  dropoutP?: number;
  training?: boolean;
}

const fail = (msg: string): never => {
  throw new NnError('INVALID_SHAPE', msg);
};

/** A bool mask as floats (true → -Infinity, false → 0), a float mask as it is. */
const asAdditive = (m: Tensor, dtype: Tensor['dtype']): Tensor =>
  m.dtype === 'bool' ? zeros([...m.shape], { dtype, device: m.device }).maskedFill(m, -Infinity) : m;

/** One more key column in a float mask, letting that key in (PyTorch's pad(mask, (0, 1))). */
const padKey = (m: Tensor): Tensor =>
  cat([m, zeros([...m.shape.slice(0, -1), 1], { dtype: m.dtype, device: m.device })], -1);

function checkShapes(q: Tensor, k: Tensor, v: Tensor, kpm: Tensor | null, mask: Tensor | null, heads: number): boolean {
  const b = q.ndim === 3;
  if (q.ndim !== 2 && !b)
    fail(`query should be unbatched 2D or batched 3D tensor but received ${q.ndim}-D query tensor`);
  const [kind, d] = b ? ['batched (3-D)', 3] : ['unbatched (2-D)', 2];
  if (k.ndim !== d || v.ndim !== d)
    fail(
      `For ${kind} \`query\`, expected \`key\` and \`value\` to be ${d}-D but found ${k.ndim}-D and ${v.ndim}-D tensors respectively`,
    );
  if (kpm && kpm.ndim !== d - 1)
    fail(
      `For ${kind} \`query\`, expected \`key_padding_mask\` to be \`None\` or ${d - 1}-D but found ${kpm.ndim}-D tensor instead`,
    );
  if (mask && mask.ndim !== 2 && mask.ndim !== 3)
    fail(
      `For ${kind} \`query\`, expected \`attn_mask\` to be \`None\`, 2-D or 3-D but found ${mask.ndim}-D tensor instead`,
    );
  if (
    !b &&
    mask?.ndim === 3 &&
    (mask.shape[0] !== heads || mask.shape[1] !== q.shape[0] || mask.shape[2] !== k.shape[0])
  )
    fail(
      `Expected \`attn_mask\` shape to be (${heads}, ${q.shape[0]}, ${k.shape[0]}) but got ${shapeText(mask.shape)}`,
    );
  return b;
}

/**
 * Multi-head attention over time-major query [L, N, E], key [S, N, Ek], value [S, N, Ev] (or
 * unbatched [L, E], ...): project, split E into numHeads heads of E/numHeads, softmax(q kᵀ/√hd + masks) v
 * per head, join the heads and project out. Returns [output [L, N, E], weights [N, L, S] averaged over
 * heads (or [N, H, L, S]) when needWeights, else null].
 */
export function multiHeadAttentionForward(
  query: Tensor,
  key: Tensor,
  value: Tensor,
  numHeads: number,
  w: MultiheadAttentionWeights,
  opts: MultiheadAttentionOptions = {},
): [Tensor, Tensor | null] {
  const { needWeights = true, averageAttnWeights = true, addZeroAttn = false, training = true } = opts;
  let kpm = opts.keyPaddingMask ?? null;
  let mask = opts.attnMask ?? null;
  const batched = checkShapes(query, key, value, kpm, mask, numHeads);
  let [q, k, v] = batched ? [query, key, value] : [query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)];
  if (kpm && !batched) kpm = kpm.unsqueeze(0);
  const [L, N, E] = q.shape as [number, number, number];
  const hd = Math.floor(E / numHeads);
  if (hd * numHeads !== E) fail(`embed_dim ${E} not divisible by num_heads ${numHeads}`);
  if (w.inProjWeight) {
    if (k.shape.some((s, i) => s !== v.shape[i]))
      fail(`key shape ${shapeText(k.shape)} does not match value shape ${shapeText(v.shape)}`);
    const [bq, bk, bv] = w.inProjBias ? w.inProjBias.chunk(3) : [null, null, null];
    if (q === k && k === v)
      [q, k, v] = linear(q, w.inProjWeight, w.inProjBias).chunk(3, -1) as [Tensor, Tensor, Tensor];
    else {
      const [wq, wk, wv] = w.inProjWeight.chunk(3) as [Tensor, Tensor, Tensor];
      [q, k, v] = [linear(q, wq, bq), linear(k, wk, bk ?? null), linear(v, wv, bv ?? null)];
    }
  } else {
    if (k.shape[0] !== v.shape[0] || k.shape[1] !== v.shape[1])
      fail(
        `key's sequence and batch dims ${shapeText(k.shape.slice(0, 2))} do not match value's ${shapeText(v.shape.slice(0, 2))}`,
      );
    const [bq, bk, bv] = w.inProjBias ? w.inProjBias.chunk(3) : [null, null, null];
    [q, k, v] = [
      linear(q, w.qProjWeight!, bq ?? null),
      linear(k, w.kProjWeight!, bk ?? null),
      linear(v, w.vProjWeight!, bv ?? null),
    ];
  }
  if (mask) {
    if (mask.dtype !== 'bool' && mask.dtype !== 'float32' && mask.dtype !== 'float64')
      fail(`Only float, byte, and bool types are supported for attn_mask, not torch.${mask.dtype}`);
    const want = mask.ndim === 2 ? [L, k.shape[0]!] : [N * numHeads, L, k.shape[0]!];
    if (mask.shape.some((s, i) => s !== want[i]))
      fail(`The shape of the ${mask.ndim}D attn_mask is ${shapeText(mask.shape)}, but should be (${want.join(', ')}).`);
    mask = asAdditive(mask, q.dtype);
    mask = mask.ndim === 2 ? mask : mask.reshape([N, numHeads, L, k.shape[0]!]);
  }
  if (kpm) kpm = asAdditive(kpm, q.dtype);
  if (w.biasK && w.biasV) {
    k = cat([k, w.biasK.expand([1, N, E])], 0);
    v = cat([v, w.biasV.expand([1, N, E])], 0);
    if (mask) mask = padKey(mask);
    if (kpm) kpm = padKey(kpm);
  }
  // [len, N, E] → [N, H, len, hd]
  const heads = (t: Tensor) => t.reshape([t.shape[0]!, N, numHeads, hd]).permute([1, 2, 0, 3]);
  const qh = heads(q);
  let [kh, vh] = [heads(k), heads(v)];
  if (addZeroAttn) {
    const z = zeros([N, numHeads, 1, hd], { dtype: kh.dtype, device: kh.device });
    [kh, vh] = [cat([kh, z], 2), cat([vh, z], 2)];
    if (mask) mask = padKey(mask);
    if (kpm) kpm = padKey(kpm);
  }
  const S = kh.shape[2]!;
  if (kpm) {
    if (kpm.shape[0] !== N || kpm.shape[1] !== S)
      fail(`expecting key_padding_mask shape of (${N}, ${S}), but got ${shapeText(kpm.shape)}`);
    kpm = kpm.reshape([N, 1, 1, S]);
    mask = mask ? mask.add(kpm) : kpm;
  }
  let scores = matmul(qh.div(Math.sqrt(hd)), kh.transpose(-2, -1));
  if (mask) scores = scores.add(mask);
  let weights = softmax(scores, -1);
  const p = training ? (opts.dropoutP ?? 0) : 0;
  if (p > 0) weights = dropout(weights, p, true);
  const joined = matmul(weights, vh).permute([2, 0, 1, 3]).reshape([L, N, E]);
  let out = linear(joined, w.outProjWeight, w.outProjBias);
  if (!batched) out = out.squeeze(1);
  if (!needWeights) return [out, null];
  let aw = averageAttnWeights ? weights.sum(1).div(numHeads) : weights;
  if (!batched) aw = aw.squeeze(0);
  return [out, aw];
}
