// The model and its training: an MLP learns two rings on the cpu or the gpu device. The data
// and the initial weights come from the same seed on the cpu, then move, so both devices start
// from identical values and their losses can be compared step by step.
import {
  argmax,
  cat,
  cos,
  eq,
  manualSeed,
  mul,
  noGrad,
  ones,
  rand,
  sin,
  tensor,
  type Tensor,
  zeros,
} from '@wiregrad/autograd';
import { Linear, Sequential, Tanh, functional as F } from '@wiregrad/nn';
import { Adam } from '@wiregrad/nn/optim';

export type PlaygroundDevice = 'cpu' | 'gpu';
const POINTS = 200;
export const EXTENT = 1.6;

/** Two rings: class 0 of radius in [0, 0.5), class 1 of radius in [1, 1.5), POINTS/2 each. */
function rings(): { x: Tensor; y: Tensor } {
  const half = POINTS / 2;
  const angle = mul(rand([POINTS]), 2 * Math.PI);
  const radius = cat([mul(rand([half]), 0.5), rand([half]).mul(0.5).add(1)]);
  const x = cat([mul(cos(angle), radius).unsqueeze(1), mul(sin(angle), radius).unsqueeze(1)], 1);
  const y = cat([zeros([half], { dtype: 'int32' }), ones([half], { dtype: 'int32' })]);
  return { x, y };
}

export interface Training {
  device: PlaygroundDevice;
  points: number[][];
  labels: number[];
  /** one step of Adam; resolves to the step's loss */
  step(): number;
  accuracy(): number;
  /** the predicted class of each cell of an n x n grid over [-EXTENT, EXTENT]^2, row-major */
  boundary(n: number): number[];
}

export function training(device: PlaygroundDevice): Training {
  manualSeed(0);
  const data = rings();
  const model = new Sequential(new Linear(2, 16), new Tanh(), new Linear(16, 16), new Tanh(), new Linear(16, 2));
  model.to(device);
  const opt = new Adam(model.parameters(), { lr: 0.03 });
  const x = data.x.to(device);
  const y = data.y.to(device);
  return {
    device,
    points: data.x.tolist() as number[][],
    labels: data.y.tolist() as number[],
    step() {
      opt.zeroGrad();
      const loss = F.crossEntropy(model.forward(x), y);
      loss.backward();
      opt.step();
      return loss.item();
    },
    accuracy: () =>
      noGrad(() =>
        eq(argmax(model.forward(x), 1), y)
          .sum()
          .item(),
      ) / POINTS,
    boundary(n) {
      const grid: number[][] = [];
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++)
          grid.push([(j / (n - 1)) * 2 * EXTENT - EXTENT, (i / (n - 1)) * 2 * EXTENT - EXTENT]);
      return noGrad(() => argmax(model.forward(tensor(grid).to(device)), 1).tolist()) as number[];
    },
  };
}
