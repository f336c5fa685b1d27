// The playground page: trains a small MLP on a 2-D toy dataset (two rings) in the browser with
// @wiregrad/nn on the cpu device, draws the loss curve and the decision boundary, and publishes
// its results on `window.playground` for the spec (test/page.test.ts) to read.
import {
  argmax,
  cat,
  cos,
  eq,
  gpuInfo,
  manualSeed,
  mul,
  noGrad,
  rand,
  randn,
  sin,
  softmax,
  tensor,
  zeros,
  ones,
  type Tensor,
} from '@wiregrad/autograd';
import { Linear, Sequential, Tanh, functional as F } from '@wiregrad/nn';
import { Adam } from '@wiregrad/nn/optim';

export interface PlaygroundResult {
  done: boolean;
  error: string | null;
  steps: number;
  losses: number[];
  accuracy: number | null;
  stepsPerSecond: number | null;
  /** a few ops on the gpu device compared with the cpu device (null until they ran) */
  gpu: GpuCheck | null;
}

export interface GpuCheck {
  mode: string;
  /** the largest |gpu - cpu| / (1 + |cpu|) of each op */
  ops: Record<string, number>;
}

declare global {
  interface Window {
    playground: PlaygroundResult;
  }
}

const STEPS = 150;
const POINTS = 200;

const result: PlaygroundResult = {
  done: false,
  error: null,
  steps: 0,
  losses: [],
  accuracy: null,
  stepsPerSecond: null,
  gpu: null,
};
window.playground = result;

function $(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no #${id} in the page`);
  return el;
}

/** Two rings: class 0 of radius in [0, 0.5), class 1 of radius in [1, 1.5), POINTS/2 each. */
function rings(): { x: Tensor; y: Tensor } {
  const half = POINTS / 2;
  const angle = mul(rand([POINTS]), 2 * Math.PI);
  const radius = cat([mul(rand([half]), 0.5), rand([half]).mul(0.5).add(1)]);
  const x = cat([mul(cos(angle), radius).unsqueeze(1), mul(sin(angle), radius).unsqueeze(1)], 1);
  const y = cat([zeros([half], { dtype: 'int32' }), ones([half], { dtype: 'int32' })]);
  return { x, y };
}

function drawLoss(losses: number[]): void {
  const canvas = $('loss-chart') as HTMLCanvasElement;
  const ctx = canvas.getContext('2d');
  if (!ctx || losses.length < 2) return;
  const max = Math.max(...losses);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.strokeStyle = '#d33';
  ctx.beginPath();
  losses.forEach((l, i) => {
    const px = (i / (STEPS - 1)) * (canvas.width - 10) + 5;
    const py = canvas.height - 5 - (l / max) * (canvas.height - 10);
    if (i === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  });
  ctx.stroke();
}

function drawBoundary(model: Sequential, x: Tensor, y: Tensor): void {
  const canvas = $('boundary') as HTMLCanvasElement;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const n = 40;
  const grid: number[][] = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) grid.push([(j / (n - 1)) * 3.2 - 1.6, (i / (n - 1)) * 3.2 - 1.6]);
  const cls = noGrad(() => argmax(model.forward(tensor(grid)), 1).tolist()) as number[];
  const cell = canvas.width / n;
  cls.forEach((c, k) => {
    ctx.fillStyle = c === 1 ? '#cde' : '#fdd';
    ctx.fillRect((k % n) * cell, Math.floor(k / n) * cell, cell + 1, cell + 1);
  });
  const pts = x.tolist() as number[][];
  const labels = y.tolist() as number[];
  pts.forEach(([px = 0, py = 0], k) => {
    ctx.fillStyle = labels[k] === 1 ? '#16a' : '#c22';
    ctx.fillRect(((px + 1.6) / 3.2) * canvas.width - 1.5, ((py + 1.6) / 3.2) * canvas.height - 1.5, 3, 3);
  });
}

async function train(): Promise<void> {
  manualSeed(0);
  const { x, y } = rings();
  const model = new Sequential(new Linear(2, 16), new Tanh(), new Linear(16, 16), new Tanh(), new Linear(16, 2));
  const opt = new Adam(model.parameters(), { lr: 0.03 });
  $('status').textContent = 'training on cpu';
  const start = performance.now();
  for (let step = 0; step < STEPS; step++) {
    opt.zeroGrad();
    const loss = F.crossEntropy(model.forward(x), y);
    loss.backward();
    opt.step();
    result.losses.push(loss.item());
    result.steps = step + 1;
    if (step % 10 === 9 || step === STEPS - 1) {
      $('step').textContent = String(step + 1);
      $('loss').textContent = loss.item().toFixed(4);
      drawLoss(result.losses);
      // let the page paint between chunks of steps
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  result.stepsPerSecond = STEPS / ((performance.now() - start) / 1000);
  const correct = noGrad(() =>
    eq(argmax(model.forward(x), 1), y)
      .sum()
      .item(),
  );
  result.accuracy = correct / POINTS;
  $('accuracy').textContent = `${(result.accuracy * 100).toFixed(1)}%`;
  $('rate').textContent = result.stepsPerSecond.toFixed(1);
  drawBoundary(model, x, y);
}

function maxRelDiff(gpu: Tensor, cpu: Tensor): number {
  const g = gpu.cpu().flatten().tolist() as number[];
  const c = cpu.flatten().tolist() as number[];
  if (g.length !== c.length) return Infinity;
  return g.reduce((m, v, i) => Math.max(m, Math.abs(v - (c[i] ?? NaN)) / (1 + Math.abs(c[i] ?? NaN))), 0);
}

/** A few ops on the gpu device (gpu.js on WebGL2 in a browser), each compared with the cpu device. */
function gpuCheck(): GpuCheck {
  const info = gpuInfo();
  if (!info.available) throw new Error('the gpu device is not available');
  manualSeed(1);
  const a = randn([64, 32]);
  const b = randn([32, 16]);
  const ga = a.to('gpu');
  const gb = b.to('gpu');
  const ops: Record<string, number> = {
    matmul: maxRelDiff(ga.matmul(gb), a.matmul(b)),
    'add+mul': maxRelDiff(
      ga.slice(1, 0, 16).add(gb.slice(0, 0, 1).mul(2)),
      a.slice(1, 0, 16).add(b.slice(0, 0, 1).mul(2)),
    ),
    'exp,tanh': maxRelDiff(ga.tanh().exp(), a.tanh().exp()),
    'sum(1)': maxRelDiff(ga.sum(1), a.sum(1)),
    softmax: maxRelDiff(softmax(ga, 1), softmax(a, 1)),
  };
  $('gpu-mode').textContent = info.mode;
  $('gpu-check').textContent = Object.entries(ops)
    .map(([k, v]) => `${k} ${v.toExponential(1)}`)
    .join(', ');
  return { mode: info.mode, ops };
}

async function main(): Promise<void> {
  await train();
  $('status').textContent = 'running ops on gpu';
  await new Promise((resolve) => setTimeout(resolve, 0));
  result.gpu = gpuCheck();
}

main().then(
  () => {
    $('status').textContent = 'done';
    result.done = true;
  },
  (e: unknown) => {
    result.error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    $('status').textContent = `error: ${result.error}`;
    result.done = true;
    console.error(e);
  },
);
