// @wiregrad/autograd/optim is deprecated: optim moved to @wiregrad/nn/optim. See Note [Deprecated nn and optim paths] in README.md.
export { Optimizer, SGD, Adam } from '@wiregrad/nn/optim';
