import { describe, expect, it } from 'vitest';
import { Edge, Node, Storage, Tensor, device, getEngine, tensor, type Grads } from '../index.js';

/** A gradient living on gpu:0 as far as the engine can tell (its storage says so); no kernel runs on it. */
const gpuGrad = () => new Tensor(new Storage(device('gpu:0'), 'float32', 1, new Float32Array([1])), [1]);

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
    const lane = engine.lane(device('gpu:0'));
    const pushed: string[] = [];
    const push = lane.queue.push.bind(lane.queue);
    lane.queue.push = (t) => {
      pushed.push(t.fn?.name() ?? 'wake-up');
      push(t);
    };
    try {
      engine.execute([new Edge(chain(log), 0)], [tensor([1])], false, false, true);
    } finally {
      lane.queue.push = push;
    }
    expect(log).toEqual(['root@cpu', 'gpuNode@gpu:0', 'cpuLeaf@cpu']);
    expect(pushed).toEqual(['gpuNode']);
    expect(lane.queue.empty()).toBe(true);
  });

  it('backwardAsync drives the same pass through the lane loops', async () => {
    const log: string[] = [];
    await getEngine().executeAsync([new Edge(chain(log), 0)], [tensor([1])], false, false, true);
    expect(log).toEqual(['root@cpu', 'gpuNode@gpu:0', 'cpuLeaf@cpu']);
  });

  it('an error on a device lane reaches the caller, sync and async', async () => {
    expect(() => getEngine().execute([new Edge(chain([], true), 0)], [tensor([1])], false, false, true)).toThrow('gpuNode failed on its lane');
    await expect(getEngine().executeAsync([new Edge(chain([], true), 0)], [tensor([1])], false, false, true)).rejects.toThrow('gpuNode failed on its lane');
  });
});
