// The types of optim.js: the 0.1 surface of @wiregrad/autograd/optim, each name marked
// deprecated so editors strike it through. See Note [Deprecated nn and optim paths] in README.md.
import type * as optim from '@wiregrad/nn/optim';

/** @deprecated Import `Optimizer` from `@wiregrad/nn/optim`; `@wiregrad/autograd/optim` goes away in the next minor release. */
export declare const Optimizer: typeof optim.Optimizer;
/** @deprecated Import `Optimizer` from `@wiregrad/nn/optim`; `@wiregrad/autograd/optim` goes away in the next minor release. */
export type Optimizer = optim.Optimizer;
/** @deprecated Import `SGD` from `@wiregrad/nn/optim`; `@wiregrad/autograd/optim` goes away in the next minor release. */
export declare const SGD: typeof optim.SGD;
/** @deprecated Import `SGD` from `@wiregrad/nn/optim`; `@wiregrad/autograd/optim` goes away in the next minor release. */
export type SGD = optim.SGD;
/** @deprecated Import `Adam` from `@wiregrad/nn/optim`; `@wiregrad/autograd/optim` goes away in the next minor release. */
export declare const Adam: typeof optim.Adam;
/** @deprecated Import `Adam` from `@wiregrad/nn/optim`; `@wiregrad/autograd/optim` goes away in the next minor release. */
export type Adam = optim.Adam;
/** @deprecated Import `SGDOptions` from `@wiregrad/nn/optim`. */
export type SGDOptions = optim.SGDOptions;
/** @deprecated Import `AdamOptions` from `@wiregrad/nn/optim`. */
export type AdamOptions = optim.AdamOptions;
