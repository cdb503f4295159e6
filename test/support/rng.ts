/**
 * A small seeded pseudo-random generator for reproducible test and benchmark data.
 *
 * The core is sfc32 (Chris Doty-Humphrey's "Small Fast Counting" generator, PractRand suite):
 * four 32-bit words, a = b ^ (b >>> 9), b = c + (c << 3), c = rotl(c, 21) + t, d = d + 1,
 * output t = a + b + d. The seed is spread over the state with splitmix32-style mixing and the
 * first outputs are discarded, so nearby seeds give unrelated streams.
 */

/** A seeded random source. Every method advances the same stream; nothing is global. */
export interface Rng {
  /** The seed this generator was made from (print it so a failure can be replayed). */
  readonly seed: number;
  /** A uniform 32-bit unsigned integer. */
  nextU32(): number;
  /** A uniform double in [0, 1) with 53 random bits. */
  next(): number;
  /** A uniform double in [lo, hi). */
  uniform(lo: number, hi: number): number;
  /** A uniform integer in [lo, hi] (both inclusive, |hi − lo| < 2^53). */
  int(lo: number, hi: number): number;
  /** exp of a uniform value in [ln lo, ln hi): spreads evenly over orders of magnitude (0 < lo ≤ hi). */
  logUniform(lo: number, hi: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** −1 or +1 with equal probability. */
  sign(): number;
  /** One element of a non-empty array, uniformly. */
  pick<T>(items: readonly T[]): T;
  /** A standard normal deviate (Box–Muller). */
  normal(): number;
  /** A uniformly distributed unit vector in R^dim (normalised Gaussian vector). */
  unitVector(dim: number): number[];
  /** A uniformly distributed 3×3 rotation matrix (row-major, 9 numbers), from a random unit quaternion. */
  randomRotation3(): number[];
  /** A random dim×dim orthogonal matrix (row-major) as a product of dim Householder reflections. */
  randomOrthogonal(dim: number): number[];
}

/** Mixes a 32-bit value (the splitmix32 / murmur3 finaliser). */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * Creates a generator from an integer seed (any double is accepted; it is folded to 32 bits
 * twice so seeds above 2^32 still differ).
 */
export function makeRng(seed: number): Rng {
  const lo = seed >>> 0;
  const hi = Math.floor(seed / 4294967296) >>> 0;
  let a = mix32(lo ^ 0x9e3779b9);
  let b = mix32(hi ^ 0x243f6a88);
  let c = mix32(lo + 0x85a308d3);
  let d = 1;
  const nextU32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 15; i++) nextU32();

  const next = (): number => {
    // 21 high bits + 32 low bits = 53 bits.
    const hiBits = nextU32() >>> 11;
    return (hiBits * 4294967296 + nextU32()) / 9007199254740992;
  };
  const uniform = (l: number, h: number): number => l + (h - l) * next();
  const int = (l: number, h: number): number => l + Math.floor(next() * (h - l + 1));
  const logUniform = (l: number, h: number): number => Math.exp(uniform(Math.log(l), Math.log(h)));
  const normal = (): number => {
    let u1 = next();
    while (u1 === 0) u1 = next();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * next());
  };
  const unitVector = (dim: number): number[] => {
    while (true) {
      const v: number[] = [];
      let n2 = 0;
      for (let i = 0; i < dim; i++) {
        const x = normal();
        v.push(x);
        n2 += x * x;
      }
      if (n2 > 1e-20) {
        const n = Math.sqrt(n2);
        return v.map((x) => x / n);
      }
    }
  };
  const randomRotation3 = (): number[] => {
    // A uniform unit quaternion (w, x, y, z) gives a uniform rotation (Shoemake, Graphics Gems III).
    const [w, x, y, z] = unitVector(4);
    return [
      1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
      2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
      2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
    ];
  };
  const randomOrthogonal = (dim: number): number[] => {
    // Start from the identity and apply dim reflections H = I − 2·h·hᵀ with random unit h.
    const m: number[] = [];
    for (let i = 0; i < dim; i++) for (let j = 0; j < dim; j++) m.push(i === j ? 1 : 0);
    for (let r = 0; r < dim; r++) {
      const h = unitVector(dim);
      for (let j = 0; j < dim; j++) {
        let dot = 0;
        for (let i = 0; i < dim; i++) dot += h[i] * m[i * dim + j];
        for (let i = 0; i < dim; i++) m[i * dim + j] -= 2 * h[i] * dot;
      }
    }
    return m;
  };
  return {
    seed,
    nextU32,
    next,
    uniform,
    int,
    logUniform,
    chance: (p) => next() < p,
    sign: () => (nextU32() & 1 ? 1 : -1),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    normal,
    unitVector,
    randomRotation3,
    randomOrthogonal,
  };
}

/** Applies a row-major dim×dim matrix to a vector: returns m·v (rounded in doubles). */
export function applyMatrix(m: readonly number[], v: readonly number[]): number[] {
  const dim = v.length;
  const out: number[] = [];
  for (let i = 0; i < dim; i++) {
    let acc = 0;
    for (let j = 0; j < dim; j++) acc += m[i * dim + j] * v[j];
    out.push(acc);
  }
  return out;
}

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

/** The next double above x (IEEE 754 nextUp). nextUp(+∞) = +∞, nextUp(NaN) = NaN. */
export function nextUp(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === 0) return Number.MIN_VALUE;
  F64[0] = x;
  U64[0] = x > 0 ? U64[0] + 1n : U64[0] - 1n;
  return F64[0];
}

/** The next double below x (IEEE 754 nextDown). */
export function nextDown(x: number): number {
  return -nextUp(-x);
}

/**
 * mulberry32 (Tommy Ettinger, public domain): a tiny seeded generator, uniform in [0, 1).
 * Used where a plain `() => number` stream is enough (benchmarks, the CLI's data generator).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
