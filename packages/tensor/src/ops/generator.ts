/**
 * Note [Generator]
 * wiregrad's random streams come from xoshiro128** (Blackman & Vigna): four 32-bit state
 * words, so every step is exact in JS integer arithmetic and the same seed gives the same
 * stream on every platform. A seed (any finite number; its low and high 32-bit halves both
 * count) is expanded into the state by splitmix32, as the xoshiro authors recommend.
 */
export class Xoshiro128StarStar {
  private readonly s: Uint32Array;

  constructor(state: readonly number[]) {
    this.s = Uint32Array.from(state);
  }

  static fromSeed(seed: number): Xoshiro128StarStar {
    const high = Math.floor(seed / 4294967296) >>> 0;
    let x = (seed >>> 0) ^ Math.imul(high, 0x9e3779b1);
    const next = () => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    return new Xoshiro128StarStar([next(), next(), next(), next()]);
  }

  /** A copy of the four state words (getRngState). */
  get state(): number[] {
    return Array.from(this.s);
  }

  /** The next 32 random bits, as an unsigned integer. */
  nextUint32(): number {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1]!, 5), 7), 9) >>> 0;
    const t = s[1]! << 9;
    s[2]! ^= s[0]!;
    s[3]! ^= s[1]!;
    s[1]! ^= s[2]!;
    s[0]! ^= s[3]!;
    s[2]! ^= t;
    s[3] = rotl(s[3]!, 11);
    return result;
  }

  /** A uniform float64 in [0, 1) from 53 random bits. */
  nextFloat64(): number {
    return ((this.nextUint32() >>> 5) * 67108864 + (this.nextUint32() >>> 6)) / 9007199254740992;
  }

  /** A uniform float32 in [0, 1) from 24 random bits (53 bits could round up to 1 in float32). */
  nextFloat32(): number {
    return (this.nextUint32() >>> 8) / 16777216;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
