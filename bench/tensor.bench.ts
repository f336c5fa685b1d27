// @wiregrad/tensor on the cpu device vs tfjs-cpu, tfjs-wasm and plain typed-array loops (issues: foundation, SIMD).
import { getNumThreads, randn, setNumThreads, tensor } from '@wiregrad/tensor';
import { tfjs } from './peers.js';
import { compare, interleavedMedians, medianMs, printRows, type Row } from './report.js';

const N_ELEM = 1 << 20;

function plainAdd(a: Float32Array, b: Float32Array, out: Float32Array): void {
  for (let i = 0; i < out.length; i++) out[i] = a[i]! + b[i]!;
}
/** The same loop returning a fresh array, as an op must: in this VM a fresh 4 MiB result costs ~1.4 ms of page faults. */
function plainAddAlloc(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length);
  plainAdd(a, b, out);
  return out;
}
function plainExp(a: Float32Array, out: Float32Array): void {
  for (let i = 0; i < out.length; i++) out[i] = Math.exp(a[i]!);
}

/** matmul 512 and 1024 vs tfjs-wasm (XNNPACK): on one thread (>= 1x) and on the pool (>= 1.6x). */
async function matmulVsWasm(): Promise<Row[]> {
  const tf = await tfjs('wasm');
  const rows: Row[] = [];
  const poolThreads = getNumThreads();
  for (const n of [512, 1024]) {
    const a = randn([n, n]);
    const b = randn([n, n]);
    const ta = tf.randomNormal([n, n]);
    const tb = tf.randomNormal([n, n]);
    // no tf.tidy around the read: in tfjs-wasm a dataSync() inside tidy costs ~10x the matmul itself
    const peerMatmul = (): void => {
      const c = tf.matMul(ta, tb);
      c.dataSync();
      c.dispose();
    };
    const withThreads = (threads: number) => () => {
      setNumThreads(threads);
      a.matmul(b).toTypedArray();
    };
    const m = interleavedMedians(
      { peer: peerMatmul, one: withThreads(1), pool: withThreads(poolThreads) },
      n === 1024 ? 9 : 25,
    );
    setNumThreads(poolThreads);
    const [peer, one, pool] = [m.peer!, m.one!, m.pool!];
    rows.push(compare(`matmul ${n} f32, 1 thread`, ['wiregrad wasm', one], ['tfjs-wasm', peer], 1));
    rows.push(
      compare(`matmul ${n} f32, ${poolThreads} threads`, ['wiregrad wasm pool', pool], ['tfjs-wasm', peer], 1.6),
    );
    ta.dispose();
    tb.dispose();
  }
  return rows;
}

export async function run(): Promise<Row[]> {
  const tf = await tfjs('cpu');
  const rows: Row[] = [];

  const a512 = randn([512, 512]);
  const b512 = randn([512, 512]);
  const ta = tf.randomNormal([512, 512]);
  const tb = tf.randomNormal([512, 512]);
  const ours = await medianMs('matmul 512 ours', () => a512.matmul(b512).toTypedArray(), { time: 1500 });
  const peer = await medianMs('matmul 512 tfjs-cpu', () => tf.matMul(ta, tb).dataSync(), { iterations: 3, time: 1500 });
  rows.push(compare('matmul 512x512 f32 (read back)', ['wiregrad cpu', ours], ['tfjs-cpu', peer], 3));
  rows.push(...(await matmulVsWasm()));

  const x = randn([N_ELEM]);
  const y = randn([N_ELEM]);
  const xa = x.toTypedArray() as Float32Array;
  const ya = y.toTypedArray() as Float32Array;
  const out = new Float32Array(N_ELEM);
  // timed in alternating blocks (Note [Timed blocks]): ours release their result (its memory is reused, Note [Caching allocator])
  // like the loops writing into one array, or drop it to the GC like the loop making a new one
  const m = interleavedMedians(
    {
      addOurs: () => x.add(y).dispose(),
      addPlain: () => plainAdd(xa, ya, out),
      expOurs: () => x.exp().dispose(),
      expPlain: () => plainExp(xa, out),
    },
    41,
    5,
  );
  // in a set of their own: a dropped result would otherwise take the buffer the released one left
  const dropped = interleavedMedians({ addDropped: () => x.add(y), addAlloc: () => plainAddAlloc(xa, ya) }, 41, 5);
  const addPlain = m.addPlain!;
  rows.push(compare('add 1M f32 (result released)', ['wiregrad cpu', m.addOurs!], ['Float32Array loop', addPlain], 2));
  rows.push(
    compare(
      'add 1M f32 (both allocate the result)',
      ['wiregrad cpu, dropped', dropped.addDropped!],
      ['Float32Array loop + new array', dropped.addAlloc!],
      2,
    ),
  );
  rows.push(compare('exp 1M f32', ['wiregrad cpu', m.expOurs!], ['Math.exp loop', m.expPlain!], 3));

  const row = randn([1024]);
  const mat = randn([1024, 1024]);
  const bcOurs = await medianMs('broadcast add ours', () => mat.add(row));
  const bcPlain = await medianMs('broadcast add loop', () => plainAdd(xa, ya, out));
  rows.push(
    compare(
      'add [1024,1024]+[1024] broadcast',
      ['wiregrad cpu', bcOurs],
      ['Float32Array loop (same-shape)', bcPlain],
      1 / 1.5,
    ),
  );
  const tOurs = await medianMs('transposed add ours', () => mat.t().add(mat));
  rows.push(
    compare(
      'add transposed [1024,1024] view',
      ['wiregrad cpu', tOurs],
      ['Float32Array loop (same-shape)', bcPlain],
      1 / 4,
    ),
  );

  const s = tensor(1);
  const sOurs = await medianMs('scalar add ours', () => x.add(s));
  rows.push(compare('add 1M + 0-dim', ['wiregrad cpu', sOurs], ['Float32Array loop (same-shape)', addPlain], 1 / 1.5));

  printRows('tensor (cpu device)', rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
