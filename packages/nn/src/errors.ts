export type NnErrorCode =
  | 'INVALID_ARGUMENT'
  | 'INVALID_SHAPE'
  | 'STATE_DICT'
  | 'KEY_ERROR'
  | 'INVALID_STATE';

/** Errors of @wiregrad/nn; messages are PyTorch's, word for word, where PyTorch has one. */
export class NnError extends Error {
  override readonly name = 'NnError';
  constructor(
    readonly code: NnErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** PyTorch's `torch.Size([2, 3])`, as its messages print shapes. */
export const torchSize = (shape: readonly number[]): string => `torch.Size([${shape.join(', ')}])`;
