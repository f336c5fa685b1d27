// The playground page: pick a device, train the ring classifier live (loss curve, steps/s, decision
// boundary), and see which gpu.js mode and WebGL backend the gpu device uses. Every finished run
// is published on `window.playground` for the spec (test/page.test.ts).
import { drawBoundary, drawLoss } from './draw.js';
import { type GpuBackend, gpuBackend } from './gpuBackend.js';
import { EXTENT, type PlaygroundDevice, training } from './train.js';

export interface Run {
  device: PlaygroundDevice;
  steps: number;
  losses: number[];
  accuracy: number;
  stepsPerSecond: number;
}

export interface PlaygroundState {
  busy: boolean;
  error: string | null;
  runs: Run[];
  gpu: GpuBackend | null;
}

declare global {
  interface Window {
    playground: PlaygroundState;
  }
}

const state: PlaygroundState = { busy: false, error: null, runs: [], gpu: null };
window.playground = state;

function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no #${id} in the page`);
  return el as T;
}
const paint = () => new Promise((resolve) => setTimeout(resolve, 0));

async function showGpu(): Promise<void> {
  $('gpu-mode').textContent = 'loading gpu.js';
  const gpu = await gpuBackend();
  state.gpu = gpu;
  $('gpu-mode').textContent = gpu.available
    ? `${gpu.mode}${gpu.accelerated ? '' : ' (not accelerated: slower than the cpu device)'}`
    : 'unavailable';
  $('gpu-backend').textContent = gpu.renderer;
}

async function train(device: PlaygroundDevice, steps: number): Promise<void> {
  if (device === 'gpu') await showGpu();
  $('status').textContent = `training on ${device}`;
  $('run-device').textContent = device;
  const t = training(device);
  const losses: number[] = [];
  const start = performance.now();
  for (let step = 1; step <= steps; step++) {
    losses.push(t.step());
    if (step % 10 === 0 || step === steps) {
      $('step').textContent = String(step);
      $('loss').textContent = losses[step - 1]!.toFixed(4);
      $('rate').textContent = (step / ((performance.now() - start) / 1000)).toFixed(1);
      drawLoss($('loss-chart'), losses, steps);
      await paint();
    }
  }
  const stepsPerSecond = steps / ((performance.now() - start) / 1000);
  const accuracy = t.accuracy();
  $('accuracy').textContent = `${(accuracy * 100).toFixed(1)}%`;
  drawBoundary($('boundary'), { n: 40, extent: EXTENT, classes: t.boundary(40) }, t.points, t.labels);
  state.runs.push({ device, steps, losses, accuracy, stepsPerSecond });
}

function onTrain(): void {
  if (state.busy) return;
  state.busy = true;
  const device = $<HTMLSelectElement>('device').value as PlaygroundDevice;
  const steps = Number($<HTMLInputElement>('steps').value);
  train(device, steps).then(
    () => {
      $('status').textContent = 'done';
      state.busy = false;
    },
    (e: unknown) => {
      state.error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      $('status').textContent = `error: ${state.error}`;
      state.busy = false;
      console.error(e);
    },
  );
}

$('train').addEventListener('click', onTrain);
$('device').addEventListener('change', () => {
  if ($<HTMLSelectElement>('device').value === 'gpu') void showGpu();
});
