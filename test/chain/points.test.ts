/**
 * chainIntersections' crossing points and contact kinds against the exact oracle
 * (test/support/exact-isect.ts: rational arithmetic, no orientation predicates): every crossing
 * point must be the correctly rounded exact intersection, every kind the oracle's.
 */
import { describe, expect, it } from 'vitest';
import {
  CROSSING, OVERLAP, T_JUNCTION, VERTEX_TOUCH, NO_CONTACT, CONTACT_KIND_NAMES,
  SkewlineInputError, chainContacts, chainIntersections, contactKind,
} from '../../src/index.js';
import { crossingPoint2, pointStats } from '../../src/chain/points.js';
import { FAMILIES_2D, FAMILIES_3D, exactIsect, family2D, family3D, isNearest, nextUp, nextDown } from '../support/exact-isect.js';
import type { OPrim, Q } from '../support/exact-isect.js';
import { gridWalk, randomWalk, smoothWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';

const seg = (c: number[], a: number, b: number, dim: number): OPrim => ({
  kind: 'segment', p: Array.from(c.slice(a * dim, a * dim + dim)), r: Array.from(c.slice(b * dim, b * dim + dim)),
});

/** The oracle's kind: overlap, or where the single common point sits on each segment. */
function oracleKind(A: OPrim, B: OPrim, r = exactIsect(A, B)): number {
  if (r.kind === 'none') return NO_CONTACT;
  if (r.kind === 'overlap') return OVERLAP;
  const end = (x: Q): boolean => x.n === 0n || x.n === x.d;
  const zeroA = A.p.every((v, k) => v === A.r[k]), zeroB = B.p.every((v, k) => v === B.r[k]);
  const ea = zeroA || end(r.s), eb = zeroB || end(r.t);
  return ea && eb ? VERTEX_TOUCH : ea || eb ? T_JUNCTION : CROSSING;
}

/** Checks every contact of chainIntersections(P) against the oracle; returns the number of crossings. */
function checkChain(P: Float64Array, label: string): number {
  const r = chainIntersections(P);
  const c = chainContacts(P, { dim: 2 });
  expect(r.count, label).toBe(c.count);
  let crossings = 0;
  const coords = Array.from(P);
  for (let k = 0; k < r.count; k++) {
    const A = seg(coords, r.i[k], r.i[k] + 1, 2), B = seg(coords, r.j[k], r.j[k] + 1, 2);
    const ex = exactIsect(A, B);
    const want = oracleKind(A, B, ex);
    const where = `${label}: segments ${r.i[k]}, ${r.j[k]}`;
    expect(r.contact[k], where).toBe(want);
    if (ex.kind === 'point') {
      if (!(isNearest(r.x0[k], ex.X[0]) && isNearest(r.y0[k], ex.X[1]))) {
        expect.fail(`${where}: (${r.x0[k]}, ${r.y0[k]}) is not the correctly rounded crossing point`);
      }
      if (want === CROSSING) crossings++;
    }
  }
  return crossings;
}

describe('chainIntersections: crossing points rounded once from the exact solution (issue 16)', () => {
  it('issue 16: seeded random walk (seed 11), every crossing point equals the oracle\'s correctly rounded point', () => {
    expect(checkChain(randomWalk(3000, 2, makeRng(11)), 'random walk seed 11')).toBeGreaterThan(500);
  });

  it('issue 16: smooth walk (seed 12), far from the origin (offset 2^40 and 1e9), correctly rounded', () => {
    const P = smoothWalk(2000, 2, makeRng(12), 0.6);
    let n = checkChain(P, 'smooth walk seed 12');
    for (const off of [2 ** 40, 1e9, -3.7e7]) {
      const Q = P.map((v, k) => v + (k % 2 === 0 ? off : -off / 3));
      n += checkChain(Q, `smooth walk seed 12 + offset ${off}`);
    }
    expect(n).toBeGreaterThan(100);
  });

  it('issue 16: integer-grid walks (seed 13): crossings, touches, T-junctions and overlaps all as the oracle says', () => {
    checkChain(gridWalk(1500, 2, makeRng(13)), 'unit grid walk seed 13');
    // Integer steps of −2 … 2 on each axis: proper crossings at fractions, T-junctions at midpoints.
    const rng = makeRng(13);
    const P = new Float64Array(2 * 1201);
    for (let k = 2; k < P.length; k++) P[k] = P[k - 2] + rng.int(-2, 2);
    checkChain(P, 'integer walk seed 13');
    const r = chainIntersections(P);
    const seen = new Set(r.contact);
    for (const k of [CROSSING, VERTEX_TOUCH, T_JUNCTION, OVERLAP]) expect(seen.has(k), CONTACT_KIND_NAMES[k]).toBe(true);
  });

  it('issue 16: tiny and huge scales (random walk seed 14 scaled by 2^-600 … 2^600) take the exact path and stay correctly rounded', () => {
    const P = randomWalk(400, 2, makeRng(14));
    for (const sc of [2 ** -600, 2 ** -420, 1e-9, 1e12, 2 ** 420, 2 ** 600]) checkChain(P.map((v) => v * sc), `walk seed 14 × ${sc}`);
  });

  it('issue 16: near-degenerate crossing pairs (families seed 15): crossingPoint2 is correctly rounded', () => {
    const out = new Float64Array(2);
    let tested = 0;
    for (const fam of FAMILIES_2D) {
      for (const { a, b, label } of family2D(fam, 15, 300)) {
        if (oracleKind(a, b) !== CROSSING) continue;
        const ex = exactIsect(a, b);
        if (ex.kind !== 'point') continue;
        crossingPoint2(a.p[0], a.p[1], a.r[0], a.r[1], b.p[0], b.p[1], b.r[0], b.r[1], out);
        if (!(isNearest(out[0], ex.X[0]) && isNearest(out[1], ex.X[1]))) expect.fail(`${label} seed 15: (${out[0]}, ${out[1]})`);
        tested++;
      }
    }
    expect(tested).toBeGreaterThan(300);
  });

  it('issue 16: crossings an ulp off a rounding boundary (seed 16): points whose exact value is a near-tie', () => {
    // Segments through a dyadic point X with its coordinates nudged by an ulp: the exact point is
    // within an ulp of a double (often a midpoint between two), the hardest case for a filter.
    const r = makeRng(16);
    const out = new Float64Array(2);
    const before = pointStats.double + pointStats.doubleDouble;
    for (let k = 0; k < 400; k++) {
      const X = [r.int(-1000, 1000) + r.int(0, 1023) / 1024, r.int(-1000, 1000) + r.int(0, 1023) / 1024];
      const d = [r.int(1, 9), r.int(-9, 9)], e = [r.int(-9, 9), r.int(1, 9)];
      const nudge = (v: number): number => (r.chance(0.5) ? nextUp(v) : nextDown(v));
      const a0 = [X[0] - d[0], nudge(X[1] - d[1])], a1 = [X[0] + d[0] * 0.5, X[1] + d[1] * 0.5];
      const b0 = [nudge(X[0] - e[0]), X[1] - e[1]], b1 = [X[0] + e[0], X[1] + e[1]];
      const A: OPrim = { kind: 'segment', p: a0, r: a1 }, B: OPrim = { kind: 'segment', p: b0, r: b1 };
      if (oracleKind(A, B) !== CROSSING) continue;
      const ex = exactIsect(A, B);
      if (ex.kind !== 'point') continue;
      crossingPoint2(a0[0], a0[1], a1[0], a1[1], b0[0], b0[1], b1[0], b1[1], out);
      if (!(isNearest(out[0], ex.X[0]) && isNearest(out[1], ex.X[1]))) expect.fail(`near-tie #${k} seed 16: (${out[0]}, ${out[1]})`);
    }
    expect(pointStats.double + pointStats.doubleDouble - before).toBeGreaterThan(0);
  });

  it('issue 16: most crossing points of a random walk are certified in doubles (seed 17)', () => {
    const P = randomWalk(20000, 2, makeRng(17));
    pointStats.double = pointStats.doubleDouble = pointStats.exact = 0;
    const r = chainIntersections(P);
    const total = pointStats.double + pointStats.doubleDouble + pointStats.exact;
    expect(total).toBe(Array.from(r.contact).filter((c) => c === CROSSING).length);
    // Doubles decide the bulk; double-double nearly all the rest (a walk this short stays near
    // the origin, where the offsets are as large as the coordinates: the hardest case).
    expect(pointStats.double / total).toBeGreaterThan(0.4);
    expect(pointStats.exact / total).toBeLessThan(0.001);
  });
});

describe('contact kinds (issue 17)', () => {
  it('issue 17: contactKind in 2D equals the oracle on every near-degenerate family (seed 21)', () => {
    for (const fam of FAMILIES_2D) {
      for (const { a, b, label } of family2D(fam, 21, 200)) {
        const P = [...a.p, ...a.r, ...b.p, ...b.r];
        expect(contactKind(P, 2, 0, 2, false), `${label} seed 21`).toBe(oracleKind(a, b));
      }
    }
  });

  it('issue 17: contactKind in 3D equals the oracle on every family, coplanar or skew (seed 22)', () => {
    for (const fam of FAMILIES_3D) {
      for (const { a, b, label } of family3D(fam, 22, 150)) {
        const P = [...a.p, ...a.r, ...b.p, ...b.r];
        expect(contactKind(P, 3, 0, 2, false), `${label} seed 22`).toBe(oracleKind(a, b));
      }
    }
  });

  it('issue 17: a self-tangent ring is told from a self-crossing one', () => {
    // A figure-eight that touches itself at (2, 0) (a bow tie pinched at a vertex) …
    const tangent = [0, 0, 2, 0, 4, 1, 4, -1, 2, 0, 0, 1, 0, 0];
    const t = chainIntersections(tangent);
    // Four segments meet at the pinch: four pairs, all vertex touches at (2, 0).
    expect(Array.from(t.contact)).toEqual([VERTEX_TOUCH, VERTEX_TOUCH, VERTEX_TOUCH, VERTEX_TOUCH]);
    expect(Array.from(t.x0)).toEqual([2, 2, 2, 2]);
    expect(Array.from(t.y0)).toEqual([0, 0, 0, 0]);
    // … and one that crosses itself at (2, 0.5).
    const crossing = [0, 0, 4, 1, 4, 0, 0, 1, 0, 0];
    const c = chainIntersections(crossing);
    expect(Array.from(c.contact)).toEqual([CROSSING]);
    expect([c.x0[0], c.y0[0]]).toEqual([2, 0.5]);
    // A vertex on another segment's interior, and a collinear overlap.
    // (2, 0) ends segments 3 and 4 on the interior of segment 0: two T-junctions.
    expect(Array.from(chainIntersections([0, 0, 4, 0, 4, 2, 2, 2, 2, 0, 2, -1]).contact)).toEqual([T_JUNCTION, T_JUNCTION]);
    expect(contactKind([0, 0, 4, 0, 1, 0, 3, 0], 2, 0, 2)).toBe(OVERLAP);
    expect(contactKind([0, 0, 4, 0, 4, 0, 9, 0], 2, 0, 2)).toBe(VERTEX_TOUCH);
    expect(contactKind([0, 0, 4, 0, 5, 0, 9, 0], 2, 0, 2)).toBe(NO_CONTACT);
    // Adjacent segments share their vertex; a closed chain's last segment runs back to the first vertex.
    expect(contactKind([0, 0, 1, 0, 1, 1], 2, 0, 1)).toBe(VERTEX_TOUCH);
    expect(contactKind([0, 0, 2, 0, 1, 0], 2, 0, 1)).toBe(OVERLAP);
    expect(contactKind([0, 0, 2, 0, 2, 2, 0, 2], 2, 0, 3, true)).toBe(VERTEX_TOUCH);
    expect(contactKind([0, 0, 0, 2, 0, 0, 1, 1, 1, 2, 0, 2], 3, 0, 1)).toBe(VERTEX_TOUCH);
    expect(contactKind([0, 0, 0, 2, 2, 0, 0, 2, 0, 2, 0, 0], 3, 0, 2)).toBe(CROSSING);
    expect(contactKind([0, 0, 0, 2, 2, 2, 0, 2, 0, 2, 0, 0], 3, 0, 2)).toBe(NO_CONTACT); // skew
  });

  it('issue 17: contactKind rejects bad input with a clear SkewlineInputError', () => {
    expect(() => contactKind([0, 0, 1, 1], 4, 0, 0)).toThrow(/dim must be 2 or 3/);
    expect(() => contactKind([0, 0, 1], 2, 0, 0)).toThrow(SkewlineInputError);
    expect(() => contactKind([0, 0, 1, 1, 2, 2], 2, 0, 2)).toThrow(/j = 2 is not a segment index \(the chain has 2 segments\)/);
    expect(() => contactKind([0, 0, 1, NaN, 2, 2], 2, 0, 1)).toThrow(/vertex 1 coordinate 1/);
  });

  it('issue 17: chainIntersections checks its options', () => {
    expect(() => chainIntersections([0, 0, 1, 1], { closd: true } as never)).toThrow(/unknown option "closd" \(accepted: dim, closed, against, againstClosed, thickness, into\)/);
    expect(() => chainIntersections([0, 0, 1, 1], { thickness: 1 as 0 })).toThrow(/thickness 0/);
  });
});
