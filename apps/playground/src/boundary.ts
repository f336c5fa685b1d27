// The decision boundary: the model's P(class 1) over the plane, coloured from orange (class 0) to
// blue (class 1), with the training points (white rim) and test points (dark rim) on top, and
// labelled x1 and x2 axes.
import { EXTENT, type Points } from './datasets.js';

const PLOT = { left: 40, top: 8, size: 256 };
const ORANGE = [245, 147, 34];
const BLUE = [8, 119, 189];

/** orange to blue through white: the colour of p, paler where the model is unsure (p near 0.5) */
function mix(p: number): number[] {
  const strength = 0.2 + 0.6 * Math.abs(2 * p - 1);
  return ORANGE.map((o, k) => Math.round(255 + (o + (BLUE[k]! - o) * p - 255) * strength));
}

/** `probabilities`: P(class 1) on an n x n grid, row-major from the top row (train.ts's gridPoints). */
export function drawBoundary(
  canvas: HTMLCanvasElement,
  probabilities: readonly number[],
  train: Points,
  test: Points,
): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d canvas context');
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const n = Math.round(Math.sqrt(probabilities.length));
  const cell = PLOT.size / n;
  probabilities.forEach((p, k) => {
    const [r, g, b] = mix(p);
    ctx.fillStyle = `rgb(${r},${g},${b})`;
    ctx.fillRect(PLOT.left + (k % n) * cell, PLOT.top + Math.floor(k / n) * cell, cell + 0.5, cell + 0.5);
  });
  const px = (v: number) => PLOT.left + ((v + EXTENT) / (2 * EXTENT)) * PLOT.size;
  const py = (v: number) => PLOT.top + ((EXTENT - v) / (2 * EXTENT)) * PLOT.size;
  for (const [points, rim] of [
    [train, '#fff'],
    [test, '#222'],
  ] as const) {
    ctx.strokeStyle = rim;
    points.x.forEach(([a = 0, b = 0], k) => {
      ctx.fillStyle = points.y[k] === 1 ? 'rgb(8,119,189)' : 'rgb(245,147,34)';
      ctx.beginPath();
      ctx.arc(px(a), py(b), 3, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    });
  }
  // axes: ticks at -1, 0, 1 under and left of the plot, and their names
  ctx.fillStyle = '#333';
  ctx.font = '11px system-ui, sans-serif';
  const bottom = PLOT.top + PLOT.size;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const v of [-EXTENT, 0, EXTENT]) {
    ctx.fillRect(px(v), bottom, 1, 4);
    ctx.fillText(String(v), px(v), bottom + 5);
  }
  ctx.fillText('x₁', PLOT.left + PLOT.size / 2, bottom + 18);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const v of [-EXTENT, 0, EXTENT]) {
    ctx.fillRect(PLOT.left - 4, py(v), 4, 1);
    ctx.fillText(String(v), PLOT.left - 6, py(v));
  }
  ctx.save();
  ctx.translate(10, PLOT.top + PLOT.size / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = 'center';
  ctx.fillText('x₂', 0, 0);
  ctx.restore();
}
