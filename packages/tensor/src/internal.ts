/**
 * Note [Tensor's internal entry point]
 * `@wiregrad/tensor/internal` holds the install-once slots @wiregrad/autograd fills (Note [Hook
 * slots install once]): the dispatcher's autograd hooks, the autograd tensor methods and the
 * tensor scope of the engine's owned gradients; the grad slot's accessors for library code
 * (Note [Gradients nobody else saw]); and `installOnce`, which fills them and rpc's
 * slots. Not public API: no semver promise, and filling
 * a slot with anything but autograd's own breaks graph recording. Applications import
 * `@wiregrad/tensor` (or `@wiregrad/autograd`).
 */
export { dropGrad, installAutogradMethods, peekGrad, setTensorScope, setUnseenGrad } from './tensor.js';
export { setAutogradHooks } from './dispatch.js';
export { installOnce } from './installOnce.js';
export type { AutogradHooks } from './dispatch.js';
export * from './index.js';
