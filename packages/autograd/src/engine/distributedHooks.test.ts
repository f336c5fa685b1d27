import { describe, expect, it } from 'vitest';
import type { Node } from '../index.js';
import { AccumulateGrad, Edge, getEngine, onesLike, tensor, type Grads, type Tensor } from '../index.js';
import {
  GraphRoot,
  GraphTask,
  InputBuffer,
  computeDependencies,
  currentGraphTask,
  gradientEdge,
  initToExecute,
} from '../internal.js';
import { RecvLike, SendLike } from '../__tests__/testNodes.js';

/** RecvLike that checks it runs inside the pass's GraphTask, as RecvRpcBackward relies on. */
class RecvInTask extends RecvLike {
  override apply(grads: Grads): Grads {
    expect(currentGraphTask()).not.toBeNull();
    return super.apply(grads);
  }
}

describe("Note [Driving a pass]: the GraphTask underneath, driven by hand as PyTorch's DistEngine does", () => {
  it('dependencies from a dummy root, captures into a map instead of .grad, several runs on one GraphTask', () => {
    const x = tensor([1, 2], { requiresGrad: true });
    const w = tensor([3, 4], { requiresGrad: true });
    const send1 = new SendLike([x.mul(2)]); // x*2 went to another worker
    const send2 = new SendLike([x.mul(w)]); // so did x*w
    const r = tensor([5, 6]);
    const recv = new RecvInTask([r]); // r came from another worker
    const loss = r.mul(x).sum();

    // PyTorch's DistEngine::computeDependencies
    const task = new GraphTask({ keepGraph: false, exitOnError: true });
    const root = new GraphRoot([gradientEdge(loss), new Edge(send1, 0), new Edge(send2, 0)], []);
    computeDependencies(root, task, 0);
    const outputs = [...task.nodesInGraph]
      .filter((n) => n instanceof AccumulateGrad || n instanceof RecvLike)
      .map((n) => new Edge(n, 0));
    initToExecute(root, task, outputs, false, 0);
    const grads = new Map<Tensor, Tensor>();
    for (const { node } of outputs) {
      const info = task.execInfo.get(node!)!;
      if (node instanceof AccumulateGrad) {
        for (const c of info.captures!) c.hooks.push((g) => (grads.set((node as AccumulateGrad).variable, g!), g));
      } else {
        info.needed = true;
      }
    }

    const engine = getEngine();
    task.outstandingTasks++; // held open until every send function has run
    engine.executeGraphTaskUntilReadyQueueEmpty(task, loss.gradFn as Node, InputBuffer.of([onesLike(loss)]));
    expect(recv.received[0]!.tolist()).toEqual([1, 2]); // d loss / d r = x
    send1.grads = [tensor([1, 1])];
    engine.executeGraphTaskUntilReadyQueueEmpty(task, send1, new InputBuffer(0));
    send2.grads = [tensor([1, 10])];
    engine.executeGraphTaskUntilReadyQueueEmpty(task, send2, new InputBuffer(0));
    expect(task.futureCompleted).toBe(false);
    task.outstandingTasks--;
    engine.finish(task);

    expect(task.hasError).toBe(false);
    expect(grads.get(x)!.tolist()).toEqual([5 + 2 + 3, 6 + 2 + 40]);
    expect(grads.get(w)!.tolist()).toEqual([1, 20]);
    expect(x.grad).toBeNull();
    expect(w.grad).toBeNull();
  });

  it('an error in any run is the first error of the task; later runs do nothing', () => {
    const x = tensor([1], { requiresGrad: true });
    const send = new SendLike([x.exp()]);
    (send.nextEdges[0]!.node as Node).registerPrehook(() => {
      throw new Error('remote node failed');
    });
    const task = new GraphTask({ keepGraph: false, exitOnError: true });
    computeDependencies(send, task, 0);
    send.grads = [tensor([1])];
    getEngine().executeGraphTaskUntilReadyQueueEmpty(task, send, new InputBuffer(0));
    expect(task.completed()).toBe(true);
    expect(String(task.error)).toContain('remote node failed');
    expect(x.grad).toBeNull();
  });
});
