import { describe, expect, it } from 'vitest';
import { gpuLanePushes } from '../__tests__/lanePushes.js';
import { Edge, Node, device, getEngine, tensor, type Grads } from '../index.js';

/** A gradient on gpu:0 (the gpu.js device). */
const gpuGrad = () => tensor([1]).to('gpu:0');

/** Records which lane it ran on (by the device of the gradient it received) and passes a gradient on. */
class Hop extends Node {
  constructor(
    private readonly label: string,
    private readonly log: string[],
    private readonly emit: () => Grads,
    private readonly fail = false,
  ) {
    super();
  }
  name() {
    return this.label;
  }
  apply(grads: Grads): Grads {
    this.log.push(`${this.label}@${grads[0]?.device.toString() ?? 'none'}`);
    if (this.fail) throw new Error(`${this.label} failed on its lane`);
    return this.emit();
  }
}

function chain(log: string[], failOnGpu = false) {
  const leaf = new Hop('cpuLeaf', log, () => []);
  leaf.addInputMetadata(tensor([0]));
  const onGpu = new Hop('gpuNode', log, () => [tensor([1])], failOnGpu);
  onGpu.addInputMetadata(gpuGrad());
  onGpu.setNextEdges([new Edge(leaf, 0)]);
  const root = new Hop('root', log, () => [gpuGrad()]);
  root.addInputMetadata(tensor([0]));
  root.setNextEdges([new Edge(onGpu, 0)]);
  return root;
}

describe('device lanes (Note [Device lanes])', () => {
  it('a node whose gradient is on gpu:0 is queued on the gpu lane, cpu nodes on the caller', () => {
    const log: string[] = [];
    const engine = getEngine();
    const pushed = gpuLanePushes(() => engine.execute([new Edge(chain(log), 0)], [tensor([1])]));
    expect(log).toEqual(['root@cpu', 'gpuNode@gpu:0', 'cpuLeaf@cpu']);
    expect(pushed).toEqual(['gpuNode']);
    expect(engine.lane(device('gpu:0')).queue.empty()).toBe(true);
  });

  it('backwardAsync drives the same pass through the lane loops', async () => {
    const log: string[] = [];
    await getEngine().executeAsync([new Edge(chain(log), 0)], [tensor([1])]);
    expect(log).toEqual(['root@cpu', 'gpuNode@gpu:0', 'cpuLeaf@cpu']);
  });

  it('an error on a device lane reaches the caller, sync and async', async () => {
    expect(() => getEngine().execute([new Edge(chain([], true), 0)], [tensor([1])])).toThrow(
      'gpuNode failed on its lane',
    );
    await expect(getEngine().executeAsync([new Edge(chain([], true), 0)], [tensor([1])])).rejects.toThrow(
      'gpuNode failed on its lane',
    );
  });
});

describe('device lanes with real ops on the gpu device', () => {
  /** Records the nodes pushed on the gpu:0 lane while `fn` runs. */
  async function onGpuLane(fn: () => void | Promise<void>): Promise<string[]> {
    const queue = getEngine().lane(device('gpu:0')).queue;
    const pushed: string[] = [];
    const push = queue.push.bind(queue);
    queue.push = (t) => {
      pushed.push(t.fn?.name() ?? 'wake-up');
      push(t);
    };
    try {
      await fn();
    } finally {
      queue.push = push;
    }
    return pushed;
  }

  it('a graph on gpu:0 runs on the gpu lane; the leaf gets a gpu gradient', async () => {
    const x = tensor([1, 2, 3]).to('gpu:0');
    x.requiresGrad = true;
    const pushed = await onGpuLane(() => x.mul(x).sum().backward());
    expect(pushed).toEqual(['SumBackward0', 'MulBackward0', 'torch::autograd::AccumulateGrad']);
    expect(x.grad!.device.toString()).toBe('gpu:0');
    expect(x.grad!.cpu().tolist()).toEqual([2, 4, 6]);
  });

  it('backwardAsync crosses from the gpu lane back to the cpu caller (ToDevice) with the same gradients', async () => {
    const w = tensor([1, 2], { requiresGrad: true });
    const y = w.to('gpu:0').mul(3).sum();
    const pushed = await onGpuLane(() => y.backwardAsync());
    expect(pushed).toEqual(['SumBackward0', 'MulBackward0', 'ToDeviceBackward0']);
    expect(w.grad!.device.toString()).toBe('cpu');
    expect(w.grad!.tolist()).toEqual([3, 3]);
  });

  it('an error in a node on the gpu lane reaches the awaiting caller', async () => {
    const w = tensor([1, 2], { requiresGrad: true });
    const y = w.to('gpu:0').mul(3);
    (y.gradFn as Node).registerPrehook(() => {
      throw new Error('failed on gpu:0');
    });
    await expect(y.sum().backwardAsync()).rejects.toThrow('failed on gpu:0');
  });
});
