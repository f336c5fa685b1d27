export type NnErrorCode =
  'INVALID_ARGUMENT' | 'INVALID_SHAPE' | 'STATE_DICT' | 'KEY_ERROR' | 'INVALID_STATE' | 'UNSUPPORTED' | 'SAFETENSORS';

/** Errors of @wiregrad/nn; messages are PyTorch's, word for word, where PyTorch has one, with shapes and options as the JS API spells them. */
export class NnError extends Error {
  override readonly name = 'NnError';
  constructor(
    readonly code: NnErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A shape in a message as the JS API writes it, `[2, 3]` (PyTorch's messages print `torch.Size([2, 3])`). */
export const shapeText = (shape: readonly number[]): string => `[${shape.join(', ')}]`;

/** A number as Python's repr prints it in PyTorch's module printouts: `1e-05`, `0.1`, `1.0`. */
export function pyFloat(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return x.toFixed(1);
  if (x !== 0 && (Math.abs(x) < 1e-4 || Math.abs(x) >= 1e16))
    return x.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  return String(x);
}
