// The playground page: TensorFlow Playground's experiment (a dataset, a network, its training
// settings) trained live by wiregrad on the cpu, the gpu or both devices in lockstep. Play, pause,
// step and reset; the decision boundary and the loss charts are redrawn as it trains, and the URL
// always holds the settings (a shared link opens the same experiment). Everything the page shows
// is also published on `window.playground` for the spec (test/page.test.ts).
import { drawBoundary } from './boundary.js';
import { type Curves, drawDifference, drawLoss } from './chart.js';
import { $, showSettings, watchControls } from './controls.js';
import { type Split, makeSplit } from './datasets.js';
import { type GpuBackend, gpuBackend } from './gpuBackend.js';
import { type Field, POINTS, type Settings, fromQuery, toQuery } from './settings.js';
import { type PlaygroundDevice, type Trainer, trainer } from './train.js';

export interface PlaygroundState {
  settings: Settings;
  /** the controls whose text is not valid now, with why; play and step wait until there are none */
  invalid: Partial<Record<Field, string>>;
  playing: boolean;
  /** a reset is under way (gpu.js loading, the model being built) */
  busy: boolean;
  step: number;
  curves: Partial<Record<PlaygroundDevice, Curves>>;
  accuracy: Partial<Record<PlaygroundDevice, { train: number; test: number }>>;
  /** the largest |cpu - gpu| of either loss so far, when both devices train */
  largestDifference: number | null;
  /** how many times the decision boundary has been drawn since the page opened */
  boundaryDraws: number;
  stepsPerSecond: number | null;
  gpu: GpuBackend | null;
  error: string | null;
}

declare global {
  interface Window {
    playground: PlaygroundState;
  }
}

const BOUNDARY_CELLS = 32;
/** how long one burst of steps may run before the page is redrawn (Note [Steps between frames]) */
const FRAME_MS = 50;

const initial = fromQuery(location.search);
const state: PlaygroundState = {
  settings: initial.settings,
  invalid: { ...initial.errors },
  playing: false,
  busy: false,
  step: 0,
  curves: {},
  accuracy: {},
  largestDifference: null,
  boundaryDraws: 0,
  stepsPerSecond: null,
  gpu: null,
  error: null,
};
window.playground = state;

let split: Split = { train: { x: [], y: [] }, test: { x: [], y: [] } };
let trainers: Trainer[] = [];
/** bumped by every reset: a reset or a burst of steps started before the latest reset stops */
let generation = 0;

const devices = (s: Settings): PlaygroundDevice[] => (s.device === 'both' ? ['cpu', 'gpu'] : [s.device]);
const text = (id: string, value: string) => ($(id).textContent = value);
const fixed = (v: number | undefined, digits: number) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(digits));

function fail(e: unknown): void {
  state.error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  state.playing = false;
  state.busy = false;
  text('status', `error: ${state.error}`);
  updateButtons();
  console.error(e);
}

function updateButtons(): void {
  const blocked = state.busy || Object.keys(state.invalid).length > 0 || state.error !== null;
  $<HTMLButtonElement>('play').disabled = blocked;
  $<HTMLButtonElement>('step').disabled = blocked;
  $<HTMLButtonElement>('reset').disabled = state.busy;
  text('play', state.playing ? 'pause' : 'play');
  $('play').setAttribute('aria-pressed', String(state.playing));
  const invalid = Object.keys(state.invalid);
  if (invalid.length > 0) text('status', `fix ${invalid.join(', ')} to train`);
  else if (!state.busy && state.error === null)
    text('status', state.playing ? 'training' : state.step === 0 ? 'ready' : 'paused');
}

/** Shows the gpu's mode and WebGL renderer; the gpu device's trainer is built after this. */
async function showGpu(): Promise<GpuBackend> {
  text('gpu-mode', 'loading gpu.js');
  const gpu = await gpuBackend();
  state.gpu = gpu;
  text(
    'gpu-mode',
    gpu.available
      ? `${gpu.mode}${gpu.accelerated ? '' : ' (not accelerated: slower than the cpu device)'}`
      : 'unavailable',
  );
  text('gpu-backend', gpu.renderer);
  return gpu;
}

function redraw(): void {
  drawLoss($('loss-chart'), state.curves);
  state.largestDifference = drawDifference($('difference-chart'), state.curves);
  const first = trainers[0];
  if (first) {
    drawBoundary($('boundary'), first.probabilities(BOUNDARY_CELLS), split.train, split.test);
    state.boundaryDraws++;
  }
  const shown = state.curves[first?.device ?? 'cpu'];
  const accuracy = state.accuracy[first?.device ?? 'cpu'];
  text('step-count', String(state.step));
  text('train-loss', fixed(shown?.train.at(-1), 4));
  text('test-loss', fixed(shown?.test.at(-1), 4));
  text('accuracy', accuracy ? `${fixed(accuracy.train * 100, 1)}% / ${fixed(accuracy.test * 100, 1)}%` : '-');
  text('rate', fixed(state.stepsPerSecond ?? undefined, 1));
  text('difference', state.largestDifference === null ? '-' : state.largestDifference.toExponential(2));
}

/** Builds the data and a fresh model on each device from the settings, at step 0. */
async function reset(): Promise<void> {
  const mine = ++generation;
  state.playing = false;
  state.busy = true;
  state.error = null;
  text('status', 'building the model');
  updateButtons();
  const s = state.settings;
  if (s.device !== 'cpu') {
    const gpu = await showGpu();
    if (mine !== generation) return;
    if (!gpu.available) throw new Error('the gpu device is unavailable in this browser: pick cpu');
  }
  split = makeSplit(s.dataset, POINTS, s.noise, s.trainPercent, s.seed);
  trainers = devices(s).map((d) => trainer(s, split, d));
  state.step = 0;
  state.curves = Object.fromEntries(trainers.map((t) => [t.device, { train: [], test: [] }]));
  state.accuracy = {};
  state.stepsPerSecond = null;
  state.busy = false;
  redraw();
  updateButtons();
}

/** One step on every device, and the losses it leaves. */
function step(): void {
  for (const t of trainers) {
    t.step();
    const e = t.evaluate();
    const c = state.curves[t.device]!;
    c.train.push(e.train);
    c.test.push(e.test);
    state.accuracy[t.device] = { train: e.trainAccuracy, test: e.testAccuracy };
  }
  state.step++;
}

/**
 * Note [Steps between frames]
 * While playing, the page steps in bursts of at most FRAME_MS (at least one step), then redraws
 * the charts and the decision boundary and yields to the browser, so the boundary moves as it
 * trains and pause, reset and the controls answer within a frame. A burst checks `generation`
 * and `playing` before each step: a reset or pause stops it between two steps, never inside one.
 */
async function play(): Promise<void> {
  const mine = generation;
  while (state.playing && mine === generation) {
    const start = performance.now();
    const before = state.step;
    do step();
    while (state.playing && mine === generation && performance.now() - start < FRAME_MS);
    state.stepsPerSecond = (state.step - before) / ((performance.now() - start) / 1000);
    redraw();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

function guard(f: () => void | Promise<void>): () => void {
  return () => {
    try {
      void Promise.resolve(f()).catch(fail);
    } catch (e) {
      fail(e);
    }
  };
}

$('play').addEventListener(
  'click',
  guard(async () => {
    if (state.busy) return;
    state.playing = !state.playing;
    updateButtons();
    if (state.playing) await play();
    updateButtons();
  }),
);
$('step').addEventListener(
  'click',
  guard(() => {
    if (state.busy) return;
    state.playing = false;
    step();
    redraw();
    updateButtons();
  }),
);
$('reset').addEventListener('click', guard(reset));

function shareLink(): void {
  const url = `${location.pathname}${toQuery(state.settings)}`;
  history.replaceState(null, '', url);
  $<HTMLAnchorElement>('share').href = location.href;
}

watchControls(
  (field, value, committed) => {
    delete state.invalid[field];
    if (!committed) return updateButtons();
    const same = JSON.stringify(state.settings[field]) === JSON.stringify(value);
    state.settings = { ...state.settings, [field]: value };
    shareLink();
    if (!same || state.error !== null) guard(reset)();
    else updateButtons();
  },
  (field, error) => {
    state.invalid[field] = error;
    state.playing = false;
    updateButtons();
  },
);

showSettings(state.settings, state.invalid, new URLSearchParams(location.search));
if (Object.keys(state.invalid).length === 0) shareLink();
else $<HTMLAnchorElement>('share').href = `${location.pathname}${toQuery(state.settings)}`;
guard(reset)();
