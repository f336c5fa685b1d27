export interface Series {
  name: string;
  values: number[];
  color: string;
}

const W = 640;
const H = 260;
const PAD = 44;

function panel(title: string, series: Series[], y0: number, yLabel: (v: number) => string): string {
  const all = series.flatMap((s) => s.values);
  const n = Math.max(...series.map((s) => s.values.length), 2);
  const lo = Math.min(...all, 0);
  const hi = Math.max(...all, 1e-9);
  const x = (i: number) => PAD + (i / (n - 1)) * (W - 2 * PAD);
  const y = (v: number) => y0 + H - PAD - ((v - lo) / (hi - lo || 1)) * (H - 2 * PAD);
  const lines = series
    .map(
      (s) =>
        `<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}"/>`,
    )
    .join('\n');
  const legend = series
    .map(
      (s, i) => `<text x="${W - PAD - 150}" y="${y0 + 20 + 16 * i}" fill="${s.color}" font-size="12">${s.name}</text>`,
    )
    .join('\n');
  const ticks = [lo, (lo + hi) / 2, hi]
    .map((v) => `<text x="4" y="${y(v) + 4}" font-size="11" fill="#555">${yLabel(v)}</text>`)
    .join('\n');
  return `<text x="${PAD}" y="${y0 + 18}" font-size="14" font-weight="bold">${title}</text>
<line x1="${PAD}" y1="${y0 + H - PAD}" x2="${W - PAD}" y2="${y0 + H - PAD}" stroke="#999"/>
<line x1="${PAD}" y1="${y0 + PAD / 2}" x2="${PAD}" y2="${y0 + H - PAD}" stroke="#999"/>
<text x="${W / 2}" y="${y0 + H - 12}" font-size="11" fill="#555">epoch (1..${n})</text>
${ticks}
${lines}
${legend}`;
}

/** A self-contained SVG with a loss panel and an accuracy panel, one line per series. */
export function plotSvg(title: string, loss: Series[], acc: Series[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${2 * H + 30}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>
<text x="${PAD}" y="20" font-size="16">${title}</text>
${panel('loss', loss, 24, (v) => v.toFixed(2))}
${panel('accuracy', acc, 24 + H, (v) => `${(100 * v).toFixed(0)}%`)}
</svg>
`;
}
