import { describe, expect, it } from 'vitest';
import { type Tensor, manualSeed, memory, noGrad, randn } from '@wiregrad/autograd';
import { Module } from '../module.js';
import { Tanh } from './activation.js';
import { Sequential } from './container.js';
import { Dropout } from './dropout.js';
import { Identity, Linear } from './linear.js';

const bytes = (t: Tensor) => t.numel * 4;

/** A user's layer that keeps what it gets and what it returns. */
class Remember extends Module {
  input: Tensor | null = null;
  output: Tensor | null = null;
  forward(x: Tensor): Tensor {
    this.input = x;
    this.output = x.mul(2);
    return this.output;
  }
}

describe("Sequential's intermediates (Note [Sequential's intermediates])", () => {
  it('releases what built-in layers hand each other once the next one ran: under noGrad at once', () => {
    manualSeed(0);
    const model = new Sequential(new Linear(256, 512), new Tanh(), new Linear(512, 256));
    const x = randn([16, 256]);
    const before = memory().cpuBytes;
    const out = noGrad(() => model.forward(x));
    // the [16, 512] Linear and Tanh outputs are gone; only the result is new
    expect(memory().cpuBytes).toBe(before + bytes(out));
  });

  it('with grad, keeps them saved for backward, frees them with the graph, and gets the same gradients', () => {
    manualSeed(0);
    const model = new Sequential(new Linear(256, 512), new Tanh(), new Linear(512, 256));
    const [l1, act, l2] = model.layers as [Linear, Tanh, Linear];
    const x = randn([16, 256]);
    const byHand = l2.forward(act.forward(l1.forward(x))).sum();
    byHand.backward();
    const expected = [...model.parameters()].map((p) => Array.from(p.grad!.toTypedArray()));
    model.zeroGrad();

    const before = memory().cpuBytes;
    const out = model.forward(x);
    const loss = out.sum();
    expect(memory().cpuBytes).toBeGreaterThan(before + bytes(out)); // the saved Tanh output is alive
    loss.backward();
    const grads = [...model.parameters()].map((p) => p.grad!);
    const gradBytes = grads.reduce((n, g) => n + (bytes(g) >= 1024 ? bytes(g) : 0), 0);
    expect(memory().cpuBytes).toBe(before + bytes(out) + gradBytes);
    grads.forEach((g, i) => expect(Array.from(g.toTypedArray())).toEqual(expected[i]));
  });

  it("leaves a user's layer's input and output alone, and whatever it touches", () => {
    const remember = new Remember();
    const model = new Sequential(new Linear(8, 300), remember, new Tanh(), new Linear(300, 4));
    noGrad(() => model.forward(randn([4, 8])));
    expect(remember.input!.isDisposed).toBe(false);
    expect(remember.output!.isDisposed).toBe(false);
    expect(remember.output!.sub(remember.input!.mul(2)).abs().max().item()).toBe(0);
  });

  it('does not dispose what a layer hands on as its output (Identity, Dropout in eval mode)', () => {
    const model = new Sequential(new Linear(8, 300), new Identity(), new Dropout(0.5), new Tanh());
    model.eval();
    const out = noGrad(() => model.forward(randn([4, 8])));
    expect(out.isDisposed).toBe(false);
    expect(out.abs().max().item()).toBeLessThanOrEqual(1);
  });
});
