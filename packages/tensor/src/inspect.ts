import { formatTensor } from './format.js';
import { Tensor } from './tensor.js';

/**
 * Note [Inspecting a tensor]
 * `console.log(t)` in Node (and `util.inspect(t)`) would list a tensor's fields: its storage
 * with the whole buffer under a view, autogradMeta with the graph behind it. Node looks for a
 * method under `Symbol.for('nodejs.util.inspect.custom')` first, so the tensor prints what
 * `toString()` prints, like `print(t)` in PyTorch. The symbol is taken from the global registry
 * rather than from `node:util`, so browser bundles stay free of Node modules; browsers'
 * consoles ignore it. Both methods are put on Tensor.prototype here, not in tensor.ts: printing
 * runs kernels (format.ts), and the kernel layer names Tensor, so tensor.ts imports none of it
 * (no import circle, scripts/check-import-cycles.mjs).
 */
Object.defineProperty(Tensor.prototype, 'toString', {
  value: function (this: Tensor): string {
    return formatTensor(this);
  },
  writable: true,
  configurable: true,
});
Object.defineProperty(Tensor.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value: function (this: Tensor): string {
    return this.toString();
  },
  writable: true,
  configurable: true,
});
