// The types of nn.js: the 0.1 surface of @wiregrad/autograd/nn, each name marked
// deprecated so editors strike it through. See Note [Deprecated nn and optim paths] in README.md.
import type * as nn from '@wiregrad/nn';

/** @deprecated Import `Module` from `@wiregrad/nn`; `@wiregrad/autograd/nn` goes away in the next minor release. */
export declare const Module: typeof nn.Module;
/** @deprecated Import `Module` from `@wiregrad/nn`; `@wiregrad/autograd/nn` goes away in the next minor release. */
export type Module = nn.Module;
/** @deprecated Import `Linear` from `@wiregrad/nn`; `@wiregrad/autograd/nn` goes away in the next minor release. */
export declare const Linear: typeof nn.Linear;
/** @deprecated Import `Linear` from `@wiregrad/nn`; `@wiregrad/autograd/nn` goes away in the next minor release. */
export type Linear = nn.Linear;
/** @deprecated Import `ReLU` from `@wiregrad/nn`; `@wiregrad/autograd/nn` goes away in the next minor release. */
export declare const ReLU: typeof nn.ReLU;
/** @deprecated Import `ReLU` from `@wiregrad/nn`; `@wiregrad/autograd/nn` goes away in the next minor release. */
export type ReLU = nn.ReLU;
/** @deprecated Import `Sequential` from `@wiregrad/nn`; `@wiregrad/autograd/nn` goes away in the next minor release. */
export declare const Sequential: typeof nn.Sequential;
/** @deprecated Import `Sequential` from `@wiregrad/nn`; `@wiregrad/autograd/nn` goes away in the next minor release. */
export type Sequential = nn.Sequential;
/** @deprecated Import `mseLoss` from `@wiregrad/nn` (or `functional.mseLoss`); `@wiregrad/autograd/nn` goes away in the next minor release. */
export declare const mseLoss: typeof nn.mseLoss;
/** @deprecated Import `crossEntropy` from `@wiregrad/nn` (or `functional.crossEntropy`); `@wiregrad/autograd/nn` goes away in the next minor release. */
export declare const crossEntropy: typeof nn.crossEntropy;
/** @deprecated Import `FactoryOptions` from `@wiregrad/nn`. */
export type FactoryOptions = nn.FactoryOptions;
/** @deprecated Import `Reduction` from `@wiregrad/nn`. */
export type Reduction = nn.Reduction;
