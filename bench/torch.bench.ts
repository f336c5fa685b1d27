// wiregrad's cpu device vs PyTorch on this machine (issue: the cpu device at the machine's limit).
// PyTorch runs in a child process (bench/torchPeer.py), timed one call at a time in turns with ours.
import { cpuKernelInfo, getNumThreads, randn, setNumThreads, tensor, tidy, type Tensor } from '@wiregrad/autograd';
import { Linear, ReLU, Sequential, crossEntropy } from '@wiregrad/nn';
import { SGD } from '@wiregrad/nn/optim';
import { tfjs } from './peers.js';
import { compare, interleavedMediansAsync, printRows, type Row } from './report.js';
import { TorchPeer } from './torchPeer.js';

const N_ELEM = 1 << 20;
const CHAIN = 1000;

function oursChain(x: Tensor): void {
  let y = x;
  for (let i = 0; i < CHAIN; i++) y = i % 2 === 0 ? y.mul(1.0001) : y.add(0.5);
  y.backward();
}

/**
 * The MLP step as a wiregrad user writes it to reuse memory (PyTorch frees the same tensors
 * by reference counting): inside tidy(), with the old gradients released (set to none).
 */
export function oursMlp(): () => void {
  const model = new Sequential(new Linear(784, 256), new ReLU(), new Linear(256, 10));
  const params = [...model.parameters()];
  const opt = new SGD(params, { lr: 0.01 });
  const xs = randn([64, 784]);
  const ys = tensor(Int32Array.from({ length: 64 }, (_, i) => i % 10));
  return () =>
    tidy(() => {
      for (const p of params) {
        p.grad?.dispose();
        p.grad = null;
      }
      crossEntropy(model.forward(xs), ys).backward();
      opt.step();
    });
}

const gflops = (n: number, ms: number) => (2 * n ** 3) / ms / 1e6;

/**
 * Note [Idle turns]
 * The PyTorch peer starts each timed call after waiting on its pipe; ours used to start right
 * after the previous case in this process (tfjs-wasm's exp: 20-40 ms of CPU). On a loaded
 * machine Linux's scheduler then favours the processes that slept over the one that just ran,
 * so our next call lost its core mid-way: add 1M read 4.4 ms after tfjs' exp and 1.9 ms after
 * a sleep (torch: 1.0 ms either way). Every timed case here starts after a 2 ms sleep (an
 * untimed turn of its own), so each starts as the peer's does.
 */
function withIdleTurns(fns: Record<string, () => unknown>): Record<string, () => unknown> {
  const idle = () => new Promise<void>((resolve) => setTimeout(resolve, 2));
  return Object.fromEntries(
    Object.entries(fns).flatMap(([name, fn], i) => [
      [`idle${i}`, idle],
      [name, fn],
    ]),
  );
}

export async function run(): Promise<Row[] | void> {
  const peer = await TorchPeer.start();
  if (!(peer instanceof TorchPeer)) {
    console.log(`\n## pytorch\nskipped: no python here imports torch (${peer.skipped})`);
    return;
  }
  const threads = getNumThreads();
  const rows: Row[] = [];
  const tfw = await tfjs('wasm');
  try {
    for (const n of [512, 1024] as const) {
      const a = randn([n, n]);
      const b = randn([n, n]);
      const ta = tfw.randomNormal([n, n]);
      const tb = tfw.randomNormal([n, n]);
      // ours release their results, as tfjs-wasm's do and PyTorch's (by reference counting)
      const ours = (t: number) => () => {
        setNumThreads(t);
        a.matmul(b).dispose();
      };
      const m = await interleavedMediansAsync(
        withIdleTurns({
          one: ours(1),
          torchOne: () => peer.time(`matmul${n}`, 1),
          pool: ours(threads),
          torchPool: () => peer.time(`matmul${n}`, threads),
          tfPool: () => {
            const c = tfw.matMul(ta, tb);
            c.dataSync();
            c.dispose();
          },
        }),
        n === 1024 ? 9 : 25,
      );
      setNumThreads(threads);
      for (const [label, t, mine, theirs] of [
        ['1 thread', 1, m.one!, m.torchOne!],
        [`${threads} threads`, threads, m.pool!, m.torchPool!],
      ] as const) {
        const row = compare(
          `matmul ${n} f32, ${label}`,
          ['wiregrad', mine],
          [`torch ${peer.version}`, theirs],
          t === 1 ? 0 : 0.5,
        );
        row.ours += ` (${gflops(n, mine).toFixed(0)} GFLOP/s)`;
        row.peer += ` (${gflops(n, theirs).toFixed(0)} GFLOP/s)`;
        rows.push(row);
      }
      const vsTf = compare(`matmul ${n} f32, ${threads} threads`, ['wiregrad', m.pool!], ['tfjs-wasm', m.tfPool!], 0);
      vsTf.ours += ` (${gflops(n, m.pool!).toFixed(0)} GFLOP/s)`;
      vsTf.peer += ` (${gflops(n, m.tfPool!).toFixed(0)} GFLOP/s)`;
      rows.push(vsTf);
      ta.dispose();
      tb.dispose();
    }

    const x = randn([N_ELEM]);
    const y = randn([N_ELEM]);
    const tx = tfw.randomNormal([N_ELEM]);
    const ty = tfw.randomNormal([N_ELEM]);
    const tfAdd = (): void => {
      const c = tfw.add(tx, ty);
      c.dataSync();
      c.dispose();
    };
    const m = await interleavedMediansAsync(
      withIdleTurns({
        add: () => x.add(y).dispose(),
        torchAdd: () => peer.time('add', threads),
        tfAdd,
        exp: () => x.exp().dispose(),
        torchExp: () => peer.time('exp', threads),
        tfExp: () => {
          const c = tfw.exp(tx);
          c.dataSync();
          c.dispose();
        },
      }),
      41,
      5,
    );
    rows.push(compare('add 1M f32', ['wiregrad', m.add!], [`torch ${peer.version}`, m.torchAdd!], 0.5));
    rows.push(compare('add 1M f32', ['wiregrad', m.add!], ['tfjs-wasm', m.tfAdd!], 1 / 1.5));
    rows.push(compare('exp 1M f32', ['wiregrad', m.exp!], [`torch ${peer.version}`, m.torchExp!], 0.5));
    rows.push(compare('exp 1M f32', ['wiregrad', m.exp!], ['tfjs-wasm', m.tfExp!], 0));

    const leaf = tensor(1.5, { requiresGrad: true });
    const net = oursMlp();
    const g = await interleavedMediansAsync(
      withIdleTurns({
        chain: () => oursChain(leaf),
        torchChain: () => peer.time('chain', threads),
        mlp: net,
        torchMlp: () => peer.time('mlp', threads),
      }),
      41,
      5,
    );
    rows.push(
      compare(
        `fwd+bwd per node, ${CHAIN}-op scalar chain`,
        ['wiregrad', g.chain! / CHAIN],
        [`torch ${peer.version}`, g.torchChain! / CHAIN],
        1 / 1.5,
      ),
    );
    rows.push(
      compare('MLP 784-256-10 SGD step, batch 64', ['wiregrad', g.mlp!], [`torch ${peer.version}`, g.torchMlp!], 0.5),
    );
  } finally {
    setNumThreads(threads);
    peer.close();
  }
  const simd = cpuKernelInfo().relaxedSimd ? 'relaxed SIMD gemm' : 'plain SIMD gemm';
  printRows(`pytorch (${peer.python}, torch ${peer.version}; ${threads} threads each unless said; ${simd})`, rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
