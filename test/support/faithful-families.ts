/**
 * Seeded segment-pair families for the faithful-distance tests (issue 19): pairs whose distance
 * is a chosen fraction ρ of their size S, log-uniform in 1e-14 … 1e-2 by default, laid out flat
 * (a0, a1, b0, b1; dim numbers each), so the batches and the kernels can take them as they are.
 * - nearParallel: nearly parallel pieces (angle log-uniform 1e-15 … 1e-3, or … `angleHi`) with
 *   overlapping shadows and a gap of ρ·S;
 * - nearEndpoint: an endpoint of b at ρ·S from an interior point of a, b leaving away from a;
 * - skew: lines crossing in projection inside both segments, offset ρ·S along their common
 *   normal (3D; in 2D the pieces would cross, so 2D gets an endpoint ρ·S short of the other);
 * Each is randomly rotated and translated; `scale` multiplies every coordinate afterwards
 * (1e300, 1e-300: the same shapes at the ends of the double range).
 * And exact and faithful checks of a computed distance against the BigInt oracle.
 */
import { segment } from '../../src/core/primitives.js';
import { exactDistanceSq, ratCmp, ratFromDouble, ratMul, ratSqrtToNumber, errorVsExact, type Rat } from './oracle.js';
import { applyMatrix, makeRng, nextDown, nextUp, type Rng } from './rng.js';

export type FaithfulFamily = 'nearParallel' | 'nearEndpoint' | 'skew';
export const FAITHFUL_FAMILIES: readonly FaithfulFamily[] = ['nearParallel', 'nearEndpoint', 'skew'];

function frame(rng: Rng, dim: number): number[] {
  if (dim === 2) {
    const th = rng.uniform(0, 2 * Math.PI);
    return [Math.cos(th), -Math.sin(th), Math.sin(th), Math.cos(th)];
  }
  return rng.randomRotation3();
}

/** The four points of one pair in local coordinates (x along a), before rotation. */
function local(family: FaithfulFamily, rng: Rng, dim: number, rho: number, angleHi: number): number[][] {
  const la = rng.uniform(0.5, 2);
  const pad = (v: number[]): number[] => (dim === 2 ? v.slice(0, 2) : v);
  const gap = rho * la;
  if (family === 'nearParallel') {
    const lb = rng.uniform(0.5, 2);
    const ang = rng.logUniform(1e-15, angleHi);
    const cb = rng.uniform(-0.4, 0.4) * (la + lb);
    const c = Math.cos(ang);
    const s = Math.sin(ang);
    // In 2D, b rises from its first end, ρ·S above a: the nearest pair is at that end.
    return dim === 2
      ? [[-la / 2, 0], [la / 2, 0], [cb - (c * lb) / 2, gap], [cb + (c * lb) / 2, gap + s * lb]]
      : [[-la / 2, 0, 0], [la / 2, 0, 0], [cb - (c * lb) / 2, -(s * lb) / 2, gap], [cb + (c * lb) / 2, (s * lb) / 2, gap]];
  }
  if (family === 'nearEndpoint') {
    const x = rng.uniform(-0.4, 0.4) * la;
    const lb = rng.uniform(0.5, 2);
    // b leaves its end b0 = (x, gap, …) away from a: direction with a positive y component.
    const dir = dim === 2 ? [rng.uniform(-1, 1), rng.uniform(0.2, 1)] : [rng.uniform(-1, 1), rng.uniform(0.2, 1), rng.uniform(-1, 1)];
    const n = Math.hypot(...dir);
    const b0 = pad([x, gap, 0]);
    const b1 = b0.map((v, i) => v + (lb * dir[i]) / n);
    return [pad([-la / 2, 0, 0]), pad([la / 2, 0, 0]), b0, b1];
  }
  // skew
  if (dim === 2) {
    // b ends ρ·S short of crossing a.
    const x = rng.uniform(-0.4, 0.4) * la;
    const ang = rng.uniform(0.3, 2.8);
    const lb = rng.uniform(0.5, 2);
    return [[-la / 2, 0], [la / 2, 0], [x + gap * Math.cos(ang), gap * Math.sin(ang)], [x + (gap + lb) * Math.cos(ang), (gap + lb) * Math.sin(ang)]];
  }
  const ang = rng.uniform(0.05, Math.PI - 0.05);
  const lb = rng.uniform(0.5, 2);
  const x = rng.uniform(-0.4, 0.4) * la;
  const tb = rng.uniform(-0.4, 0.4) * lb;
  const c = Math.cos(ang);
  const s = Math.sin(ang);
  return [[-la / 2, 0, 0], [la / 2, 0, 0], [x + c * (-lb / 2 - tb), s * (-lb / 2 - tb), gap], [x + c * (lb / 2 - tb), s * (lb / 2 - tb), gap]];
}

/**
 * n pairs of a family in dim 2 or 3, flat (4·dim numbers a pair), ρ log-uniform in
 * [rhoLo, rhoHi], coordinates times `scale`. Deterministic in its arguments.
 */
export function faithfulPairs(family: FaithfulFamily, dim: 2 | 3, n: number, seed: number, opts: { rhoLo?: number; rhoHi?: number; scale?: number; angleHi?: number } = {}): Float64Array {
  const rng = makeRng(seed);
  const { rhoLo = 1e-14, rhoHi = 1e-2, scale = 1, angleHi = 1e-3 } = opts;
  const out = new Float64Array(4 * dim * n);
  for (let k = 0; k < n; k++) {
    const pts = local(family, rng, dim, rng.logUniform(rhoLo, rhoHi), angleHi);
    const R = frame(rng, dim);
    const T = Array.from({ length: dim }, () => rng.uniform(-1, 1));
    for (let p = 0; p < 4; p++) {
      const v = applyMatrix(R, pts[p]);
      for (let j = 0; j < dim; j++) out[4 * dim * k + dim * p + j] = (v[j] + T[j]) * scale;
    }
  }
  return out;
}

/** The exact squared distance of pair i of a flat array. */
export function exactPairSq(pairs: Float64Array, dim: number, i: number): Rat {
  const at = (p: number) => pairs.subarray(4 * dim * i + dim * p, 4 * dim * i + dim * (p + 1));
  return exactDistanceSq(segment(at(0), at(1)), segment(at(2), at(3)));
}

/**
 * Is d a faithful rounding of √q: d = √q exactly, or pred(d)² < q < succ(d)² (decided exactly)?
 */
export function isFaithful(d: number, q: Rat): boolean {
  if (!(d >= 0) || !Number.isFinite(d)) return false;
  const sq = (x: number): Rat => {
    const r = ratFromDouble(x);
    return ratMul(r, r);
  };
  const c = ratCmp(sq(d), q);
  if (c === 0) return true;
  const lo = d === 0 ? null : nextDown(d);
  const hi = nextUp(d);
  // Above the largest double its successor is 2^1024 (the overflow threshold's binade end).
  const hiSq = hi === Infinity ? { num: 1n << 2048n, den: 1n } : sq(hi);
  return (lo === null || ratCmp(sq(lo), q) < 0) && ratCmp(hiSq, q) > 0;
}

/** |d − √q| in ulps of √q (rounded), to a few digits. */
export function ulpsOff(d: number, q: Rat): number {
  const exact = ratSqrtToNumber(q);
  if (exact === 0) return d === 0 ? 0 : Infinity;
  const ulp = nextUp(exact) - exact;
  // Near the subnormal range the error itself would round to the grid: measure it at 2^600 times
  // the size (exact for d and q), against the unscaled ulp times 2^600.
  if (exact < 2 ** -900) return errorVsExact(d * 2 ** 600, ratMul(q, { num: 1n << 1200n, den: 1n })) / (ulp * 2 ** 600);
  return errorVsExact(d, q) / ulp;
}
