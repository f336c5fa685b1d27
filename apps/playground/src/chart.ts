// The loss charts: train (solid) and test (dashed) cross-entropy per step of each device that
// trained, on labelled axes, and below them the cpu-gpu difference of both curves.
import type { PlaygroundDevice } from './train.js';

export interface Curves {
  train: number[];
  test: number[];
}

/** the difference chart's lines */
export const DIFFERENCE = '#8e44ad';
export const COLORS: Record<PlaygroundDevice, string> = { cpu: '#1f77b4', gpu: '#e8710a' };

interface Frame {
  ctx: CanvasRenderingContext2D;
  left: number;
  top: number;
  width: number;
  height: number;
}

const MARGIN = { left: 60, right: 12, top: 12, bottom: 34 };

function context(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d canvas context');
  return ctx;
}

/** Clears the canvas and draws both axes with their ticks and labels; returns the plot area. */
export function axes(
  canvas: HTMLCanvasElement,
  x: { max: number; label: string },
  y: { max: number; label: string; format: (v: number) => string },
): Frame {
  const ctx = context(canvas);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const frame = {
    ctx,
    left: MARGIN.left,
    top: MARGIN.top,
    width: canvas.width - MARGIN.left - MARGIN.right,
    height: canvas.height - MARGIN.top - MARGIN.bottom,
  };
  const bottom = frame.top + frame.height;
  ctx.strokeStyle = '#444';
  ctx.fillStyle = '#333';
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.moveTo(frame.left, frame.top);
  ctx.lineTo(frame.left, bottom);
  ctx.lineTo(frame.left + frame.width, bottom);
  ctx.stroke();
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const f of [0, 0.5, 1]) {
    const px = frame.left + f * frame.width;
    ctx.fillRect(px, bottom, 1, 4);
    ctx.fillText(String(Math.round(f * x.max)), px, bottom + 5);
  }
  ctx.fillText(x.label, frame.left + frame.width / 2, bottom + 19);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const f of [0, 0.5, 1]) {
    const py = bottom - f * frame.height;
    ctx.fillRect(frame.left - 4, py, 4, 1);
    ctx.fillText(y.format(f * y.max), frame.left - 6, py);
  }
  ctx.save();
  ctx.translate(11, frame.top + frame.height / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = 'center';
  ctx.fillText(y.label, 0, 0);
  ctx.restore();
  return frame;
}

function line(
  f: Frame,
  values: readonly number[],
  xMax: number,
  yMax: number,
  color: string,
  dashed: boolean,
  width = 1.5,
): void {
  const { ctx } = f;
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.setLineDash(dashed ? [5, 3] : []);
  ctx.beginPath();
  let started = false;
  values.forEach((v, i) => {
    if (!Number.isFinite(v)) return;
    const px = f.left + ((i + 1) / xMax) * f.width;
    const py = f.top + f.height - (Math.min(v, yMax) / yMax) * f.height;
    if (started) ctx.lineTo(px, py);
    else ctx.moveTo(px, py);
    started = true;
  });
  ctx.stroke();
  ctx.setLineDash([]);
}

function legend(f: Frame, entries: [string, string, boolean][]): void {
  const { ctx } = f;
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  entries.forEach(([label, color, dashed], k) => {
    const y = f.top + 8 + k * 14;
    const x = f.left + f.width - 110;
    ctx.strokeStyle = color;
    ctx.lineWidth = 1.5;
    ctx.setLineDash(dashed ? [5, 3] : []);
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + 22, y);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = '#333';
    ctx.fillText(label, x + 27, y);
  });
}

/** A round upper bound for the y axis: 1, 2 or 5 times a power of ten, at least `max`. */
export function niceMax(max: number): number {
  if (!(max > 0) || !Number.isFinite(max)) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].find((m) => m * p >= max) ?? 10) * p;
}

const stepsOf = (curves: Partial<Record<PlaygroundDevice, Curves>>) =>
  Math.max(10, ...Object.values(curves).map((c) => c.train.length));

/** Train (solid) and test (dashed) loss of every device that trained, over the steps taken. */
export function drawLoss(canvas: HTMLCanvasElement, curves: Partial<Record<PlaygroundDevice, Curves>>): void {
  const steps = stepsOf(curves);
  const all = Object.values(curves).flatMap((c) => [...c.train, ...c.test].filter(Number.isFinite));
  const yMax = niceMax(Math.max(0, ...all));
  const f = axes(canvas, { max: steps, label: 'step' }, { max: yMax, label: 'loss', format: (v) => v.toFixed(2) });
  const entries: [string, string, boolean][] = [];
  for (const device of ['cpu', 'gpu'] as const) {
    const c = curves[device];
    if (!c) continue;
    // the cpu's lines are wider, so where the gpu's agree they show as a blue rim around the orange
    const width = device === 'cpu' ? 4 : 1.5;
    line(f, c.train, steps, yMax, COLORS[device], false, width);
    line(f, c.test, steps, yMax, COLORS[device], true, width);
    entries.push([`${device} train`, COLORS[device], false], [`${device} test`, COLORS[device], true]);
  }
  legend(f, entries);
}

/** |cpu - gpu| of the train and the test loss at each step both devices took; the largest, or null. */
export function drawDifference(
  canvas: HTMLCanvasElement,
  curves: Partial<Record<PlaygroundDevice, Curves>>,
): number | null {
  const { cpu, gpu } = curves;
  const steps = stepsOf(curves);
  if (!cpu || !gpu) {
    const f = axes(canvas, { max: steps, label: 'step' }, { max: 1, label: '|cpu − gpu|', format: () => '' });
    f.ctx.textAlign = 'center';
    f.ctx.fillText('train on both devices to compare them', f.left + f.width / 2, f.top + f.height / 2);
    return null;
  }
  const diff = (a: number[], b: number[]) => a.slice(0, b.length).map((v, i) => Math.abs(v - b[i]!));
  const train = diff(cpu.train, gpu.train);
  const test = diff(cpu.test, gpu.test);
  const largest = Math.max(0, ...[...train, ...test].filter(Number.isFinite));
  const yMax = niceMax(largest || 1e-9);
  const f = axes(
    canvas,
    { max: steps, label: 'step' },
    { max: yMax, label: '|cpu − gpu|', format: (v) => (v === 0 ? '0' : v.toExponential(1)) },
  );
  line(f, train, steps, yMax, DIFFERENCE, false);
  line(f, test, steps, yMax, DIFFERENCE, true);
  legend(f, [
    ['train loss', DIFFERENCE, false],
    ['test loss', DIFFERENCE, true],
  ]);
  return largest;
}
