import { describe, expect, it } from 'vitest';
import { Edge, type Tensor, getEngine, tensor } from '../index.js';
import { Logged, link } from '../__tests__/testNodes.js';

/** Runs `producer` (emitting `grad`) into a leaf expecting `expected`; returns what the leaf received. */
function deliver(grad: Tensor, expected: Tensor): Tensor | null {
  let received: Tensor | null = null;
  const leaf = new Logged('leaf', [], (g) => ((received = g[0] ?? null), []), expected);
  const producer = new Logged('Producer', [], () => [grad]);
  link(producer, leaf);
  getEngine().execute([new Edge(producer, 0)], [tensor([1])]);
  return received;
}

describe("validate_outputs (every node's returned gradients)", () => {
  it('a gradient of a broadcastable shape is summed to the expected one', () => {
    const got = deliver(
      tensor([
        [1, 2, 3],
        [10, 20, 30],
      ]),
      tensor([[0, 0, 0]]),
    );
    expect(got!.shape).toEqual([1, 3]);
    expect(got!.tolist()).toEqual([[11, 22, 33]]);
  });

  it('an incompatible shape is an error naming the node, the index and both shapes', () => {
    expect(() => deliver(tensor([1, 2, 3]), tensor([[0, 0, 0]]))).toThrow(
      'Function Producer returned an invalid gradient at index 0 - got [3] but expected shape compatible with [1, 3]',
    );
  });

  it('the wrong number of gradients is an error', () => {
    const leaf = new Logged('leaf', []);
    const producer = new Logged('Producer', [], () => []);
    producer.setNextEdges([new Edge(leaf, 0)]);
    // an empty result is "no outputs" (PyTorch's leaf nodes); one too many is counted
    const two = new Logged('Two', [], () => [tensor([1]), tensor([1])]);
    link(two, leaf);
    expect(() => getEngine().execute([new Edge(two, 0)], [tensor([1])])).toThrow(
      'Function Two returned an invalid number of gradients - expected 1, but got 2',
    );
  });

  it('a gradient of another dtype is cast to the input dtype', () => {
    const got = deliver(tensor([1.5], { dtype: 'float64' }), tensor([0], { dtype: 'float32' }));
    expect(got!.dtype).toBe('float32');
  });

  it('a 0-dim gradient on another device is moved; any other device mismatch is an error', () => {
    const onGpu = (shape: number[]) => tensor([2]).reshape(shape).to('gpu:0');
    expect(() => deliver(onGpu([1]), tensor([0]))).toThrow(
      'Function Producer returned an invalid gradient at index 0 - expected device cpu but got gpu:0',
    );
    const moved = deliver(onGpu([]), tensor(0));
    expect(moved!.device.toString()).toBe('cpu');
    expect(moved!.item()).toBe(2);
  });

  it('the root gradients are validated too, without a prefix', () => {
    const root = new Logged('root', [], () => [], tensor([[0, 0]]));
    expect(() => getEngine().execute([new Edge(root, 0)], [tensor([1, 2, 3])])).toThrow(
      /^invalid gradient at index 0 - got \[3\] but expected shape compatible with \[1, 2\]$/,
    );
  });
});
