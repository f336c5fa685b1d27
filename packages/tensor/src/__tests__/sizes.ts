import fc from 'fast-check';

type Range = readonly [min: number, max: number];
/** One whole number per range. */
type Drawn<R extends readonly Range[]> = { -readonly [I in keyof R]: number };

/**
 * A property's sizes (fast-check): a tuple of whole numbers, each within its [min, max] range
 * (`sizes([1, 70], [1, 300], [1, 70])` draws a product's M, K and N).
 */
export function sizes<const R extends readonly Range[]>(...ranges: R): fc.Arbitrary<Drawn<R>> {
  return fc.tuple(...ranges.map(([min, max]) => fc.integer({ min, max }))) as fc.Arbitrary<Drawn<R>>;
}
