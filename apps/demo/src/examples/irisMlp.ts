import { manualSeed, type Tensor } from '@wiregrad/autograd';
import { Linear, ReLU, Sequential, functional as F } from '@wiregrad/nn';

let model: Sequential | null = null;

/** The parameter server's MLP (4-16-3), made on first use from the trainers' seed (they all send the same one). */
export function irisModel(seed = 0): Sequential {
  if (!model) {
    manualSeed(seed);
    model = new Sequential(new Linear(4, 16), new ReLU(), new Linear(16, 3));
  }
  return model;
}

/** irisModel()'s forward with the given parameters, in parameters() order. */
export function irisForward(p: readonly Tensor[], x: Tensor): Tensor {
  return F.linear(F.linear(x, p[0]!, p[1]!, { activation: 'relu' }), p[2]!, p[3]!);
}
