// The datasets and the trainer in Node, on the cpu device: what the page trains, checked without a
// browser (test/page.test.ts drives the page itself, and the gpu).
import { describe, expect, it } from 'vitest';
import { EXTENT, makeSplit } from '../src/datasets.js';
import { DATASETS, DEFAULTS, POINTS, type Settings } from '../src/settings.js';
import { gridPoints, trainer } from '../src/train.js';

describe('the datasets', () => {
  it.each(DATASETS)('%s: balanced classes, split by the train percentage, inside the plane', (dataset) => {
    const { train, test } = makeSplit(dataset, POINTS, 0.1, 30, 3);
    expect(train.x).toHaveLength(0.3 * POINTS);
    expect(test.x).toHaveLength(0.7 * POINTS);
    const labels = [...train.y, ...test.y];
    expect(labels.filter((y) => y === 1)).toHaveLength(POINTS / 2);
    expect(labels.filter((y) => y === 0)).toHaveLength(POINTS / 2);
    // noise 0.1 keeps every dataset but the gaussians' tails inside the plotted plane
    const inside = [...train.x, ...test.x].filter(([a = 0, b = 0]) => Math.abs(a) <= EXTENT && Math.abs(b) <= EXTENT);
    expect(inside.length).toBeGreaterThan(0.97 * POINTS);
  });

  it('are the same for the same seed and differ for another', () => {
    expect(makeSplit('spirals', POINTS, 0.2, 50, 7)).toEqual(makeSplit('spirals', POINTS, 0.2, 50, 7));
    expect(makeSplit('spirals', POINTS, 0.2, 50, 8)).not.toEqual(makeSplit('spirals', POINTS, 0.2, 50, 7));
  });

  it('move further from their noiseless places with more noise', () => {
    const spread = (noise: number) => {
      const a = makeSplit('xor', POINTS, 0, 50, 5).train.x;
      const b = makeSplit('xor', POINTS, noise, 50, 5).train.x;
      return Math.max(...a.map(([p = 0, q = 0], i) => Math.hypot(p - b[i]![0]!, q - b[i]![1]!)));
    };
    expect(spread(0.5)).toBeGreaterThan(spread(0.1));
  });
});

describe('the trainer (cpu)', () => {
  const run = (s: Settings, steps: number) => {
    const split = makeSplit(s.dataset, POINTS, s.noise, s.trainPercent, s.seed);
    const t = trainer(s, split, 'cpu');
    const first = t.evaluate();
    for (let i = 0; i < steps; i++) t.step();
    return { first, last: t.evaluate(), t };
  };

  it.each([
    ['circles', 300],
    ['xor', 150],
    ['gaussians', 60],
  ] as const)(
    'learns %s with the default network in %i steps: train and test accuracy above 90 %%',
    (dataset, steps) => {
      const { first, last } = run({ ...DEFAULTS, dataset }, steps);
      expect(last.train).toBeLessThan(first.train / 2);
      expect(last.trainAccuracy).toBeGreaterThan(0.9);
      expect(last.testAccuracy).toBeGreaterThan(0.9);
    },
  );

  it('cannot learn circles without a hidden layer (a linear boundary)', () => {
    const { last } = run({ ...DEFAULTS, hidden: [] }, 150);
    expect(last.trainAccuracy).toBeLessThan(0.75);
  });

  it('takes the same steps for the same settings, and an L2 penalty changes them', () => {
    const a = run(DEFAULTS, 20).last;
    expect(run(DEFAULTS, 20).last).toEqual(a);
    expect(run({ ...DEFAULTS, l2: 0.5 }, 20).last.train).not.toBe(a.train);
  });

  it('gives a probability per grid cell, top row first', () => {
    const { t } = run(DEFAULTS, 100);
    const p = t.probabilities(8);
    expect(p).toHaveLength(64);
    for (const v of p) expect(v).toBeGreaterThanOrEqual(0);
    // circles: class 1 in the middle, class 0 at the corners
    expect(p[3 * 8 + 3]).toBeGreaterThan(0.5);
    expect(p[0]).toBeLessThan(0.5);
    expect(gridPoints(2)).toEqual([
      [-0.5, 0.5],
      [0.5, 0.5],
      [-0.5, -0.5],
      [0.5, -0.5],
    ]);
  });
});
