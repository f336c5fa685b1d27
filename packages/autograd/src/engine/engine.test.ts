import { describe, expect, it } from 'vitest';
import {
  AccumulateGrad,
  Edge,
  Node,
  getEngine,
  grad,
  queueCallback,
  tensor,
  type Grads,
  type Tensor,
} from '../index.js';
import { GraphRoot, InputBuffer, NodeTask, ReadyQueue } from '../internal.js';

/** A node that logs its name when it runs and passes its gradient to every next edge. */
class Logged extends Node {
  constructor(
    private readonly label: string,
    private readonly log: string[],
  ) {
    super();
  }
  name() {
    return this.label;
  }
  apply(grads: Grads): Grads {
    this.log.push(this.label);
    return this.nextEdges.map(() => grads[0] ?? null);
  }
}

const leaf = () => tensor([1], { requiresGrad: true });

describe('graph structures', () => {
  it('a leaf that requires grad has an edge to its AccumulateGrad with inputNr 0', () => {
    const x = leaf();
    const y = x.mul(2);
    const [[node, nr]] = y.gradFn!.nextFunctions as [[Node, number]];
    expect(node).toBeInstanceOf(AccumulateGrad);
    expect(nr).toBe(0);
    expect(node.sequenceNr).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('mul backward has 1 input and 2 outputs', () => {
    const y = leaf().mul(leaf());
    const n = y.gradFn as Node;
    expect(n.numInputs).toBe(1);
    expect(n.numOutputs).toBe(2);
    expect(n.name()).toBe('MulBackward0');
  });

  it('topological numbers grow along paths; frozen once a node has a parent', () => {
    const x = leaf();
    const a = x.mul(2);
    const b = a.exp();
    const na = a.gradFn as Node;
    const nb = b.gradFn as Node;
    expect(na.topologicalNr).toBe(1);
    expect(nb.topologicalNr).toBeGreaterThan(na.topologicalNr);
    const log: string[] = [];
    const deep = new Logged('deep', log);
    deep.setNextEdges([new Edge(nb, 0)]);
    expect(() => na.addNextEdge(new Edge(deep, 0))).toThrow(
      "Cannot update a node's topological_nr after it already has a parent",
    );
  });

  it('InputBuffer sums the gradients arriving on one input', () => {
    const b = new InputBuffer(2);
    b.add(0, tensor([1]));
    b.add(0, tensor([2]));
    b.add(1, null);
    expect(b.buffer[0]!.tolist()).toEqual([3]);
    expect(b.buffer[1]).toBeNull();
  });
});

describe('ReadyQueue pop order', () => {
  it('shutdown, then wake-up, then deeper reentrant depth, then higher sequenceNr', () => {
    const q = new ReadyQueue();
    const log: string[] = [];
    const early = new Logged('early', log);
    const late = new Logged('late', log);
    const engine = getEngine();
    const shallow = engine.prepare([new Edge(early, 0)], [tensor([1])], {}).task;
    q.push(new NodeTask(shallow, early, new InputBuffer(1)));
    q.push(new NodeTask(shallow, late, new InputBuffer(1)));
    q.push(new NodeTask(shallow, null, null));
    q.push(new NodeTask(null, null, null, true));
    const order = [q.pop()!, q.pop()!, q.pop()!, q.pop()!];
    expect(order[0]!.isShutdownTask).toBe(true);
    expect(order[1]!.fn).toBeNull();
    expect(order[2]!.fn).toBe(late);
    expect(order[3]!.fn).toBe(early);
  });
});

describe('execution order', () => {
  it('runs a chain from the last-created node to the first', () => {
    let y: Tensor = leaf();
    for (const op of ['exp', 'sin', 'tanh'] as const) y = y[op]();
    const order: string[] = [];
    for (let n: Node | null = y.gradFn as Node; n && !(n instanceof AccumulateGrad); n = n.nextFunctions[0]![0]) {
      n.registerPrehook(() => void order.push(n!.name()));
    }
    y.sum().backward();
    expect(order).toEqual(['TanhBackward0', 'SinBackward0', 'ExpBackward0']);
  });

  it('runs a diamond by sequence number and calls the join once with the summed gradient', () => {
    const log: string[] = [];
    const root = new Logged('root', log);
    const left = new Logged('left', log);
    const right = new Logged('right', log);
    const join = new Logged('join', log);
    join.addInputMetadata(tensor([0]));
    left.addInputMetadata(tensor([0]));
    right.addInputMetadata(tensor([0]));
    root.addInputMetadata(tensor([0]));
    const seen: Tensor[] = [];
    join.registerPrehook((g) => void seen.push(g[0]!));
    left.setNextEdges([new Edge(join, 0)]);
    right.setNextEdges([new Edge(join, 0)]);
    root.setNextEdges([new Edge(left, 0), new Edge(right, 0)]);
    getEngine().execute([new Edge(root, 0)], [tensor([1])]);
    // right was created after left, so it has the higher sequenceNr and runs first
    expect(log).toEqual(['root', 'right', 'left', 'join']);
    expect(seen.map((g) => g.tolist())).toEqual([[2]]);
  });

  it('GraphRoot is only built for several roots', () => {
    const x = leaf();
    const calls: string[] = [];
    (x.mul(2).gradFn as Node).registerPrehook(() => void calls.push('single'));
    const a = x.mul(3);
    const b = x.mul(4);
    getEngine().execute([new Edge(a.gradFn as Node, 0), new Edge(b.gradFn as Node, 0)], [tensor([1]), tensor([1])]);
    expect(x.grad!.tolist()).toEqual([7]);
    expect(new GraphRoot([], []).name()).toBe('GraphRoot');
  });
});

describe('pruning', () => {
  it('grad() never runs a branch that cannot reach the inputs', () => {
    const a = leaf();
    const b = leaf();
    const ran: string[] = [];
    const fromB = b.exp();
    (fromB.gradFn as Node).registerPrehook(() => void ran.push('b-branch'));
    const y = a.mul(2).add(fromB);
    const [ga] = grad(y.sum(), a);
    expect(ga!.tolist()).toEqual([2]);
    expect(ran).toEqual([]);
    expect(b.grad).toBeNull();
  });

  it('backward(inputs=) accumulates only into those inputs', () => {
    const a = leaf();
    const b = leaf();
    a.mul(b)
      .sum()
      .backward(undefined, { inputs: [a] });
    expect(a.grad!.tolist()).toEqual([1]);
    expect(b.grad).toBeNull();
  });
});

describe('final callbacks', () => {
  it('queueCallback runs after the pass; outside backward it is an error', () => {
    const x = leaf();
    const log: string[] = [];
    const y = x.mul(2);
    (y.gradFn as Node).registerPrehook(() => {
      queueCallback(() => log.push('callback'));
    });
    y.sum().backward();
    expect(log).toEqual(['callback']);
    expect(() => queueCallback(() => {})).toThrow('Final callbacks can only be installed during backward pass.');
  });
});

describe('deep graphs', () => {
  it('backprops a 20 000-op chain without overflowing the stack', () => {
    const x = tensor(1, { dtype: 'float64', requiresGrad: true });
    let y: Tensor = x;
    for (let i = 0; i < 20000; i++) y = y.mul(1.00001);
    y.backward();
    expect(x.grad!.item()).toBeCloseTo(Math.pow(1.00001, 20000), 8);
  });
});
