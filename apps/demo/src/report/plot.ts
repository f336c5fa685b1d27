import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';

/** One curve: `source` (a trainer, the driver, a one-process reference) picks its colour, `measure` (loss, train, held-out...) its dash pattern. */
export interface Series {
  source: string;
  measure: string;
  values: number[];
}

/** Tableau 10, Vega's default categorical palette; more sources than this get evenly spaced hues instead. */
const TABLEAU10 = [
  '#4c78a8',
  '#f58518',
  '#e45756',
  '#72b7b2',
  '#54a24b',
  '#eeca3b',
  '#b279a2',
  '#ff9da6',
  '#9d755d',
  '#bab0ac',
];

/**
 * Dash patterns and widths by measure: the first measure solid and wide, the others dashed and
 * thin on top of it, so two identical curves (the pipeline's loss and its one-process reference)
 * show both colours. A plot has a few measures, so they cycle only in theory.
 */
const DASHES = [
  [1, 0],
  [6, 3],
  [2, 2],
  [8, 3, 2, 3],
  [1, 5],
];
const WIDE = 3.5;
const THIN = 2;

/** n colours, all different, for any n: Tableau 10 up to 10, else n evenly spaced hues alternating two lightnesses. */
export function distinctColors(n: number): string[] {
  if (n <= TABLEAU10.length) return TABLEAU10.slice(0, n);
  return Array.from({ length: n }, (_, i) => `hsl(${Math.round((360 * i) / n)}, 70%, ${i % 2 === 0 ? 40 : 55}%)`);
}

const unique = (xs: string[]) => [...new Set(xs)];

/** One panel: a line per series over epochs 1..n, integer epoch ticks, a colour legend and a dash legend right of the data. */
function panel(title: string, series: Series[], colors: Map<string, string>, percent: boolean) {
  const sources = unique(series.map((s) => s.source));
  const measures = unique(series.map((s) => s.measure));
  const epochs = Math.max(2, ...series.map((s) => s.values.length));
  return {
    title,
    width: 520,
    height: 200,
    data: {
      values: series.flatMap((s) =>
        s.values.map((value, i) => ({ source: s.source, measure: s.measure, epoch: i + 1, value })),
      ),
    },
    mark: { type: 'line' as const },
    encoding: {
      x: {
        field: 'epoch',
        type: 'quantitative' as const,
        title: 'epoch',
        scale: { domain: [1, epochs], nice: false },
        axis: { tickMinStep: 1, format: 'd' },
      },
      y: {
        field: 'value',
        type: 'quantitative' as const,
        title,
        scale: percent ? { domain: [0, 1] } : { zero: true },
        axis: { format: percent ? '.0%' : '.2f' },
      },
      color: {
        field: 'source',
        type: 'nominal' as const,
        title: 'worker',
        scale: { domain: sources, range: sources.map((s) => colors.get(s)!) },
        legend: { symbolType: 'stroke', symbolStrokeWidth: 3, labelLimit: 0 },
      },
      strokeDash: {
        field: 'measure',
        type: 'nominal' as const,
        title: 'curve',
        scale: { domain: measures, range: measures.map((_, i) => DASHES[i % DASHES.length]!) },
        legend: {
          symbolType: 'stroke',
          symbolStrokeColor: '#333',
          symbolStrokeWidth: 2,
          symbolSize: 400,
          labelLimit: 0,
        },
      },
      strokeWidth: {
        condition: { test: `datum.measure === ${JSON.stringify(measures[0])}`, value: WIDE },
        value: THIN,
      },
    },
  };
}

/**
 * A self-contained SVG (Vega-Lite, rendered in Node without a browser) with a loss panel and an
 * accuracy panel (none when `acc` is empty): epoch ticks on x, one colour per source shared by both panels, one dash pattern
 * per measure, legends beside the data.
 */
export async function plotSvg(title: string, loss: Series[], acc: Series[]): Promise<string> {
  const sources = unique([...loss, ...acc].map((s) => s.source));
  const palette = distinctColors(sources.length);
  const colors = new Map(sources.map((s, i) => [s, palette[i]!]));
  const spec: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    background: 'white',
    vconcat: [panel('loss', loss, colors, false), ...(acc.length ? [panel('accuracy', acc, colors, true)] : [])],
    resolve: { scale: { color: 'independent', strokeDash: 'independent' } },
  };
  // loaded here, not at the top: the workers import this module (through the examples) but never plot
  const [{ parse, View }, { compile }] = await Promise.all([import('vega'), import('vega-lite')]);
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

/** Writes plotSvg's picture to `path` (creating its folder) and returns the path. */
export async function writePlot(path: string, title: string, loss: Series[], acc: Series[]): Promise<string> {
  const svg = await plotSvg(title, loss, acc);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, svg);
  return path;
}
