/** PyTorch's WorkerInfo: a worker's name and id (its rank). Interned per agent, so equal infos are identical. */
export class WorkerInfo {
  constructor(
    readonly name: string,
    readonly id: number,
  ) {}

  toString(): string {
    return `WorkerInfo(id=${this.id}, name=${this.name})`;
  }
}

const NAME_RE = /^[A-Za-z0-9_:-]+$/;

/** PyTorch's worker name checks (charset, non-empty, shorter than 128). */
export function validateWorkerName(name: unknown): string | null {
  if (typeof name !== 'string') return `Worker name must be a string, got ${typeof name}`;
  if (name.length === 0) return 'Worker name must be non-empty';
  if (name.length >= 128) return `RPC worker name ${name.slice(0, 20)}... is not shorter than 128 characters`;
  if (!NAME_RE.test(name)) return `Worker name must match ^[A-Za-z0-9-_:]*$, got ${name}`;
  return null;
}
