import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AccumulateGrad, Edge, type Node, grad, tensor, type Tensor } from '../index.js';
import {
  GraphTask,
  computeDependencies,
  computeMinTopologicalNr,
  currentGraphTask,
  initToExecute,
} from '../internal.js';
import { Logged, link } from '../__tests__/testNodes.js';

const leaf = () => tensor([1], { requiresGrad: true });

describe('Note [Topological Number]', () => {
  it('a path X -> Y implies topo(X) > topo(Y), on random graphs built by ops (property)', () => {
    const ops = fc.array(fc.record({ a: fc.nat(), b: fc.nat(), op: fc.constantFrom('add', 'mul', 'exp') }), {
      minLength: 1,
      maxLength: 25,
    });
    fc.assert(
      fc.property(ops, (steps) => {
        const values: Tensor[] = [leaf(), leaf(), tensor([2])];
        for (const { a, b, op } of steps) {
          const x = values[a % values.length]!;
          const y = values[b % values.length]!;
          values.push(op === 'exp' ? x.exp() : x[op](y));
        }
        for (const v of values) {
          const fn = v.gradFn as Node | null;
          if (!fn) continue;
          for (const [child] of fn.nextFunctions)
            if (child) expect(fn.topologicalNr).toBeGreaterThan(child.topologicalNr);
        }
      }),
    );
  });

  it('leaves (AccumulateGrad) have 0; the minimum over the outputs bounds the walk', () => {
    const x = leaf();
    const acc = (x.mul(2).gradFn as Node).nextFunctions[0]![0]!;
    expect(acc).toBeInstanceOf(AccumulateGrad);
    expect(acc.topologicalNr).toBe(0);
    expect(computeMinTopologicalNr([])).toBe(0);
    const a = new Logged('a', []);
    const b = new Logged('b', []);
    link(b, a);
    expect(computeMinTopologicalNr([new Edge(b, 0), new Edge(a, 0)])).toBe(0);
    expect(computeMinTopologicalNr([new Edge(b, 0)])).toBe(1);
  });
});

describe('compute_dependencies and init_to_execute', () => {
  it('counts one dependency per edge, iteratively (a diamond joins with 2)', () => {
    const log: string[] = [];
    const [root, l, r, join] = ['root', 'l', 'r', 'join'].map((n) => new Logged(n, log)) as [
      Logged,
      Logged,
      Logged,
      Logged,
    ];
    link(l, join);
    link(r, join);
    link(root, l, r);
    const task = new GraphTask({ keepGraph: false });
    computeDependencies(root, task, 0);
    expect(task.dependencies.get(join)).toBe(2);
    expect(task.dependencies.get(l)).toBe(1);
    expect(task.dependencies.has(root)).toBe(false);
  });

  it('grad(y, a) never expands, nor counts dependencies below, a branch created before a (min topological number)', () => {
    const b = leaf();
    const old = b.exp().sin(); // topo 2, below a's
    const a = leaf().mul(3).exp().sin().cos(); // a's gradFn has topo 4
    const y = a.mul(old).sum();
    let seen: ReadonlyMap<Node, number> | null = null;
    a.registerHook(() => void (seen = new Map(currentGraphTask()!.dependencies))); // runs although a's node is only captured
    grad(y, a, { retainGraph: true });
    const oldFn = old.gradFn as Node;
    expect(seen).not.toBeNull();
    expect([...seen!.keys()]).not.toContain(oldFn.nextFunctions[0]![0]); // ExpBackward0 under `old` was never reached
    const task = new GraphTask({ keepGraph: false });
    computeDependencies(y.gradFn as Node, task, (a.gradFn as Node).topologicalNr);
    expect(task.nodesInGraph.has(oldFn)).toBe(true); // counted as a child...
    expect(task.nodesInGraph.has(oldFn.nextFunctions[0]![0]!)).toBe(false); // ...but not expanded
  });

  it('init_to_execute marks exactly the nodes on a path to an output; grad() captures, backward(inputs=) needs', () => {
    const log: string[] = [];
    const [root, onPath, offPath, out] = ['root', 'onPath', 'offPath', 'out'].map((n) => new Logged(n, log)) as [
      Logged,
      Logged,
      Logged,
      Logged,
    ];
    link(onPath, out);
    link(root, onPath, offPath);
    const capture = new GraphTask({ keepGraph: false });
    initToExecute(root, capture, [new Edge(out, 0)], false, 0);
    expect(capture.execInfo.get(out)!.captures).toEqual([{ inputIdx: 0, outputIdx: 0, hooks: [] }]);
    expect(capture.execInfo.get(out)!.needed).toBe(false);
    expect(capture.execInfo.get(onPath)!.needed).toBe(true);
    expect(capture.execInfo.get(root)!.needed).toBe(true);
    expect(capture.execInfo.get(offPath)?.shouldExecute() ?? false).toBe(false);
    const accumulate = new GraphTask({ keepGraph: false });
    initToExecute(root, accumulate, [new Edge(out, 0)], true, 0);
    expect(accumulate.execInfo.get(out)!.needed).toBe(true);
    expect(accumulate.capturedVars).toEqual([]);
  });
});
