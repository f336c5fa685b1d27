// wiregrad's cpu device vs PyTorch on this machine (issue: the cpu device at the machine's limit).
// PyTorch runs in a child process per thread count (bench/torchPeer.py), timed in blocks (Note [Timed blocks]).
import { cpuKernelInfo, getNumThreads, randn, setNumThreads, tensor, tidy, type Tensor } from '@wiregrad/autograd';
import { Linear, ReLU, Sequential, crossEntropy } from '@wiregrad/nn';
import { SGD } from '@wiregrad/nn/optim';
import { tfjs } from './peers.js';
import { loadLine, StealMeter } from './machine.js';
import { blockMedians, compare, printRows, timedBlock, type Block, type Row } from './report.js';
import { TorchPeer, type TorchCase } from './torchPeer.js';

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

export interface Peers {
  one: TorchPeer;
  two: TorchPeer;
  label: string;
}

/**
 * Ours against PyTorch at its best setting: PyTorch on 1 thread and on 2 (separate processes),
 * each timed in blocks (Note [Timed blocks]); the row compares ours with the faster and prints
 * both, with the steal each side's blocks saw.
 */
export async function vsTorch(
  peers: Peers,
  caseName: string,
  kase: TorchCase,
  ours: () => unknown,
  calls: number,
  minSpeedup: number,
  scale: (ms: number) => number = (ms) => ms,
): Promise<{ row: Row; ours: number; best: number }> {
  const meters = { ours: new StealMeter(), one: new StealMeter(), two: new StealMeter() };
  const m = await blockMedians(
    {
      ours: timedBlock(ours),
      one: (c) => peers.one.block(kase, c),
      two: (c) => peers.two.block(kase, c),
    } satisfies Record<string, Block>,
    calls,
    2,
    meters,
  );
  const [o, one, two] = [scale(m.ours), scale(m.one), scale(m.two)];
  const best = Math.min(one, two);
  const row = compare(caseName, ['wiregrad', o], [`${peers.label} best of 1|2 threads`, best], minSpeedup);
  row.peer += ` (1 thread ${one.toFixed(3)} ms, 2 threads ${two.toFixed(3)} ms; steal ${meters.one.percent()}|${meters.two.percent()})`;
  row.ours += ` (steal ${meters.ours.percent()})`;
  return { row, ours: o, best };
}

/** Ours against tfjs-wasm, both in this process, in blocks. */
export async function vsTfjs(caseName: string, ours: () => unknown, peer: () => unknown, calls: number): Promise<Row> {
  const m = await blockMedians({ ours: timedBlock(ours), peer: timedBlock(peer) }, calls);
  return compare(caseName, ['wiregrad', m.ours], ['tfjs-wasm', m.peer], 0);
}

export async function run(): Promise<Row[] | void> {
  const one = await TorchPeer.start(1);
  if (!(one instanceof TorchPeer)) {
    console.log(`\n## pytorch\nskipped: no python here imports torch (${one.skipped})`);
    return;
  }
  const two = await TorchPeer.start(2);
  if (!(two instanceof TorchPeer)) {
    one.close();
    console.log(`\n## pytorch\nskipped: torch on 2 threads did not start (${two.skipped})`);
    return;
  }
  const peers: Peers = { one, two, label: `torch ${one.version}` };
  const threads = getNumThreads();
  const loadBefore = loadLine();
  const rows: Row[] = [];
  const tfw = await tfjs('wasm');
  try {
    for (const n of [512, 1024] as const) {
      const a = randn([n, n]);
      const b = randn([n, n]);
      // ours release their results, as tfjs-wasm's do and PyTorch's (by reference counting)
      const ours = (t: number) => () => {
        setNumThreads(t);
        a.matmul(b).dispose();
      };
      const calls = n === 1024 ? 20 : 40;
      for (const t of [1, threads]) {
        const r = await vsTorch(
          peers,
          `matmul ${n} f32, ours on ${t} thread(s)`,
          `matmul${n}`,
          ours(t),
          calls,
          t === 1 ? 0.5 : 0,
        );
        r.row.ours += ` ${gflops(n, r.ours).toFixed(0)} GFLOP/s`;
        r.row.peer += ` ${gflops(n, r.best).toFixed(0)} GFLOP/s`;
        rows.push(r.row);
      }
      setNumThreads(threads);
      const ta = tfw.randomNormal([n, n]);
      const tb = tfw.randomNormal([n, n]);
      rows.push(
        await vsTfjs(
          `matmul ${n} f32, ${threads} threads`,
          ours(threads),
          () => {
            const c = tfw.matMul(ta, tb);
            c.dataSync();
            c.dispose();
          },
          calls,
        ),
      );
      setNumThreads(threads);
      ta.dispose();
      tb.dispose();
    }

    const x = randn([N_ELEM]);
    const y = randn([N_ELEM]);
    const acc = randn([N_ELEM]);
    rows.push((await vsTorch(peers, 'add 1M f32, result released', 'add', () => x.add(y).dispose(), 60, 0.5)).row);
    rows.push((await vsTorch(peers, 'add 1M f32, result left to the GC', 'add', () => x.add(y), 60, 0.5)).row);
    rows.push((await vsTorch(peers, 'add_ 1M f32 (in place)', 'add_', () => acc.add_(y), 60, 0.5)).row);
    rows.push((await vsTorch(peers, 'exp 1M f32, result released', 'exp', () => x.exp().dispose(), 60, 0.5)).row);
    const tx = tfw.randomNormal([N_ELEM]);
    const ty = tfw.randomNormal([N_ELEM]);
    const tfRead = (c: { dataSync(): unknown; dispose(): void }) => {
      c.dataSync();
      c.dispose();
    };
    rows.push(
      await vsTfjs(
        'add 1M f32',
        () => x.add(y).dispose(),
        () => tfRead(tfw.add(tx, ty)),
        60,
      ),
    );
    rows.push(
      await vsTfjs(
        'exp 1M f32',
        () => x.exp().dispose(),
        () => tfRead(tfw.exp(tx)),
        60,
      ),
    );
    tx.dispose();
    ty.dispose();

    const leaf = tensor(1.5, { requiresGrad: true });
    rows.push(
      (
        await vsTorch(
          peers,
          `fwd+bwd per node, ${CHAIN}-op scalar chain`,
          'chain',
          () => oursChain(leaf),
          40,
          1 / 1.5,
          (ms) => ms / CHAIN,
        )
      ).row,
    );
    rows.push((await vsTorch(peers, 'MLP 784-256-10 SGD step, batch 64', 'mlp', oursMlp(), 60, 1 / 2.5)).row);
  } finally {
    setNumThreads(threads);
    one.close();
    two.close();
  }
  const simd = cpuKernelInfo().relaxedSimd ? 'relaxed SIMD gemm' : 'plain SIMD gemm';
  printRows(
    `pytorch (${one.python}, torch ${one.version}; ours on ${threads} threads unless said; ${simd}; ${loadBefore} before, ${loadLine()} after)`,
    rows,
  );
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
