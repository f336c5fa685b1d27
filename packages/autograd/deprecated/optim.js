// @wiregrad/autograd/optim is deprecated: optim moved to @wiregrad/nn/optim. See Note [Deprecated nn and optim paths] in README.md.
// once per process (a module is evaluated once), and never where there is no process (a page)
if (typeof process === 'object' && typeof process.emitWarning === 'function')
  process.emitWarning(
    "@wiregrad/autograd/optim is deprecated: import from '@wiregrad/nn/optim'; this path goes away in the next minor release",
    { type: 'DeprecationWarning', code: 'WIREGRAD_DEP_AUTOGRAD_OPTIM' },
  );
export { Optimizer, SGD, Adam } from '@wiregrad/nn/optim';
