import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tensor } from '../index.js';
import { GraphTask, InputBuffer, NodeTask, ReadyQueue, runsBefore } from '../internal.js';
import { Logged } from '../__tests__/testNodes.js';

const taskAt = (depth: number) => new GraphTask({ keepGraph: false, reentrantDepth: depth });

describe('Note [Ready queue order]', () => {
  it('shutdown, then wake-up, then deeper reentrant depth, then higher sequenceNr', () => {
    const early = new Logged('early', []);
    const late = new Logged('late', []);
    const shallow = taskAt(0);
    const deep = taskAt(2);
    const q = new ReadyQueue();
    const buf = () => new InputBuffer(1);
    q.push(new NodeTask(shallow, early, buf()));
    q.push(new NodeTask(shallow, late, buf()));
    q.push(new NodeTask(deep, early, buf()));
    q.push(new NodeTask(shallow, null, null));
    q.push(new NodeTask(null, null, null, true));
    const order = [q.pop()!, q.pop()!, q.pop()!, q.pop()!, q.pop()!];
    expect(order[0]!.isShutdownTask).toBe(true);
    expect(order[1]!.fn).toBeNull();
    expect([order[2]!.graphTask, order[2]!.fn]).toEqual([deep, early]);
    expect(order[3]!.fn).toBe(late);
    expect(order[4]!.fn).toBe(early);
    expect(q.pop()).toBeUndefined();
  });

  it('a task whose GraphTask is gone counts as infinitely deep, so it is drained first', () => {
    const orphan = new NodeTask(null, new Logged('orphan', []), new InputBuffer(1));
    const live = new NodeTask(taskAt(59), new Logged('live', []), new InputBuffer(1));
    expect(orphan.graphTask).toBeUndefined();
    expect(orphan.getReentrantDepth()).toBe(Number.MAX_SAFE_INTEGER);
    expect(runsBefore(orphan, live)).toBe(true);
  });

  it('pops any mix of tasks in sorted order (property)', () => {
    const tasks = [0, 1, 2, 3].map(taskAt);
    const nodes = Array.from({ length: 6 }, (_, i) => new Logged(`n${i}`, [], undefined, tensor([i])));
    const item = fc.record({ depth: fc.integer({ min: 0, max: 3 }), node: fc.integer({ min: -1, max: 5 }) });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 40 }), (items) => {
        const q = new ReadyQueue();
        for (const { depth, node } of items) q.push(new NodeTask(tasks[depth]!, node < 0 ? null : nodes[node]!, null));
        const popped: NodeTask[] = [];
        for (let t = q.pop(); t; t = q.pop()) popped.push(t);
        expect(popped).toHaveLength(items.length);
        for (let i = 1; i < popped.length; i++) expect(runsBefore(popped[i]!, popped[i - 1]!)).toBe(false);
      }),
    );
  });
});
