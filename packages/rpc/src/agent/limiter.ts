/**
 * A counting semaphore: at most `size` requests are served at once (numWorkerThreads). A
 * finishing request hands its slot straight to the next waiter, so a newcomer can never slip
 * in between and exceed the bound.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  /** Nothing is being served. */
  get idle(): boolean {
    return this.active === 0;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((r) => this.waiting.push(r));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
