/**
 * One source of truth: intersects(a, b), closestPoints' relation tag and `distance === 0`
 * answer the same yes/no question, and must agree with each other and with the exact
 * oracle on every input — including the near-degenerate families where they are hardest.
 */
import { describe, expect, it } from 'vitest';
import { closestPoints, intersects, line, point, ray, segment, segmentIntersection2D } from '../../src/index.js';
import type { Primitive } from '../../src/core/types.js';
import { FAMILIES_2D, FAMILIES_3D, exactShares, family2D, family3D, familyMixed } from '../support/exact-isect.js';
import type { OPrim } from '../support/exact-isect.js';
import { FAMILIES } from '../support/families.js';
import { exactShares as oracleShares } from '../support/oracle.js';

const LONG = process.env.SKEWLINE_LONG === '1';
const N = LONG ? 2000 : 250;

function prim(x: OPrim): Primitive {
  if (x.kind === 'point') return point(x.p);
  if (x.kind === 'ray') return ray(x.p, x.r);
  if (x.kind === 'line') return line(x.p, x.r);
  return segment(x.p, x.r);
}

function check(a: Primitive, b: Primitive, truth: boolean, where: string): void {
  const r = closestPoints(a, b);
  const touching = r.relation === 'intersecting' || r.relation === 'overlapping';
  expect(intersects(a, b), where).toBe(truth);
  expect(r.distance === 0, where).toBe(truth);
  expect(touching, where).toBe(truth);
}

describe('intersects, closestPoints’ tag and distance === 0 agree with the exact answer', () => {
  for (const fam of FAMILIES_2D) {
    it(`2D ${fam}, seed 31`, () => {
      for (const p of family2D(fam, 31, N)) check(prim(p.a), prim(p.b), exactShares(p.a, p.b), `seed 31 ${p.label}`);
    });
  }
  for (const fam of FAMILIES_3D) {
    it(`3D ${fam}, seed 37`, () => {
      for (const p of family3D(fam, 37, N)) check(prim(p.a), prim(p.b), exactShares(p.a, p.b), `seed 37 ${p.label}`);
    });
  }
  for (const dim of [2, 3] as const) {
    it(`mixed kinds ${dim}D, seed 41`, () => {
      for (const p of familyMixed(41, N, dim)) check(prim(p.a), prim(p.b), exactShares(p.a, p.b), `seed 41 ${p.label}`);
    });
  }
  it('the distance-oracle families (2D/3D), seed 43', () => {
    FAMILIES.forEach((f, i) => {
      for (const c of f.make(43 + i, N / 5, { dims: [2, 3] })) check(c.a, c.b, oracleShares(c.a, c.b), `seed ${43 + i} ${f.name}`);
    });
  });
  it('segmentIntersection2D agrees too (2D segments), seed 47', () => {
    for (const fam of FAMILIES_2D) {
      for (const p of family2D(fam, 47, N)) {
        if (p.a.kind !== 'segment' || p.b.kind !== 'segment') continue;
        const r = segmentIntersection2D(p.a.p, p.a.r, p.b.p, p.b.r);
        expect(r.kind !== 'none', `seed 47 ${p.label}`).toBe(exactShares(p.a, p.b));
      }
    }
  });
});
