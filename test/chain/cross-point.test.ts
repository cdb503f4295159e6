/**
 * The crossing point computed inside the 2D contact search (cross-point.ts, crossCore, run by
 * contacts.ts' narrow2 for chainIntersections): its three verdicts checked against the exact
 * oracle (test/support/exact-isect.ts) on near-degenerate pairs, and chainIntersections with the
 * fused search checked bit for bit against the pair-by-pair path (the pairs of chainContacts,
 * each classified and its point computed on its own).
 */
import { describe, expect, it } from 'vitest';
import { CROSSING, NO_CONTACT, OVERLAP, chainContacts, chainIntersections } from '../../src/index.js';
import { APART, CROSS_OPEN, CROSS_POINT, UNDECIDED, crossCore } from '../../src/chain/cross-point.js';
import { crossingPoint2 } from '../../src/chain/points.js';
import { TOUCH, classify2 } from '../../src/chain/classify.js';
import { intersection2D } from '../../src/intersect/segment-2d.js';
import { FAMILIES_2D, exactIsect, family2D, isNearest, nextDown, nextUp } from '../support/exact-isect.js';
import type { OPrim } from '../support/exact-isect.js';
import { gridWalk, randomWalk, smoothWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';

/** The oracle's verdict on a pair: no contact, a proper crossing, or another contact (touch, overlap). */
function oracle(a: OPrim, b: OPrim): 'none' | 'crossing' | 'other' {
  const r = exactIsect(a, b);
  if (r.kind === 'none') return 'none';
  if (r.kind === 'overlap') return 'other';
  const inner = (x: { n: bigint; d: bigint }): boolean => x.n !== 0n && x.n !== x.d;
  const zero = (s: OPrim): boolean => s.p.every((v, k) => v === s.r[k]);
  return !zero(a) && !zero(b) && inner(r.s) && inner(r.t) ? 'crossing' : 'other';
}

describe('the crossing point inside the 2D search (issue 16)', () => {
  it('issue 16: crossCore (the fused filter of the search) is never wrong on near-degenerate families, scaled 2^-600 … 2^600 (seed 31)', () => {
    const Q = new Float64Array(8), out = new Float64Array(2);
    const seen = { [APART]: 0, [UNDECIDED]: 0, [CROSS_OPEN]: 0, [CROSS_POINT]: 0 } as Record<number, number>;
    const check = (a: OPrim, b: OPrim, label: string): void => {
      Q.set([a.p[0], a.p[1], a.r[0], a.r[1], b.p[0], b.p[1], b.r[0], b.r[1]]);
      out[0] = out[1] = -7; // a sentinel: UNDECIDED and APART write nothing
      const v = crossCore(Q, 0, Q, 4, out);
      seen[v]++;
      const want = oracle(a, b);
      if (v === APART && want !== 'none') expect.fail(`${label} seed 31: APART, the oracle says ${want}`);
      if ((v === CROSS_POINT || v === CROSS_OPEN) && want !== 'crossing') expect.fail(`${label} seed 31: a crossing, the oracle says ${want}`);
      if (v === CROSS_POINT) {
        const ex = exactIsect(a, b);
        if (ex.kind !== 'point' || !(isNearest(out[0], ex.X[0]) && isNearest(out[1], ex.X[1]))) expect.fail(`${label} seed 31: (${out[0]}, ${out[1]}) is not the correctly rounded point`);
      }
      if (v === UNDECIDED || v === APART) expect([out[0], out[1]], label).toEqual([-7, -7]);
    };
    const scale = (s: OPrim, f: number): OPrim => ({ kind: 'segment', p: s.p.map((x) => x * f), r: s.r.map((x) => x * f) });
    for (const fam of FAMILIES_2D) {
      for (const { a, b, label } of family2D(fam, 31, 150)) {
        for (const f of [1, 2 ** -600, 2 ** -520, 1e-9, 1e12, 2 ** 520, 2 ** 600]) check(scale(a, f), scale(b, f), `${label} × ${f}`);
      }
    }
    // Near-ties: segments through a dyadic point with a coordinate nudged by an ulp, and
    // endpoints touching the other segment or lying an ulp beside it.
    const r = makeRng(31);
    for (let k = 0; k < 600; k++) {
      const X = [r.int(-1000, 1000) + r.int(0, 1023) / 1024, r.int(-1000, 1000) + r.int(0, 1023) / 1024];
      const d = [r.int(1, 9), r.int(-9, 9)], e = [r.int(-9, 9), r.int(1, 9)];
      const nudge = (v: number): number => (r.chance(0.5) ? nextUp(v) : nextDown(v));
      const a: OPrim = { kind: 'segment', p: [X[0] - d[0], nudge(X[1] - d[1])], r: [X[0] + d[0] * 0.5, X[1] + d[1] * 0.5] };
      const b: OPrim = { kind: 'segment', p: [nudge(X[0] - e[0]), X[1] - e[1]], r: [X[0] + e[0], X[1] + e[1]] };
      check(a, b, `near-tie #${k}`);
      // b ends on X (a T-junction), an ulp short of it, or an ulp beyond.
      const end = [X[0], X[1]];
      const which = r.int(0, 2);
      if (which === 1) end[0] = nudge(end[0]);
      const t: OPrim = { kind: 'segment', p: [X[0] - e[0], X[1] - e[1]], r: end };
      check(a, t, `endpoint #${k} (${which})`);
    }
    // Every verdict occurs, so every branch of the filter was exercised.
    for (const v of [APART, UNDECIDED, CROSS_OPEN, CROSS_POINT]) expect(seen[v], `verdict ${v}`).toBeGreaterThan(0);
  });

  /** chainIntersections computed pair by pair from chainContacts' pairs: the path without the fused search. */
  function pairByPair(P: Float64Array, options: { closed?: boolean; against?: Float64Array } = {}): { contact: number[]; x0: number[]; y0: number[]; x1: number[]; y1: number[] } {
    const c = chainContacts(P, { dim: 2, ...options });
    const Bp = options.against ?? P;
    const n = P.length / 2, nb = Bp.length / 2;
    const at = (Z: Float64Array, m: number, k: number, o: number): number => Z[(2 * ((k + o) % m)) + 0];
    const aty = (Z: Float64Array, m: number, k: number, o: number): number => Z[(2 * ((k + o) % m)) + 1];
    const res = { contact: [] as number[], x0: [] as number[], y0: [] as number[], x1: [] as number[], y1: [] as number[] };
    const out = new Float64Array(2);
    for (let k = 0; k < c.count; k++) {
      const i = c.i[k], j = c.j[k];
      const ax0 = at(P, n, i, 0), ay0 = aty(P, n, i, 0), ax1 = at(P, n, i, 1), ay1 = aty(P, n, i, 1);
      const bx0 = at(Bp, nb, j, 0), by0 = aty(Bp, nb, j, 0), bx1 = at(Bp, nb, j, 1), by1 = aty(Bp, nb, j, 1);
      const kind = classify2(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
      res.contact.push(kind);
      if (kind === CROSSING) {
        crossingPoint2(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1, out);
        res.x0.push(out[0]); res.y0.push(out[1]); res.x1.push(out[0]); res.y1.push(out[1]);
      } else if (kind === OVERLAP) {
        const r = intersection2D(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
        if (r.kind !== 'overlap') throw new Error('not an overlap');
        res.x0.push(r.start[0]); res.y0.push(r.start[1]); res.x1.push(r.end[0]); res.y1.push(r.end[1]);
      } else if (kind !== NO_CONTACT) {
        res.x0.push(TOUCH[0]); res.y0.push(TOUCH[1]); res.x1.push(TOUCH[0]); res.y1.push(TOUCH[1]);
      } else throw new Error(`pair ${i}, ${j}: no contact`);
    }
    return res;
  }

  it('issue 16: chainIntersections with the points computed in the search equals the pair-by-pair path bit for bit (random, grid, smooth, scaled, rings, against; seed 32)', () => {
    const r = makeRng(32);
    const walk = randomWalk(6000, 2, r); // the grid search
    const grid = gridWalk(3000, 2, r); // touches, T-junctions, overlaps, fold-backs
    const smooth = smoothWalk(3000, 2, r, 0.6); // the hierarchy
    const small = randomWalk(20, 2, r).map((v) => v * 3); // all pairs (a short chain)
    // Repeated vertices make zero-length segments: compact indices differ from the input's.
    const repeats = new Float64Array(2 * 4000);
    for (let k = 1; k < 4000; k++) {
      const stay = r.chance(0.2);
      repeats[2 * k] = repeats[2 * k - 2] + (stay ? 0 : r.int(-2, 2));
      repeats[2 * k + 1] = repeats[2 * k - 1] + (stay ? 0 : r.int(-2, 2));
    }
    const cases: [string, Float64Array, { closed?: boolean; against?: Float64Array }][] = [
      ['random walk', walk, {}],
      ['random walk × 2^-600', walk.map((v) => v * 2 ** -600), {}],
      ['random walk × 2^600', walk.map((v) => v * 2 ** 600), {}],
      ['random walk + 2^40', walk.map((v) => v + 2 ** 40), {}],
      ['grid walk', grid, {}],
      ['grid walk, closed', grid, { closed: true }],
      ['smooth walk', smooth, {}],
      ['short chain', small, {}],
      ['repeated vertices', repeats, {}],
      ['against', walk.subarray(0, 6000), { against: walk.subarray(6000) }],
    ];
    let crossings = 0;
    for (const [label, P, options] of cases) {
      const got = chainIntersections(P, options);
      const want = pairByPair(P, options);
      const c = chainContacts(P, { dim: 2, ...options });
      expect(got.count, label).toBe(c.count);
      expect(Array.from(got.i), label).toEqual(Array.from(c.i));
      expect(Array.from(got.j), label).toEqual(Array.from(c.j));
      expect(Array.from(got.contact), label).toEqual(want.contact);
      for (let k = 0; k < got.count; k++) {
        const same = Object.is(got.x0[k], want.x0[k]) && Object.is(got.y0[k], want.y0[k]) && Object.is(got.x1[k], want.x1[k]) && Object.is(got.y1[k], want.y1[k]);
        if (!same) expect.fail(`${label} seed 32, pair ${got.i[k]}, ${got.j[k]}: (${got.x0[k]}, ${got.y0[k]}, ${got.x1[k]}, ${got.y1[k]}) ≠ (${want.x0[k]}, ${want.y0[k]}, ${want.x1[k]}, ${want.y1[k]})`);
        if (got.contact[k] === CROSSING) crossings++;
      }
      expect(got.kind.every((v, k) => v === (got.contact[k] === OVERLAP ? 2 : 1)), label).toBe(true);
    }
    expect(crossings).toBeGreaterThan(1000);
  });
});
