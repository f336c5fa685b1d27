import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tensor } from './index.js';

describe('util.inspect / console.log of a tensor (Note [Inspecting a tensor])', () => {
  it('prints what toString() prints, not the storage or autogradMeta', () => {
    const base = tensor([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const view = base.select(0, 1);
    expect(inspect(view)).toBe(view.toString());
    expect(inspect(view)).toBe('tensor([4., 5., 6.])');
    expect(inspect(base)).not.toMatch(/storage|autogradMeta|Float32Array/);
  });

  it('prints a tensor nested in an object or array the same way', () => {
    const t = tensor([1.5, -2], { dtype: 'float64' });
    const shown = 'tensor([ 1.5000, -2.0000], dtype=torch.float64)';
    expect(t.toString()).toBe(shown);
    expect(inspect({ t, list: [t] })).toBe(`{\n  t: ${shown},\n  list: [ ${shown} ]\n}`);
  });

  it('a disposed tensor prints as toString() shows it, without throwing', () => {
    const t = tensor([1, 2]);
    t.dispose();
    expect(inspect(t)).toBe('tensor(<disposed>)');
  });
});
