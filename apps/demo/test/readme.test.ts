// The demo README's MNIST section says what the code trains and saves: the convnet as it prints
// itself, the optimizer, and the state-dict keys of the saved weights.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeConvnet } from '../src/examples/mnist.js';
import { OneCycleSGD } from '../src/examples/mnistOptimizer.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const mnist = readme.slice(readme.indexOf('## MNIST'), readme.indexOf('\n## ', readme.indexOf('## MNIST') + 1));

describe("the demo README's MNIST section", () => {
  it('prints the convnet makeConvnet() builds, as it prints itself', () => {
    const block = /^```text\n([\s\S]*?)^```$/m.exec(mnist)?.[1];
    expect(block).toBe(`${String(makeConvnet())}\n`);
  });

  it('lists every key of its state dict, in order', () => {
    const listed = /`nn\.Sequential`: ((?:`[\w.]+`(?:,\s+)?)+)\)/.exec(mnist)?.[1];
    const keys = [...(listed ?? '').matchAll(/`([\w.]+)`/g)].map((m) => m[1]);
    expect(keys).toEqual(Object.keys(makeConvnet().stateDict()));
  });

  it('names the optimizer the demo trains with', () => {
    expect(mnist).toContain(`(\`${OneCycleSGD.name}\``);
    expect(new OneCycleSGD(makeConvnet().parameters(), { lr: 0.1, totalSteps: 10 }).defaults).toMatchObject({
      momentum: 0.9,
      nesterov: true,
    });
  });
});
