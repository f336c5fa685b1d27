import { describe, expect, it } from 'vitest';
import { Edge, Node, backward, enableGrad, getEngine, tensor, type Grads } from '../index.js';
import { MAX_DEPTH } from '../internal.js';

/** Calls backward() from inside its own apply, `levels` times deep. */
class Reentrant extends Node {
  constructor(
    private readonly levels: number,
    private readonly log: number[],
  ) {
    super();
  }
  name() {
    return 'Reentrant';
  }
  apply(grads: Grads): Grads {
    if (this.levels > 0) {
      const x = tensor([1], { requiresGrad: true });
      const inner = new Reentrant(this.levels - 1, this.log);
      inner.addInputMetadata(x);
      inner.setNextEdges([]);
      getEngine().execute([new Edge(inner, 0)], [tensor([1])]);
    }
    this.log.push(this.levels);
    return this.nextEdges.map(() => grads[0] ?? null);
  }
}

describe('reentrant backward', () => {
  it('nests deeper than MAX_DEPTH and hands off to a pool lane', () => {
    const log: number[] = [];
    const engine = getEngine();
    const before = engine.poolHandOffs;
    const root = new Reentrant(MAX_DEPTH + 10, log);
    root.addInputMetadata(tensor([0]));
    engine.execute([new Edge(root, 0)], [tensor([1])]);
    expect(log).toHaveLength(MAX_DEPTH + 11);
    expect(log[0]).toBe(0); // the deepest backward finished first
    expect(engine.poolHandOffs).toBeGreaterThan(before);
  });

  it('a backward inside a hook (reentrant) gives the right gradients', () => {
    const w = tensor([3], { requiresGrad: true });
    const x = tensor([2], { requiresGrad: true });
    const y = x.mul(2);
    (y.gradFn as Node).registerPrehook((g) => {
      // hooks run with grad mode off, as in PyTorch: re-enable it to build the inner graph
      enableGrad(() => backward(w.mul(w).sum()));
      return g;
    });
    y.sum().backward();
    expect(x.grad!.tolist()).toEqual([2]);
    expect(w.grad!.tolist()).toEqual([6]);
  });

  it('an error thrown on a device lane reaches the caller', async () => {
    const x = tensor([1], { requiresGrad: true });
    const y = x.mul(2);
    (y.gradFn as Node).registerPrehook(() => {
      throw new Error('boom in backward');
    });
    expect(() => y.sum().backward()).toThrow('boom in backward');
    const z = x.mul(3);
    (z.gradFn as Node).registerPrehook(() => {
      throw new Error('boom async');
    });
    await expect(z.sum().backwardAsync()).rejects.toThrow('boom async');
  });

  it('backwardAsync computes the same gradients as backward', async () => {
    const a = tensor([1, 2], { requiresGrad: true });
    await a.mul(a).sum().backwardAsync();
    expect(a.grad!.tolist()).toEqual([2, 4]);
  });
});

/** Awaits a nested backwardAsync inside its apply. */
class AsyncReentrant extends Node {
  constructor(
    private readonly levels: number,
    private readonly log: number[],
  ) {
    super();
  }
  name() {
    return 'AsyncReentrant';
  }
  async apply(grads: Grads): Promise<Grads> {
    if (this.levels > 0) {
      const inner = new AsyncReentrant(this.levels - 1, this.log);
      inner.addInputMetadata(tensor([0]));
      await getEngine().executeAsync([new Edge(inner, 0)], [tensor([1])]);
    }
    this.log.push(this.levels);
    return this.nextEdges.map(() => grads[0] ?? null);
  }
}

describe('reentrant backwardAsync past MAX_DEPTH', () => {
  it('continues on a fresh stack every MAX_DEPTH levels, so any depth completes', async () => {
    const log: number[] = [];
    const engine = getEngine();
    const before = engine.poolHandOffs;
    const depth = 1000 + 7; // deeper than synchronous reentrancy can go on V8's stack
    const root = new AsyncReentrant(depth, log);
    root.addInputMetadata(tensor([0]));
    await engine.executeAsync([new Edge(root, 0)], [tensor([1])]);
    expect(log).toHaveLength(depth + 1);
    expect(log[0]).toBe(0);
    expect(log[depth]).toBe(depth);
    expect(engine.poolHandOffs - before).toBe(Math.floor(depth / MAX_DEPTH));
  });

  it('a node that awaits cannot run in a synchronous backward: a clear error', () => {
    const root = new AsyncReentrant(1, []);
    root.addInputMetadata(tensor([0]));
    expect(() => getEngine().execute([new Edge(root, 0)], [tensor([1])])).toThrow(
      'AsyncReentrant.apply returned a Promise; nodes that await need backwardAsync()',
    );
  });
});
