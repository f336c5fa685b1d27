// Sequence models (issue 30, item 4): an LSTM layer's forward + backward and a TransformerEncoderLayer's
// training step against PyTorch at its best of 1 and 2 threads (bench/torchPeer.py, Note [Timed blocks]),
// and the LSTM against tfjs-wasm's (tfjs has no Transformer layer).
import { getNumThreads, randn, tidy, type Tensor } from '@wiregrad/autograd';
import { LSTM, TransformerEncoderLayer } from '@wiregrad/nn';
import { SGD } from '@wiregrad/nn/optim';
import type { Scalar, Tensor as TfTensor } from '@tensorflow/tfjs';
import { loadLine } from './machine.js';
import { tfjs } from './peers.js';
import { printRows, type Row } from './report.js';
import { type Peers, vsTfjs, vsTorch } from './torch.bench.js';
import { TorchPeer } from './torchPeer.js';

/** The shapes of the issue: seq 64, batch 32; the LSTM's input and hidden size 256; the encoder's d_model 128, 4 heads. */
const SEQ = 64;
const BATCH = 32;
const HIDDEN = 256;
const D_MODEL = 128;
const HEADS = 4;
/** Calls per contestant: blockMedians times at least 2 blocks of 20 (Note [Timed blocks]). */
const CALLS = 40;
/** The target: within 3x of PyTorch. */
const WITHIN_3X = 1 / 3;

/** Old gradients released before each step (PyTorch's zero_grad(set_to_none=True)). */
function releaseGrads(params: readonly Tensor[]): void {
  for (const p of params) {
    p.grad?.dispose();
    p.grad = null;
  }
}

/** LSTM(256, 256) on [64, 32, 256]: forward, sum of the output, backward, all inside tidy(). */
export function oursLstm(): () => void {
  const lstm = new LSTM(HIDDEN, HIDDEN);
  const params = [...lstm.parameters()];
  const x = randn([SEQ, BATCH, HIDDEN]);
  return () =>
    tidy(() => {
      releaseGrads(params);
      const [out] = lstm.forward(x);
      out.sum().backward();
    });
}

/** TransformerEncoderLayer(128, 4) with PyTorch's defaults (feed-forward 2048, dropout 0.1), training, one SGD step. */
export function oursEncoderLayer(): () => void {
  const layer = new TransformerEncoderLayer(D_MODEL, HEADS);
  const params = [...layer.parameters()];
  const opt = new SGD(params, { lr: 0.01 });
  const src = randn([SEQ, BATCH, D_MODEL]);
  return () =>
    tidy(() => {
      releaseGrads(params);
      layer.forward(src).sum().backward();
      opt.step();
    });
}

/**
 * tfjs-wasm's LSTM layer (batch first, as Keras has it) with the same shapes and a sigmoid
 * recurrent activation (PyTorch's; tfjs defaults to a hard sigmoid): forward and the gradients
 * of the output's sum with respect to its weights.
 */
async function tfjsLstm(): Promise<{ step: () => void; dispose: () => void }> {
  const tf = await tfjs('wasm');
  const layer = tf.layers.lstm({ units: HIDDEN, returnSequences: true, recurrentActivation: 'sigmoid' });
  const x = tf.randomNormal([BATCH, SEQ, HIDDEN]);
  layer.apply(x); // builds the weights
  return {
    step: () =>
      tf.tidy(() => {
        const { grads } = tf.variableGrads(() => tf.sum(layer.apply(x) as TfTensor) as Scalar);
        for (const g of Object.values(grads)) g.dataSync();
      }),
    dispose: () => {
      x.dispose();
      layer.dispose();
    },
  };
}

export async function run(): Promise<Row[] | void> {
  const one = await TorchPeer.start(1);
  if (!(one instanceof TorchPeer)) {
    console.log(`\n## seq\nskipped: no python here imports torch (${one.skipped})`);
    return;
  }
  const two = await TorchPeer.start(2);
  if (!(two instanceof TorchPeer)) {
    one.close();
    console.log(`\n## seq\nskipped: torch on 2 threads did not start (${two.skipped})`);
    return;
  }
  const peers: Peers = { one, two, label: `torch ${one.version}` };
  const loadBefore = loadLine();
  const rows: Row[] = [];
  try {
    const lstm = oursLstm();
    const lstmCase = `LSTM(${HIDDEN}, ${HIDDEN}) fwd+bwd, seq ${SEQ}, batch ${BATCH}`;
    rows.push((await vsTorch(peers, lstmCase, 'lstm', lstm, CALLS, WITHIN_3X)).row);
    rows.push(
      (
        await vsTorch(
          peers,
          `TransformerEncoderLayer(${D_MODEL}, ${HEADS}) step, seq ${SEQ}, batch ${BATCH}`,
          'encoderLayer',
          oursEncoderLayer(),
          CALLS,
          WITHIN_3X,
        )
      ).row,
    );
    const peer = await tfjsLstm();
    try {
      rows.push(await vsTfjs(lstmCase, lstm, peer.step, CALLS));
    } finally {
      peer.dispose();
    }
  } finally {
    one.close();
    two.close();
  }
  printRows(
    `seq (${one.python}, torch ${one.version}; ours on ${getNumThreads()} threads; ${loadBefore} before, ${loadLine()} after)`,
    rows,
  );
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
