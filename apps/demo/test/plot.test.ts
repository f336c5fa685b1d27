import { describe, expect, it } from 'vitest';
import { distinctColors, plotSvg, type Series } from '../src/report/plot.js';

const epochs = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));

/** The data lines of an SVG from plotSvg: panel (0 loss, 1 accuracy), its aria label, colour and dash pattern. */
function lines(svg: string) {
  return [
    ...svg.matchAll(
      /class="mark-line role-mark concat_(\d)_marks"[^>]*><path aria-label="([^"]*)"[^>]* stroke="([^"]+)" stroke-width="([\d.]+)" stroke-dasharray="([^"]+)"/g,
    ),
  ].map(([, panel, label, stroke, width, dash]) => ({ panel: Number(panel), label, stroke, width, dash }));
}

const legends = (svg: string) =>
  [...svg.matchAll(/aria-roledescription="legend" aria-label="([^"]*)"><g transform="translate\(([\d.]+),/g)].map(
    ([, label, x]) => ({ label: label!, x: Number(x) }),
  );

describe('the training plot (Vega-Lite rendered to SVG in Node)', () => {
  it('5 workers: 4 trainers, 12 curves, each trainer its own colour in both panels, train and held-out told apart by dashes', async () => {
    const trainers = [1, 2, 3, 4].map((t) => `trainer ${t}`);
    const loss: Series[] = trainers.map((source) => ({
      source,
      measure: 'loss',
      values: epochs(12, (i) => 1 / (i + 1)),
    }));
    const acc: Series[] = trainers.flatMap((source) => [
      { source, measure: 'train', values: epochs(12, (i) => i / 12) },
      { source, measure: 'held-out', values: epochs(12, (i) => i / 13) },
    ]);
    const svg = await plotSvg('wiregrad ps demo (5 processes)', loss, acc);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('wiregrad ps demo (5 processes)');

    const drawn = lines(svg);
    expect(drawn).toHaveLength(12);
    const colourOf = (panel: number, source: string, measure: string) =>
      drawn.find((l) => l.panel === panel && l.label!.includes(`worker: ${source}; curve: ${measure}`))!.stroke;
    const lossColours = trainers.map((t) => colourOf(0, t, 'loss'));
    expect(new Set(lossColours).size).toBe(4);
    for (const [i, t] of trainers.entries()) {
      expect(colourOf(1, t, 'train')).toBe(lossColours[i]);
      expect(colourOf(1, t, 'held-out')).toBe(lossColours[i]);
    }
    const dashOf = (measure: string) =>
      new Set(drawn.filter((l) => l.label!.endsWith(`curve: ${measure}`)).map((l) => l.dash));
    expect(dashOf('train').size).toBe(1);
    expect(dashOf('held-out').size).toBe(1);
    expect([...dashOf('train')][0]).not.toBe([...dashOf('held-out')][0]);

    // ticks: epochs on x, loss and percent on y
    expect(svg).toContain(`aria-label="X-axis titled 'epoch' for a linear scale with values from 1 to 12"`);
    expect(svg).toMatch(/aria-label="Y-axis titled 'loss' for a linear scale with values from 0\.00 to 1\.00"/);
    expect(svg).toContain(`aria-label="Y-axis titled 'accuracy' for a linear scale with values from 0% to 100%"`);
    const xTicks = [...svg.matchAll(/role-axis-label"[^>]*>((?:<text[^>]*>[^<]*<\/text>)+)/g)].map((m) =>
      [...m[1]!.matchAll(/>([^<]*)<\/text>/g)].map((t) => t[1]),
    );
    expect(xTicks.some((t) => t.includes('2') && t.includes('10'))).toBe(true);
    expect(xTicks.some((t) => t.includes('20%') && t.includes('100%'))).toBe(true);

    // legends: every trainer and every curve kind, with a line sample, right of the 520-pixel-wide data
    const ls = legends(svg);
    expect(ls.map((l) => l.label)).toEqual([
      "Symbol legend titled 'worker' for stroke color with 4 values: trainer 1, trainer 2, trainer 3, trainer 4",
      "Symbol legend titled 'curve' for strokeDash with 1 value: loss",
      "Symbol legend titled 'worker' for stroke color with 4 values: trainer 1, trainer 2, trainer 3, trainer 4",
      "Symbol legend titled 'curve' for strokeDash with 2 values: train, held-out",
    ]);
    for (const l of ls) expect(l.x).toBeGreaterThan(520);
    const samples = [...svg.matchAll(/role-legend-symbol"[^>]*><path [^>]*d="M-\d+,0L\d+,0"/g)];
    expect(samples).toHaveLength(4 + 1 + 4 + 2);
  }, 60_000); // the first plot loads Vega: seconds on a loaded machine

  it('the pipeline: its loss and the one-process reference, equal to the last digit, differ in colour, dashes and width', async () => {
    const same = epochs(10, (i) => 1 / (i + 1));
    const svg = await plotSvg(
      'pipeline',
      [
        { source: 'driver', measure: 'loss', values: same },
        { source: 'one process', measure: 'reference loss', values: [...same] },
      ],
      [{ source: 'driver', measure: 'train', values: same }],
    );
    const [model, reference] = lines(svg).filter((l) => l.panel === 0);
    expect(model!.label).toContain('worker: driver; curve: loss');
    expect(reference!.label).toContain('worker: one process; curve: reference loss');
    expect(reference!.stroke).not.toBe(model!.stroke);
    expect(reference!.dash).not.toBe(model!.dash);
    expect(Number(reference!.width)).toBeLessThan(Number(model!.width)); // the dashed line on top of the wider one
  }, 60_000);

  it('any number of sources gets that many different colours', () => {
    for (const n of [1, 4, 10, 11, 20, 33]) expect(new Set(distinctColors(n)).size).toBe(n);
  });
});
