// @wiregrad/autograd vs TensorFlow.js: per-node overhead and an MLP training step.
import { randn, tensor, type Tensor } from '@wiregrad/autograd';
import { Linear, ReLU, Sequential, crossEntropy } from '@wiregrad/nn';
import { SGD } from '@wiregrad/nn/optim';
import type { Tensor as TfTensor } from '@tensorflow/tfjs';
import { tfjs } from './peers.js';
import { compare, medianMs, printRows, type Row } from './report.js';

const CHAIN = 1000;

function oursChain(x: Tensor): void {
  let y = x;
  for (let i = 0; i < CHAIN; i++) y = i % 2 === 0 ? y.mul(1.0001) : y.add(0.5);
  y.backward();
}

export async function run(): Promise<Row[]> {
  const rows: Row[] = [];
  const tf = await tfjs('cpu');

  const x = tensor(1.5, { requiresGrad: true });
  const ours = await medianMs('chain ours', () => oursChain(x));
  const tfChain = tf.grad((v: TfTensor) => {
    let y = v;
    for (let i = 0; i < CHAIN; i++) y = i % 2 === 0 ? y.mul(1.0001) : y.add(0.5);
    return y;
  });
  const tx = tf.scalar(1.5);
  const peer = await medianMs('chain tfjs-cpu', () => tf.tidy(() => tfChain(tx).dataSync()));
  rows.push(
    compare(`fwd+bwd per node, ${CHAIN}-op scalar chain`, ['wiregrad', ours / CHAIN], ['tfjs-cpu', peer / CHAIN], 2),
  );

  // MLP 784-256-10, batch 64, one SGD step.
  const model = new Sequential(new Linear(784, 256), new ReLU(), new Linear(256, 10));
  const opt = new SGD(model.parameters(), { lr: 0.01 });
  const xs = randn([64, 784]);
  const ys = tensor(Int32Array.from({ length: 64 }, (_, i) => i % 10));
  const mlpOurs = await medianMs('mlp ours', () => {
    opt.zeroGrad();
    crossEntropy(model.forward(xs), ys).backward();
    opt.step();
  });

  const tfw = await tfjs('wasm');
  const w1 = tfw.variable(tfw.randomNormal([784, 256], 0, 0.05));
  const b1 = tfw.variable(tfw.zeros([256]));
  const w2 = tfw.variable(tfw.randomNormal([256, 10], 0, 0.05));
  const b2 = tfw.variable(tfw.zeros([10]));
  const txs = tfw.randomNormal([64, 784]);
  const tys = tfw.oneHot(
    tfw.tensor1d(
      Array.from({ length: 64 }, (_, i) => i % 10),
      'int32',
    ),
    10,
  );
  const sgd = tfw.train.sgd(0.01);
  const mlpPeer = await medianMs('mlp tfjs-wasm', () => {
    const loss = sgd.minimize(
      () => tfw.losses.softmaxCrossEntropy(tys, txs.matMul(w1).add(b1).relu().matMul(w2).add(b2)),
      true,
    );
    loss?.dataSync();
    loss?.dispose();
  });
  rows.push(compare('MLP 784-256-10 SGD step, batch 64', ['wiregrad cpu', mlpOurs], ['tfjs-wasm', mlpPeer], 1));

  printRows('autograd', rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
