import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandHostList } from './hostList.js';

describe('expandHostList (Slurm host lists)', () => {
  it('expands ranges and lists in brackets, keeping zero padding, in order', () => {
    expect(expandHostList('node[01-03,07],gpu5')).toEqual(['node01', 'node02', 'node03', 'node07', 'gpu5']);
    expect(expandHostList('a[8-11]')).toEqual(['a8', 'a9', 'a10', 'a11']);
    expect(expandHostList('cn[098-101]-ib')).toEqual(['cn098-ib', 'cn099-ib', 'cn100-ib', 'cn101-ib']);
    expect(expandHostList('localhost')).toEqual(['localhost']);
    expect(expandHostList('x1,x2')).toEqual(['x1', 'x2']);
  });

  it('refuses what is not a host list', () => {
    for (const bad of ['node[1-', 'node[3-1]', 'node[a-b]', 'node]1[', 'n[1[2]]'])
      expect(() => expandHostList(bad)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it('round-trips any set of numbered hosts written compressed', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 999 }), { minLength: 1, maxLength: 20 }), (nums) => {
        const sorted = [...nums].sort((a, b) => a - b);
        const list = `n[${sorted.map((x) => String(x).padStart(3, '0')).join(',')}]`;
        expect(expandHostList(list)).toEqual(sorted.map((x) => `n${String(x).padStart(3, '0')}`));
      }),
    );
  });
});
