/**
 * Note [PyTorch's randperm]
 * DistributedSampler must give every rank PyTorch's very indices, so its shuffle is PyTorch's:
 * `torch.Generator().manual_seed(s)` seeds a 32-bit Mersenne Twister (at::mt19937, the
 * standard MT19937 with its standard seeding of the low 32 bits of `s`), and CPU `randperm(n)`
 * (n < 2^32 / 20) swaps element i with element i + (next32() % (n - i)) for i = 0..n-2, starting
 * from 0..n-1. Checked against PyTorch 1.13's output in sampler.test.ts.
 */
export class MT19937 {
  private readonly mt = new Uint32Array(624);
  private index = 624;

  constructor(seed: number) {
    const mt = this.mt;
    mt[0] = Number(BigInt.asUintN(32, BigInt(seed)));
    for (let i = 1; i < 624; i++) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
  }

  /** The next 32-bit output. */
  next32(): number {
    const mt = this.mt;
    if (this.index >= 624) {
      for (let i = 0; i < 624; i++) {
        const y = (mt[i]! & 0x80000000) | (mt[(i + 1) % 624]! & 0x7fffffff);
        mt[i] = mt[(i + 397) % 624]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }
}

/** `torch.randperm(n, generator=torch.Generator().manual_seed(seed)).tolist()` (Note [PyTorch's randperm]). */
export function randperm(n: number, seed: number): number[] {
  const g = new MT19937(seed);
  const p = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < n - 1; i++) {
    const z = g.next32() % (n - i);
    const sav = p[i]!;
    p[i] = p[z + i]!;
    p[z + i] = sav;
  }
  return p;
}
