// @wiregrad/nn and its optim subpath: a small regression trained with SGD.
import { manualSeed, randn } from '@wiregrad/autograd';
import { Linear, ReLU, Sequential, mseLoss } from '@wiregrad/nn';
import { SGD } from '@wiregrad/nn/optim';

manualSeed(0);
const model = new Sequential(new Linear(2, 16), new ReLU(), new Linear(16, 1));
const opt = new SGD(model.parameters(), { lr: 0.05, momentum: 0.9 });
const x = randn([64, 2]);
const y = x.select(1, 0).mul(2).sub(x.select(1, 1)).unsqueeze(1);
const losses: number[] = [];
for (let step = 0; step < 200; step++) {
  opt.zeroGrad();
  const loss = mseLoss(model.forward(x), y);
  loss.backward();
  opt.step();
  losses.push(loss.item());
}
console.log(JSON.stringify({ first: losses[0], last: losses[losses.length - 1], params: model.parameters().length }));
