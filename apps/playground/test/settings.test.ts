// The settings' rules without a browser: what each control accepts, and the URL round trip that
// makes a shared link open the same experiment.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTIVATIONS,
  DATASETS,
  DEFAULTS,
  DEVICES,
  FIELDS,
  MAX_LAYERS,
  MAX_NEURONS,
  PARSERS,
  POINTS,
  type Settings,
  fromQuery,
  toQuery,
} from '../src/settings.js';

const settings: fc.Arbitrary<Settings> = fc.record({
  dataset: fc.constantFrom(...DATASETS),
  noise: fc.double({ min: 0, max: 0.5, noNaN: true }),
  trainPercent: fc.integer({ min: 10, max: 90 }),
  hidden: fc.array(fc.integer({ min: 1, max: MAX_NEURONS }), { maxLength: MAX_LAYERS }),
  activation: fc.constantFrom(...ACTIVATIONS),
  learningRate: fc.double({ min: 0.00001, max: 10, noNaN: true }),
  batchSize: fc.integer({ min: 1, max: POINTS }),
  l2: fc.double({ min: 0, max: 1, noNaN: true }),
  device: fc.constantFrom(...DEVICES),
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
});

describe('the playground settings', () => {
  it('survive the URL: fromQuery(toQuery(s)) is s, with no error', () => {
    fc.assert(
      fc.property(settings, (s) => {
        expect(fromQuery(toQuery(s))).toEqual({ settings: s, errors: {} });
      }),
    );
  });

  it('name every field in the URL, in order', () => {
    expect([...new URLSearchParams(toQuery(DEFAULTS)).keys()]).toEqual(FIELDS);
    expect(toQuery({ ...DEFAULTS, hidden: [4, 2] })).toContain('hidden=4%2C2');
  });

  it('keep the defaults for fields a URL does not name', () => {
    expect(fromQuery('?dataset=xor')).toEqual({ settings: { ...DEFAULTS, dataset: 'xor' }, errors: {} });
    expect(fromQuery('')).toEqual({ settings: DEFAULTS, errors: {} });
  });

  it("keep the default for a URL's invalid value and report it", () => {
    const { settings: s, errors } = fromQuery('?noise=2&batchSize=abc&dataset=moons&learningRate=0.1');
    expect(s).toEqual({ ...DEFAULTS, learningRate: 0.1 });
    expect(errors).toEqual({
      noise: 'a number from 0 to 0.5 (got 2)',
      batchSize: `a whole number from 1 to ${POINTS} (got "abc")`,
      dataset: 'one of circles, xor, spirals, gaussians (got "moons")',
    });
  });

  it.each([
    ['batchSize', '-5', `a whole number from 1 to ${POINTS} (got -5)`],
    ['batchSize', '2.5', `a whole number from 1 to ${POINTS} (got "2.5")`],
    ['batchSize', '', `a whole number from 1 to ${POINTS} (got "")`],
    ['learningRate', 'abc', 'a number from 0.00001 to 10 (got "abc")'],
    ['learningRate', '0', 'a number from 0.00001 to 10 (got 0)'],
    ['l2', '-0.1', 'a number from 0 to 1 (got -0.1)'],
    ['trainPercent', '95', 'a whole number from 10 to 90 (got 95)'],
    ['hidden', '8, x', 'hidden layer 2: a whole number from 1 to 32 (got "x")'],
    ['hidden', '8, 0', 'hidden layer 2: a whole number from 1 to 32 (got 0)'],
    ['hidden', '1,1,1,1,1,1,1', 'at most 6 hidden layers (got 7)'],
    ['activation', 'gelu', 'one of tanh, relu, sigmoid, linear (got "gelu")'],
    ['device', 'tpu', 'one of cpu, gpu, both (got "tpu")'],
  ] as const)('reject %s = "%s": %s', (field, text, error) => {
    expect(PARSERS[field](text)).toEqual({ ok: false, error });
  });

  it.each([
    ['noise', ' 0.25 ', 0.25],
    ['learningRate', '1e-3', 0.001],
    ['learningRate', '.5', 0.5],
    ['hidden', '', []],
    ['hidden', ' 4 ,2', [4, 2]],
    ['batchSize', String(POINTS), POINTS],
  ] as const)('accept %s = "%s"', (field, text, value) => {
    expect(PARSERS[field](text)).toEqual({ ok: true, value });
  });
});
