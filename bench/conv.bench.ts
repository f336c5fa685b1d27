// Convolution on the cpu device vs tfjs-wasm (issue: conv/pool kernels): conv2d forward, and a
// LeNet-5 training step (batch 64) in each framework, timed in alternating blocks in the same process (Note [Timed blocks]).
import type { Scalar, Tensor as TfTensor, Tensor4D } from '@tensorflow/tfjs';
import { conv2d, manualSeed, maxPool2d, randn, tensor, tidy, type Tensor } from '@wiregrad/autograd';
import { crossEntropy } from '@wiregrad/nn';
import { SGD } from '@wiregrad/nn/optim';
import { tfjs } from './peers.js';
import { compare, interleavedMedians, printRows, type Row } from './report.js';

type Tf = Awaited<ReturnType<typeof tfjs>>;

const BATCH = 64;
/** LeNet-5 on 28x28 digits: conv 5x5 (6, padding 2), pool 2, conv 5x5 (16), pool 2, 400-120-84-10; ReLU throughout. */
const SHAPES = {
  conv1: [6, 1, 5, 5],
  conv2: [16, 6, 5, 5],
  fc1: [400, 120],
  fc2: [120, 84],
  fc3: [84, 10],
} as const;
const LR = 0.01;

const labels = Array.from({ length: BATCH }, (_, i) => i % 10);

/** Our LeNet-5 step: forward, cross-entropy, backward, SGD. */
function oursLenetStep(): () => void {
  const param = (shape: readonly number[]): Tensor => {
    const t = randn([...shape]).mul(0.1);
    t.requiresGrad = true;
    return t;
  };
  const [w1, w2, w3, w4, w5] = [SHAPES.conv1, SHAPES.conv2, SHAPES.fc1, SHAPES.fc2, SHAPES.fc3].map(param);
  const [b1, b2, b3, b4, b5] = [6, 16, 120, 84, 10].map((n) => param([n]));
  const params = [w1!, b1!, w2!, b2!, w3!, b3!, w4!, b4!, w5!, b5!];
  const opt = new SGD(params, { lr: LR });
  const x = randn([BATCH, 1, 28, 28]);
  const y = tensor(Int32Array.from(labels));
  return () =>
    tidy(() => {
      opt.zeroGrad();
      let h = maxPool2d(conv2d(x, w1!, b1!, { padding: 2 }).relu(), 2);
      h = maxPool2d(conv2d(h, w2!, b2!).relu(), 2).flatten(1);
      h = h.matmul(w3!).add(b3!).relu().matmul(w4!).add(b4!).relu().matmul(w5!).add(b5!);
      crossEntropy(h, y).backward();
      opt.step();
    });
}

/**
 * tfjs-wasm's conv2d as a layer with its gradients: tfjs-backend-wasm 4.22 has no
 * Conv2DBackpropFilter kernel, so `tf.variableGrads` over a plain tf.conv2d throws; the filter's
 * gradient here is itself a tf.conv2d (the input with its batch and channels swapped, convolved
 * with the output gradient as the filter), the input's is tf.conv2dTranspose (Conv2DBackpropInput).
 */
function tfConv(tf: Tf, pad: number) {
  return tf.customGrad((...args: unknown[]) => {
    const [x, w, save] = args as [Tensor4D, Tensor4D, (ts: TfTensor[]) => void];
    save([x, w]);
    return {
      value: tf.conv2d(x, w, 1, pad),
      gradFunc: (dy: TfTensor, saved: TfTensor[]) => {
        const [xs, ws] = saved as [Tensor4D, Tensor4D];
        const g = dy as Tensor4D;
        const dx = tf.conv2dTranspose(g, ws, xs.shape, 1, pad);
        const dw = tf
          .conv2d(xs.transpose<Tensor4D>([3, 1, 2, 0]), g.transpose<Tensor4D>([1, 2, 0, 3]), 1, pad)
          .transpose([1, 2, 0, 3]);
        return [dx, dw];
      },
    };
  });
}

/** tfjs-wasm's LeNet-5 step: the same model (NHWC), loss and SGD through optimizer.minimize. */
function tfLenetStep(tf: Tf): { step: () => void; dispose: () => void } {
  const v = (shape: readonly number[]) => tf.variable(tf.randomNormal([...shape], 0, 0.1));
  const perm = (s: readonly number[]) => [s[2]!, s[3]!, s[1]!, s[0]!];
  const [w1, w2] = [v(perm(SHAPES.conv1)), v(perm(SHAPES.conv2))] as Tensor4D[];
  const [w3, w4, w5] = [v(SHAPES.fc1), v(SHAPES.fc2), v(SHAPES.fc3)];
  const [b1, b2, b3, b4, b5] = [6, 16, 120, 84, 10].map((n) => v([n]));
  const conv1 = tfConv(tf, 2);
  const conv2 = tfConv(tf, 0);
  const x = tf.randomNormal([BATCH, 28, 28, 1]) as Tensor4D;
  const y = tf.oneHot(tf.tensor1d(labels, 'int32'), 10);
  const sgd = tf.train.sgd(LR);
  const loss = () => {
    let h = tf.maxPool(tf.relu((conv1(x, w1!) as Tensor4D).add<Tensor4D>(b1!)), 2, 2, 'valid');
    h = tf.maxPool(tf.relu((conv2(h, w2!) as Tensor4D).add<Tensor4D>(b2!)), 2, 2, 'valid');
    const f = h.reshape([BATCH, 400]).matMul(w3!).add(b3!).relu().matMul(w4!).add(b4!).relu().matMul(w5!).add(b5!);
    return tf.losses.softmaxCrossEntropy(y, f) as Scalar;
  };
  return {
    step: () => {
      const l = sgd.minimize(loss, true);
      l?.dataSync();
      l?.dispose();
    },
    dispose: () => tf.dispose([w1!, w2!, w3!, w4!, w5!, b1!, b2!, b3!, b4!, b5!, x, y]),
  };
}

export async function run(): Promise<Row[]> {
  const tf = await tfjs('wasm');
  const rows: Row[] = [];
  manualSeed(0);

  // conv2d forward 64x3x32x32, 64 3x3 filters, padding 1, the result read back
  const x = randn([64, 3, 32, 32]);
  const w = randn([64, 3, 3, 3]);
  const tx = tf.randomNormal([64, 32, 32, 3]) as Tensor4D;
  const tw = tf.randomNormal([3, 3, 3, 64]) as Tensor4D;
  const conv = interleavedMedians(
    {
      ours: () => conv2d(x, w, null, { padding: 1 }).dispose(),
      peer: () => {
        const y = tf.conv2d(tx, tw, 1, 'same');
        y.dataSync();
        y.dispose();
      },
    },
    25,
  );
  rows.push(compare('conv2d 64x3x32x32, 64 3x3 filters', ['wiregrad cpu', conv.ours!], ['tfjs-wasm', conv.peer!], 1));

  // the same with a bias (tfjs-wasm adds it inside its fused conv)
  const b = randn([64]);
  const tb = tf.randomNormal([64]);
  const biased = interleavedMedians(
    {
      ours: () => conv2d(x, w, b, { padding: 1 }).dispose(),
      peer: () => {
        const y = tf.fused.conv2d({ x: tx, filter: tw, strides: 1, pad: 'same', bias: tb });
        y.dataSync();
        y.dispose();
      },
    },
    25,
  );
  rows.push(
    compare('conv2d with bias, same shapes', ['wiregrad cpu', biased.ours!], ['tfjs-wasm fused', biased.peer!], 1),
  );
  tf.dispose([tx, tw, tb]);

  const peer = tfLenetStep(tf);
  const lenet = interleavedMedians({ ours: oursLenetStep(), peer: peer.step }, 25, 3);
  peer.dispose();
  rows.push(compare('LeNet-5 SGD step, batch 64', ['wiregrad cpu', lenet.ours!], ['tfjs-wasm', lenet.peer!], 1));

  printRows('conv', rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
