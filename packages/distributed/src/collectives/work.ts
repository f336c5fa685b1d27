import type { ProcessGroup } from '../processGroup.js';

/** What every collective takes: the group (default: the world) and whether to return a Work. */
export interface CollectiveOptions {
  group?: ProcessGroup;
  asyncOp?: boolean;
}

/**
 * torch.distributed's Work: the handle of a collective started with `{ asyncOp: true }`.
 * `await work.wait()` resolves (true) when it finished and rejects with its error.
 */
export class Work {
  private completed = false;
  private readonly done: Promise<true>;

  constructor(result: Promise<void>) {
    this.done = result.then(
      () => ((this.completed = true), true as const),
      (e: unknown) => {
        this.completed = true;
        throw e;
      },
    );
    this.done.catch(() => {}); // a Work nobody waits on must not crash the process
  }

  wait(): Promise<true> {
    return this.done;
  }

  isCompleted(): boolean {
    return this.completed;
  }
}

/** A collective's result: its promise, or with `asyncOp` a Work over it. */
export type Launched<O> = O extends { asyncOp: true } ? Work : Promise<void>;

/**
 * Starts `run` now (its sequence number is taken synchronously, so collectives started one after
 * another keep their order: Note [Collective mailbox]); argument errors reject, as every failure.
 */
export function launch<O extends CollectiveOptions>(opts: O | undefined, run: () => Promise<void>): Launched<O> {
  let p: Promise<void>;
  try {
    p = run();
  } catch (e) {
    p = Promise.reject(e);
  }
  return (opts?.asyncOp ? new Work(p) : p) as Launched<O>;
}
