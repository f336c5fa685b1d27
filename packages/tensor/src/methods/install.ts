import { Tensor } from '../tensor.js';

/** The method form of each function of `F`: its first parameter (the tensor) becomes `this`. */
export type MethodsOf<F> = {
  [K in keyof F]: F[K] extends (self: Tensor, ...args: infer A) => infer R ? (...args: A) => R : never;
};

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
