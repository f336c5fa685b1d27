import { describe, expect, it } from 'vitest';
import { Edge, getEngine, queueCallback, tensor } from '../index.js';
import { GraphRoot, GraphTask, InputBuffer, computeDependencies } from '../internal.js';
import { Logged, link } from '../__tests__/testNodes.js';

const run = (root: Logged) => getEngine().execute([new Edge(root, 0)], [tensor([1])]);
const fail = (message: string) => () => {
  throw new Error(message);
};

describe('GraphTask completion (exec_post_processing)', () => {
  it('the first error wins and completes the pass at once: nodes still queued never run', () => {
    const log: string[] = [];
    const later = new Logged('later', log);
    const second = new Logged('second', log, fail('second error'));
    const first = new Logged('first', log, fail('first error'));
    const root = new Logged('root', log);
    link(root, later, second, first); // created last, `first` runs first
    expect(() => run(root)).toThrow('first error');
    expect(log).toEqual(['root', 'first']);
  });

  it('final callbacks run in order after every node, and may queue more callbacks', () => {
    const log: string[] = [];
    const leaf = new Logged('leaf', log);
    const root = new Logged('root', log, (g, self) => {
      queueCallback(() => {
        log.push('callback 1');
        queueCallback(() => log.push('callback 3'));
      });
      queueCallback(() => log.push('callback 2'));
      return self.nextEdges.map(() => g[0]!);
    });
    link(root, leaf);
    run(root);
    expect(log).toEqual(['root', 'leaf', 'callback 1', 'callback 2', 'callback 3']);
  });

  it('an error in a final callback fails the pass', () => {
    const root = new Logged('root', [], () => (queueCallback(fail('callback failed')), []));
    expect(() => run(root)).toThrow('callback failed');
  });

  it('a node whose dependencies never all arrive is reported: "could not compute gradients for some functions"', () => {
    const log: string[] = [];
    const join = new Logged('join', log);
    const a = new Logged('a', log);
    const b = new Logged('b', log);
    link(a, join);
    link(b, join);
    // dependencies counted from both a and b, but only a runs (the distributed engine's situation)
    const task = new GraphTask({ keepGraph: false });
    computeDependencies(new GraphRoot([new Edge(a, 0), new Edge(b, 0)], []), task, 0);
    getEngine().executeGraphTaskUntilReadyQueueEmpty(task, a, InputBuffer.of([tensor([1])]));
    expect(task.futureCompleted).toBe(true);
    expect(task.hasError).toBe(true);
    expect(String(task.error)).toContain('could not compute gradients for some functions');
    expect(log).toEqual(['a']);
  });

  it('an edge to a node the dependencies never counted is an error: "dependency not found for"', () => {
    const stranger = new Logged('Stranger', []);
    const root = new Logged('root', []);
    link(root, stranger);
    const task = new GraphTask({ keepGraph: false });
    getEngine().executeGraphTaskUntilReadyQueueEmpty(task, root, InputBuffer.of([tensor([1])]));
    expect(String(task.error)).toContain('dependency not found for Stranger');
  });

  it('exitOnError: the task is complete at the first error even with work outstanding', () => {
    const task = new GraphTask({ keepGraph: false, exitOnError: true });
    task.outstandingTasks = 3;
    expect(task.completed()).toBe(false);
    task.setError(new Error('x'));
    expect(task.completed()).toBe(true);
    const plain = new GraphTask({ keepGraph: false });
    plain.outstandingTasks = 3;
    plain.setError(new Error('x'));
    expect(plain.completed()).toBe(false);
    expect(plain.futureCompleted).toBe(true); // set_exception settles the future either way
  });

  it('the future resolves with the captured gradients, or rejects with the first error', async () => {
    const ok = new GraphTask({ keepGraph: false });
    ok.capturedVars = [tensor([5])];
    ok.markAsCompletedAndRunPostProcessing();
    expect((await ok.futureResult)[0]!.tolist()).toEqual([5]);
    const bad = new GraphTask({ keepGraph: false });
    bad.setError(new Error('first'));
    bad.setError(new Error('second'));
    await expect(bad.futureResult).rejects.toThrow('first');
  });
});
