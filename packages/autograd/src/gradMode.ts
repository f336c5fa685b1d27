/**
 * Note [Grad mode]
 * PyTorch keeps grad mode thread-local; a JS isolate has one thread, so it is module state.
 * The scoping helpers restore the previous mode when `fn` returns (or throws). They scope
 * synchronous code: the mode of an `await`ed continuation is whatever is set when it runs.
 */
let gradEnabled = true;
let inferenceEnabled = false;

export function isGradEnabled(): boolean {
  return gradEnabled;
}

export function setGradEnabled(enabled: boolean): void {
  gradEnabled = enabled;
}

function withMode<T>(grad: boolean, inference: boolean, fn: () => T): T {
  const prev = [gradEnabled, inferenceEnabled] as const;
  gradEnabled = grad;
  inferenceEnabled = inference;
  try {
    return fn();
  } finally {
    [gradEnabled, inferenceEnabled] = prev;
  }
}

export const noGrad = <T>(fn: () => T): T => withMode(false, inferenceEnabled, fn);
export const enableGrad = <T>(fn: () => T): T => withMode(true, inferenceEnabled, fn);

/** No graph is recorded and the results are inference tensors: they can never be saved for backward. */
export const inferenceMode = <T>(fn: () => T): T => withMode(false, true, fn);
export const isInferenceMode = (): boolean => inferenceEnabled;
