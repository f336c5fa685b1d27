export type DistAutogradErrorCode = 'NO_CONTEXT' | 'NESTED_CONTEXT' | 'INVALID_ROOT' | 'ID_OVERFLOW' | 'BACKWARD' | 'NOT_INITIALIZED' | 'OPTIMIZER';

export class DistAutogradError extends Error {
  override readonly name = 'DistAutogradError';
  constructor(
    readonly code: DistAutogradErrorCode,
    message: string,
  ) {
    super(message);
  }
}
