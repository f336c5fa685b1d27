import { manualSeed, softmax, tensor, type Tensor } from '@wiregrad/autograd';
import { Embedding, LayerNorm, Linear, Module, ModuleList, Transformer, TransformerEncoderLayer } from '@wiregrad/nn';
import { mulberry32 } from '../data/seededRandom.js';

/** The demo's model size (the PyTorch reference: d_model 64, 4 heads, 2 layers). */
export const NAMES_MODEL = { dModel: 64, nhead: 4, layers: 2, dimFeedforward: 256 } as const;

/**
 * A makemore-style character Transformer: token and position embeddings, pre-norm causal encoder
 * layers (ReLU, PyTorch's default), a final LayerNorm and a linear head. Split for the pipeline at `stage`: stage 0 is
 * the embeddings and the first half of the layers, stage 1 the rest, the norm and the head.
 */
export class NamesTransformer extends Module {
  tok: Embedding;
  pos: Embedding;
  layers: ModuleList<TransformerEncoderLayer>;
  ln: LayerNorm;
  head: Linear;

  constructor(
    readonly vocab: number,
    readonly blockSize: number,
    seed: number,
  ) {
    super();
    manualSeed(seed);
    const { dModel, nhead, layers, dimFeedforward } = NAMES_MODEL;
    this.tok = new Embedding(vocab, dModel);
    this.pos = new Embedding(blockSize, dModel);
    this.layers = new ModuleList(
      Array.from(
        { length: layers },
        () =>
          new TransformerEncoderLayer(dModel, nhead, {
            dimFeedforward,
            dropout: 0,
            activation: 'relu',
            batchFirst: true,
            normFirst: true,
          }),
      ),
    );
    this.ln = new LayerNorm(dModel);
    this.head = new Linear(dModel, vocab);
  }

  /** The layers of stage 0 or 1 (their parameters are what that pipeline worker owns). */
  stageModules(stage: 0 | 1): Module<never[], unknown>[] {
    const half = Math.ceil(this.layers.length / 2);
    const blocks = Array.from({ length: this.layers.length }, (_, i) => this.layers.at(i)!);
    return stage === 0 ? [this.tok, this.pos, ...blocks.slice(0, half)] : [...blocks.slice(half), this.ln, this.head];
  }

  /** Stage 0: int32 tokens [B, T] → hidden [B, T, d]; stage 1: hidden → logits [B, T, vocab]. */
  stageForward(stage: 0 | 1, input: Tensor): Tensor {
    const T = input.shape[1]!;
    const mask = Transformer.generateSquareSubsequentMask(T);
    const half = Math.ceil(this.layers.length / 2);
    let h = stage === 0 ? this.tok.forward(input).add(this.pos.weight.narrow(0, 0, T)) : input;
    for (let i = stage === 0 ? 0 : half; i < (stage === 0 ? half : this.layers.length); i++)
      h = this.layers.at(i)!.forward(h, { srcMask: mask });
    return stage === 0 ? h : this.head.forward(this.ln.forward(h));
  }

  forward(x: Tensor): Tensor {
    return this.stageForward(1, this.stageForward(0, x));
  }
}

/**
 * `n` names drawn one character at a time from `logitsOf` (tokens [B, T] → logits [B, T, vocab], no graph),
 * each from the softmax of its last position with a seeded generator, until the end marker or the
 * block size.
 */
export async function sampleNames(
  logitsOf: (x: Tensor) => Tensor | Promise<Tensor>,
  itos: readonly string[],
  blockSize: number,
  n: number,
  seed: number,
): Promise<string[]> {
  const rand = mulberry32(seed);
  const seqs: number[][] = Array.from({ length: n }, () => [0]);
  const done = new Array<boolean>(n).fill(false);
  for (let t = 0; t < blockSize - 1 && done.includes(false); t++) {
    const logits = await logitsOf(tensor(seqs, { dtype: 'int32' }));
    const last = logits.select(1, logits.shape[1]! - 1);
    const probs = softmax(last, -1).tolist() as number[][];
    probs.forEach((p, i) => {
      if (done[i]) {
        seqs[i]!.push(0);
        return;
      }
      let u = rand();
      let k = 0;
      while (k < p.length - 1 && u >= p[k]!) u -= p[k++]!;
      seqs[i]!.push(k);
      if (k === 0) done[i] = true;
    });
  }
  return seqs.map((s) => {
    const body = s.slice(1);
    const end = body.indexOf(0);
    return (end < 0 ? body : body.slice(0, end)).map((k) => itos[k]!).join('');
  });
}
