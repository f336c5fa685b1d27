import { RpcError } from './errors.js';

type State<T> = { kind: 'pending' } | { kind: 'ok'; value: T } | { kind: 'error'; error: unknown };

/**
 * PyTorch's torch.futures.Future, as a PromiseLike: `then` chains (a callback's error
 * fails the chained future), `wait()` resolves to the value or rejects with the error,
 * `done()` is true once completed either way, and a future completes only once.
 */
export class Future<T> implements PromiseLike<T> {
  private state: State<T> = { kind: 'pending' };
  private readonly promise: Promise<T>;
  private resolveFn!: (v: T) => void;
  private rejectFn!: (e: unknown) => void;

  constructor() {
    this.promise = new Promise<T>((res, rej) => {
      this.resolveFn = res;
      this.rejectFn = rej;
    });
    this.promise.catch(() => {});
  }

  static resolved<T>(value: T): Future<T> {
    const f = new Future<T>();
    f.setResult(value);
    return f;
  }

  static from<T>(p: PromiseLike<T>): Future<T> {
    const f = new Future<T>();
    p.then(
      (v) => f.setResult(v),
      (e) => f.setError(e),
    );
    return f;
  }

  setResult(value: T): void {
    this.complete();
    this.state = { kind: 'ok', value };
    this.resolveFn(value);
  }

  setError(error: unknown): void {
    this.complete();
    this.state = { kind: 'error', error };
    this.rejectFn(error);
  }

  private complete(): void {
    if (this.state.kind !== 'pending') throw new RpcError('FUTURE', 'Future can only be marked completed once.');
  }

  done(): boolean {
    return this.state.kind !== 'pending';
  }

  /** The value of a completed future; throws its error, or if it has not completed. */
  value(): T {
    if (this.state.kind === 'ok') return this.state.value;
    if (this.state.kind === 'error') throw this.state.error;
    throw new RpcError('FUTURE', 'Future has not completed yet; await it or call wait()');
  }

  wait(): Promise<T> {
    return this.promise;
  }

  then<R1 = T, R2 = never>(
    onFulfilled?: ((v: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((e: unknown) => R2 | PromiseLike<R2>) | null,
  ): Future<R1 | R2> {
    return Future.from(this.promise.then(onFulfilled, onRejected));
  }

  catch<R = never>(onRejected: (e: unknown) => R | PromiseLike<R>): Future<T | R> {
    return this.then(undefined, onRejected);
  }
}

/** Waits for every future; rejects with the first error (torch.futures.wait_all). */
export function waitAll<T>(futures: readonly PromiseLike<T>[]): Promise<T[]> {
  return Promise.all(futures);
}
