import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ones } from '@wiregrad/autograd';
import * as oldNn from '@wiregrad/autograd/nn';
import * as oldOptim from '@wiregrad/autograd/optim';
import * as nn from './index.js';
import * as optim from './optim/index.js';

// See Note [Deprecated nn and optim paths] (packages/autograd/README.md): the old subpaths
// re-export this package's own objects, so code mixing old and new imports shares one class.
describe('@wiregrad/autograd/nn and /optim (deprecated for one release)', () => {
  it('re-export the very objects of @wiregrad/nn, not copies', () => {
    expect(oldNn.Module).toBe(nn.Module);
    expect(oldNn.Linear).toBe(nn.Linear);
    expect(oldNn.ReLU).toBe(nn.ReLU);
    expect(oldNn.Sequential).toBe(nn.Sequential);
    expect(oldNn.mseLoss).toBe(nn.mseLoss);
    expect(oldNn.crossEntropy).toBe(nn.crossEntropy);
    expect(oldOptim.Optimizer).toBe(optim.Optimizer);
    expect(oldOptim.SGD).toBe(optim.SGD);
    expect(oldOptim.Adam).toBe(optim.Adam);
  });

  it('keep exactly the 0.1 surface', () => {
    expect(Object.keys(oldNn).sort()).toEqual(['Linear', 'Module', 'ReLU', 'Sequential', 'crossEntropy', 'mseLoss']);
    expect(Object.keys(oldOptim).sort()).toEqual(['Adam', 'Optimizer', 'SGD']);
  });

  it('a model built from the old path trains with an optimizer from the new one', () => {
    // ReLU first, on positive inputs: every weight of the Linear gets a nonzero gradient
    // whatever its random initialisation (ReLU after it could zero them all).
    const model = new oldNn.Sequential(new nn.ReLU(), new oldNn.Linear(2, 2));
    expect(model).toBeInstanceOf(nn.Module);
    const opt = new optim.SGD(model.parameters(), { lr: 0.1 });
    const before = model.parameters()[0]!.detach().clone();
    model
      .forward(ones([3, 2]))
      .sum()
      .backward();
    opt.step();
    expect(model.parameters()[0]!.sub(before).abs().sum().item()).toBeGreaterThan(0);
  });

  it('warn once per process at run time, with a code (process.emitWarning)', async () => {
    const program = [
      "await import('@wiregrad/autograd/nn');",
      "await import('@wiregrad/autograd/nn');",
      "await import('@wiregrad/autograd/optim');",
    ].join('\n');
    const { stderr } = await promisify(execFile)(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', program],
      { cwd: fileURLToPath(new URL('..', import.meta.url)) },
    );
    const warnings = stderr.match(/\[WIREGRAD_DEP_AUTOGRAD_\w+\] DeprecationWarning: .*/g);
    expect(warnings).toEqual([
      "[WIREGRAD_DEP_AUTOGRAD_NN] DeprecationWarning: @wiregrad/autograd/nn is deprecated: import from '@wiregrad/nn'; this path goes away in the next minor release",
      "[WIREGRAD_DEP_AUTOGRAD_OPTIM] DeprecationWarning: @wiregrad/autograd/optim is deprecated: import from '@wiregrad/nn/optim'; this path goes away in the next minor release",
    ]);
  }, 60_000);
});
