// The two-line program, plus a matmul big enough for the WebAssembly kernels and the
// thread pool: every tensor method exists only if the modules registering it ran.
import { arange, tensor } from '@wiregrad/tensor';

const y = tensor([
  [1, 2],
  [3, 4],
]).matmul(tensor([[5], [6]]));
const big = arange(256 * 256)
  .reshape([256, 256])
  .to('float32')
  .div(65536);
const prod = big.matmul(big.t());
console.log(
  JSON.stringify({
    y: y.tolist(),
    relu: tensor([-1, 2]).relu().tolist(),
    bigCorner: prod.select(0, 0).select(0, 0).item(),
    bigShape: prod.shape,
  }),
);
