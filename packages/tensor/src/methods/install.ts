import { Tensor } from '../tensor.js';

/**
 * The method form of each function of `F`: its first parameter, a `Self` (the tensor), becomes
 * `this`. `Self` is a parameter, not this module's Tensor, so the declaration files that use it
 * name Tensor themselves and keep its import (the functions' inferred types print it too).
 */
export type MethodsOf<F, Self> = {
  [K in keyof F]: F[K] extends (self: Self, ...args: infer A) => infer R ? (...args: A) => R : never;
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
