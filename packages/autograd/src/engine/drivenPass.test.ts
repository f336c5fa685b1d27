import { describe, expect, it } from 'vitest';
import { AutogradError, onesLike, queueCallback, tensor, type Node, type Tensor } from '../index.js';
import { GraphRoot, gradientEdge, openPass } from '../internal.js';
import { RecvLike, SendLike } from '../__tests__/testNodes.js';

/** A GraphRoot seeding each scalar root with ones, as a distributed backward starts. */
const rootOf = (...roots: Tensor[]) =>
  new GraphRoot(
    roots.map((t) => gradientEdge(t)),
    roots.map((t) => onesLike(t)),
  );

describe('Note [Driving a pass]: a pass its caller runs once per arrival of gradients', () => {
  it('runs from the root and from each start in turn, leaf gradients into a callback, held open until closed', () => {
    const x = tensor([1, 2], { requiresGrad: true });
    const w = tensor([3, 4], { requiresGrad: true });
    const send1 = new SendLike([x.mul(2)]);
    const send2 = new SendLike([x.mul(w)]);
    const r = tensor([5, 6]);
    const recv = new RecvLike([r]); // r came from another worker
    const loss = r.mul(x).sum();
    const root = rootOf(loss);
    const grads = new Map<Tensor, Tensor>();
    const pass = openPass({
      starts: [root, send1, send2],
      isOutput: (n) => n instanceof RecvLike,
      onLeafGrad: (v, g) => grads.set(v, grads.has(v) ? grads.get(v)!.add(g) : g),
    });
    expect(pass.nodes.has(recv)).toBe(true);
    pass.hold();
    pass.run(root);
    expect(recv.received[0]!.tolist()).toEqual([1, 2]); // d loss / d r = x
    send1.grads = [tensor([1, 1])];
    pass.run(send1);
    send2.grads = [tensor([1, 10])];
    pass.run(send2);
    expect(pass.completed).toBe(false);
    pass.close();

    expect(pass.completed).toBe(true);
    expect(pass.failed).toBe(false);
    expect(grads.get(x)!.tolist()).toEqual([5 + 2 + 3, 6 + 2 + 40]);
    expect(grads.get(w)!.tolist()).toEqual([1, 20]);
    expect(x.grad).toBeNull();
    expect(w.grad).toBeNull();
  });

  it('without a leaf callback, leaves accumulate into .grad; an unheld pass completes after its run', () => {
    const x = tensor([1, 2], { requiresGrad: true });
    const loss = x.mul(x).sum();
    const order: string[] = [];
    (loss.gradFn as Node).registerHook(() => {
      queueCallback(() => order.push('queued by a node'));
    });
    const root = rootOf(loss);
    const pass = openPass({ starts: [root], onFinal: () => order.push('onFinal') });
    pass.run(root);
    expect(pass.completed).toBe(true);
    expect(x.grad!.tolist()).toEqual([2, 4]);
    expect(order).toEqual(['onFinal', 'queued by a node']);
  });

  it('keepGraph keeps the saved tensors for a later backward; without it they are freed', () => {
    const x = tensor([1, 2], { requiresGrad: true });
    const kept = x.mul(x).sum();
    const root = rootOf(kept);
    const pass = openPass({ starts: [root], keepGraph: true, onLeafGrad: () => {} });
    expect(pass.keepGraph).toBe(true);
    pass.run(root);
    kept.backward();
    expect(x.grad!.tolist()).toEqual([2, 4]);

    const freed = x.mul(x).sum();
    const root2 = rootOf(freed);
    openPass({ starts: [root2], onLeafGrad: () => {} }).run(root2);
    expect(() => freed.backward()).toThrow('Trying to backward through the graph a second time');
  });

  it('completes when the last hold is released; runs, holds and releases after that are refused', () => {
    const x = tensor([3], { requiresGrad: true });
    const send = new SendLike([x.mul(2)]);
    let finals = 0;
    const pass = openPass({ starts: [send], onLeafGrad: () => {}, onFinal: () => finals++ });
    pass.hold();
    pass.hold();
    send.grads = [tensor([1])];
    pass.run(send);
    pass.release();
    expect(pass.completed).toBe(false);
    expect(finals).toBe(0);
    pass.release();
    expect(pass.completed).toBe(true);
    expect(finals).toBe(1);
    expect(() => pass.release()).toThrow(AutogradError);
    expect(() => pass.release()).toThrow('release() without a hold on the backward pass');
    expect(() => pass.hold()).toThrow('hold() on a backward pass that completed');
    expect(() => pass.run(send)).toThrow('run(SendLike) on a backward pass that completed');
    pass.close(); // closing a completed pass changes nothing
    expect(finals).toBe(1);
  });

  it('the first error fails the pass at once: later runs do nothing, throwIfFailed throws it, no final callback', () => {
    const x = tensor([1], { requiresGrad: true });
    const y = x.exp();
    const send = new SendLike([y]);
    (y.gradFn as Node).registerPrehook(() => {
      throw new Error('remote node failed');
    });
    let finals = 0;
    const leaves: Tensor[] = [];
    const pass = openPass({ starts: [send], onLeafGrad: (v) => leaves.push(v), onFinal: () => finals++ });
    pass.hold();
    send.grads = [tensor([1])];
    pass.run(send);
    expect(pass.failed).toBe(true);
    expect(pass.completed).toBe(true);
    expect(() => pass.throwIfFailed()).toThrow('remote node failed');
    pass.run(send); // a straggler of a failed pass
    pass.close();
    expect(finals).toBe(0);
    expect(leaves).toEqual([]);
    expect(x.grad).toBeNull();
  });

  it('fail(error) ends a pass given up from outside: that error is its first, no final callback runs', () => {
    const x = tensor([1, 2], { requiresGrad: true });
    const send = new SendLike([x.mul(2)]);
    let finals = 0;
    const pass = openPass({ starts: [send], onLeafGrad: () => {}, onFinal: () => finals++ });
    pass.hold();
    pass.fail(new Error('another worker failed'));
    expect(pass.completed).toBe(true);
    expect(() => pass.throwIfFailed()).toThrow('another worker failed');
    pass.close();
    expect(finals).toBe(0);
    const done = openPass({ starts: [send], onLeafGrad: () => {} });
    done.close();
    done.fail(new Error('too late'));
    expect(done.failed).toBe(false); // a completed pass stays as it completed
  });

  it('closing a pass while a node still waits for gradients fails it with the leftovers check', () => {
    const x = tensor([1, 2], { requiresGrad: true });
    const send1 = new SendLike([x.mul(2)]);
    const send2 = new SendLike([x.mul(3)]);
    const pass = openPass({ starts: [send1, send2], onLeafGrad: () => {} });
    pass.hold();
    send1.grads = [tensor([1, 1])];
    pass.run(send1); // x's accumulator still waits for send2's share
    pass.close();
    expect(pass.failed).toBe(true);
    expect(() => pass.throwIfFailed()).toThrow('could not compute gradients for some functions');
  });
});
