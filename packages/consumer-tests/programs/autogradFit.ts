// Gradients (so the gradient rules registered) and a small fit by gradient descent.
import { grad, noGrad, tensor } from '@wiregrad/autograd';

const x = tensor(2, { dtype: 'float64', requiresGrad: true });
const [dy] = grad(x.pow(3), x, { createGraph: true }); // 3x^2 = 12
const [d2y] = grad(dy!, x); // 6x = 12

const xs = tensor([1, 2, 3, 4]);
const ys = xs.mul(3);
const w = tensor(0, { requiresGrad: true });
const losses: number[] = [];
for (let step = 0; step < 30; step++) {
  const loss = xs.mul(w).sub(ys).pow(2).mean();
  loss.backward();
  losses.push(loss.item());
  noGrad(() => w.sub_(w.grad!.mul(0.05)));
  w.grad = null;
}
console.log(
  JSON.stringify({ dy: dy!.item(), d2y: d2y!.item(), w: w.item(), first: losses[0], last: losses[losses.length - 1] }),
);
