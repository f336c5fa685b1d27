export type AutogradErrorCode =
  | 'NO_GRAD_FN'
  | 'NOT_SCALAR'
  | 'GRAPH_FREED'
  | 'INPLACE_MODIFIED'
  | 'LEAF_INPLACE'
  | 'MULTI_OUTPUT_VIEW_INPLACE'
  | 'UNUSED_INPUT'
  | 'INVALID_GRADIENT'
  | 'NAN_GRADIENT'
  | 'NOT_IMPLEMENTED'
  | 'INVALID_STATE'
  | 'CHECKPOINT'
  | 'INFERENCE_TENSOR'
  | 'INVALID_ARGUMENT'
  | 'DOUBLE_BACKWARD';

/** Errors of the autograd engine; messages are PyTorch's, word for word, where PyTorch has one. */
export class AutogradError extends Error {
  override readonly name = 'AutogradError';
  constructor(
    readonly code: AutogradErrorCode,
    message: string,
  ) {
    super(message);
  }
}
