// @wiregrad/autograd/nn is deprecated: nn moved to @wiregrad/nn. See Note [Deprecated nn and optim paths] in README.md.
export { Module, Linear, ReLU, Sequential, mseLoss, crossEntropy } from '@wiregrad/nn';
