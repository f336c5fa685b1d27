// The four datasets of TensorFlow Playground (circles, xor, spirals, gaussians), with its noise and
// its train/test split, as plain numbers from a seeded generator: the cpu and the gpu runs of one
// setting train on the same points, in the same batches.
import type { Dataset } from './settings.js';

/** the plane the points lie in, and the decision boundary is drawn over: [-EXTENT, EXTENT]^2 */
export const EXTENT = 1;

export interface Points {
  /** [x1, x2] of each point */
  x: number[][];
  /** its class, 0 or 1 */
  y: number[];
}

export interface Split {
  train: Points;
  test: Points;
}

/** mulberry32: a small seeded generator of floats in [0, 1) (the same sequence in every browser and Node). */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const uniform = (rand: () => number, lo: number, hi: number) => lo + (hi - lo) * rand();

/** Box-Muller: a standard normal draw. */
function normal(rand: () => number): number {
  const u = 1 - rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

// Each generator works in TensorFlow Playground's units (a plane of [-6, 6]^2, radius 5) and the
// points are scaled to [-1, 1]^2 at the end, where the network's inputs are best conditioned.
const SCALE = 6;
const RADIUS = 5;

type Generate = (n: number, noise: number, rand: () => number) => Points;

const GENERATORS: Record<Dataset, Generate> = {
  // class 1 inside half the radius, class 0 in a ring from 0.7 to 1 of it
  circles(n, noise, rand) {
    const out: Points = { x: [], y: [] };
    for (let i = 0; i < n; i++) {
      const inner = i < n / 2;
      const r = inner ? uniform(rand, 0, RADIUS * 0.5) : uniform(rand, RADIUS * 0.7, RADIUS);
      const angle = uniform(rand, 0, 2 * Math.PI);
      const nx = uniform(rand, -RADIUS, RADIUS) * noise;
      const ny = uniform(rand, -RADIUS, RADIUS) * noise;
      out.x.push([r * Math.sin(angle) + nx, r * Math.cos(angle) + ny]);
      out.y.push(inner ? 1 : 0);
    }
    return out;
  },
  // the four quadrants, kept a little off the axes; class 1 (half the points) where x1 and x2 have the same sign
  xor(n, noise, rand) {
    const out: Points = { x: [], y: [] };
    const padding = 0.3;
    for (let i = 0; i < n; i++) {
      const label = i < n / 2 ? 1 : 0;
      const x = uniform(rand, -RADIUS, RADIUS);
      const sx = x >= 0 ? 1 : -1;
      const sy = label === 1 ? sx : -sx;
      const y = sy * (uniform(rand, 0, RADIUS) + padding);
      out.x.push([
        x + sx * padding + uniform(rand, -RADIUS, RADIUS) * noise,
        y + uniform(rand, -RADIUS, RADIUS) * noise,
      ]);
      out.y.push(label);
    }
    return out;
  },
  // two interleaved spirals of 1.75 turns
  spirals(n, noise, rand) {
    const out: Points = { x: [], y: [] };
    const half = n / 2;
    for (const [label, delta] of [
      [1, 0],
      [0, Math.PI],
    ] as const) {
      for (let i = 0; i < half; i++) {
        const r = (i / half) * RADIUS;
        const t = ((1.75 * i) / half) * 2 * Math.PI + delta;
        out.x.push([r * Math.sin(t) + uniform(rand, -1, 1) * noise, r * Math.cos(t) + uniform(rand, -1, 1) * noise]);
        out.y.push(label);
      }
    }
    return out;
  },
  // two gaussian blobs at (2, 2) and (-2, -2) whose variance grows with the noise (0.5 to 4)
  gaussians(n, noise, rand) {
    const out: Points = { x: [], y: [] };
    const sd = Math.sqrt(0.5 + (noise / 0.5) * 3.5);
    for (let i = 0; i < n; i++) {
      const label = i < n / 2 ? 1 : 0;
      const c = label === 1 ? 2 : -2;
      out.x.push([c + normal(rand) * sd, c + normal(rand) * sd]);
      out.y.push(label);
    }
    return out;
  },
};

/** `n` points of `dataset` with `noise`, shuffled and split: the first `trainPercent` % train, the rest test. */
export function makeSplit(dataset: Dataset, n: number, noise: number, trainPercent: number, seed: number): Split {
  const rand = generator(seed);
  const { x, y } = GENERATORS[dataset](n, noise, rand);
  const order = shuffled(n, rand);
  const nTrain = Math.round((n * trainPercent) / 100);
  const pick = (idx: number[]): Points => ({
    x: idx.map((i) => [x[i]![0]! / SCALE, x[i]![1]! / SCALE]),
    y: idx.map((i) => y[i]!),
  });
  return { train: pick(order.slice(0, nTrain)), test: pick(order.slice(nTrain)) };
}

/** 0..n-1 in a random order (Fisher-Yates). */
export function shuffled(n: number, rand: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}
