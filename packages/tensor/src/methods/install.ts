import { Tensor } from '../tensor.js';

/** Puts method forms of free functions on Tensor.prototype: `t.add(b)` calls `add(t, b)`. */
export function installMethods(fns: Record<string, (self: Tensor, ...args: never[]) => unknown>): void {
  for (const [name, fn] of Object.entries(fns)) {
    Object.defineProperty(Tensor.prototype, name, {
      value: function (this: Tensor, ...args: never[]) {
        return fn(this, ...args);
      },
      writable: true,
      configurable: true,
    });
  }
}
