// @wiregrad/tensor on the cpu device vs tfjs-cpu, tfjs-wasm and plain typed-array loops (issues: foundation, SIMD).
import { getNumThreads, randn, setNumThreads, tensor } from '@wiregrad/tensor';
import { tfjs } from './peers.js';
import { compare, medianMs, printRows, type Row } from './report.js';

const N_ELEM = 1 << 20;

function plainAdd(a: Float32Array, b: Float32Array, out: Float32Array): void {
  for (let i = 0; i < out.length; i++) out[i] = a[i]! + b[i]!;
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
    const opts = { iterations: 5, time: n === 1024 ? 2000 : 1000 };
    // no tf.tidy around the read: in tfjs-wasm a dataSync() inside tidy costs ~10x the matmul itself
    const peer = await medianMs(`matmul ${n} tfjs-wasm`, () => {
      const c = tf.matMul(ta, tb);
      c.dataSync();
      c.dispose();
    }, opts);
    setNumThreads(1);
    const one = await medianMs(`matmul ${n} ours 1 thread`, () => a.matmul(b).toTypedArray(), opts);
    setNumThreads(poolThreads);
    const pool = await medianMs(`matmul ${n} ours pool`, () => a.matmul(b).toTypedArray(), opts);
    rows.push(compare(`matmul ${n} f32, 1 thread`, ['wiregrad wasm', one], ['tfjs-wasm', peer], 1));
    rows.push(compare(`matmul ${n} f32, ${poolThreads} threads`, ['wiregrad wasm pool', pool], ['tfjs-wasm', peer], 1.6));
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
  const addOurs = await medianMs('add 1M ours', () => x.add(y));
  const addPlain = await medianMs('add 1M loop', () => plainAdd(xa, ya, out));
  rows.push(compare('add 1M f32', ['wiregrad cpu', addOurs], ['Float32Array loop', addPlain], 2));
  const expOurs = await medianMs('exp 1M ours', () => x.exp());
  const expPlain = await medianMs('exp 1M loop', () => plainExp(xa, out));
  rows.push(compare('exp 1M f32', ['wiregrad cpu', expOurs], ['Math.exp loop', expPlain], 3));

  const row = randn([1024]);
  const mat = randn([1024, 1024]);
  const bcOurs = await medianMs('broadcast add ours', () => mat.add(row));
  const bcPlain = await medianMs('broadcast add loop', () => plainAdd(xa, ya, out));
  rows.push(compare('add [1024,1024]+[1024] broadcast', ['wiregrad cpu', bcOurs], ['Float32Array loop (same-shape)', bcPlain], 1 / 1.5));
  const tOurs = await medianMs('transposed add ours', () => mat.t().add(mat));
  rows.push(compare('add transposed [1024,1024] view', ['wiregrad cpu', tOurs], ['Float32Array loop (same-shape)', bcPlain], 1 / 4));

  const s = tensor(1);
  const sOurs = await medianMs('scalar add ours', () => x.add(s));
  rows.push(compare('add 1M + 0-dim', ['wiregrad cpu', sOurs], ['Float32Array loop (same-shape)', addPlain], 1 / 1.5));

  printRows('tensor (cpu device)', rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
