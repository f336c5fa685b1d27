// @wiregrad/autograd/nn is deprecated: nn moved to @wiregrad/nn. See Note [Deprecated nn and optim paths] in README.md.
// once per process (a module is evaluated once), and never where there is no process (a page)
if (typeof process === 'object' && typeof process.emitWarning === 'function')
  process.emitWarning(
    "@wiregrad/autograd/nn is deprecated: import from '@wiregrad/nn'; this path goes away in the next minor release",
    { type: 'DeprecationWarning', code: 'WIREGRAD_DEP_AUTOGRAD_NN' },
  );
export { Module, Linear, ReLU, Sequential, mseLoss, crossEntropy } from '@wiregrad/nn';
