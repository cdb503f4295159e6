// The fused n-D path's two passes as WebAssembly (scripts/build-wasm-nd.ts → src/closest/
// nd.generated.ts, issue 16) and as JavaScript (the fallback where WebAssembly is not available):
// both against the exact BigInt oracle, every kind pair, several scales and near misses, and the
// committed module against its generator. Every case is seeded; the seed is in the failure message.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { TARGET, generate } from '../../scripts/build-wasm-nd.js';
import { closestPoints, createClosestResult, segmentDistance } from '../../src/closest/closest.js';
import { FAST_DONE, closestNdFast, ndPassesWasm } from '../../src/closest/kernel-nd.js';
import type { Primitive } from '../../src/core/types.js';
import { intersects } from '../../src/intersect/intersects.js';
import { exactClosest, measure, ratSqrtToNumber } from '../support/oracle.js';
import { mulberry32 } from '../support/rng.js';
import { CODE, faithful, ndCase } from '../support/nd-kinds.js';

/** Pairs of every kind in dimension dim: unit, offset 1e6, 2^±90 scales, near misses 1e-6 apart. */
function pairs(seed: number, dim: number, n: number): [Primitive, Primitive, string][] {
  const rng = mulberry32(seed);
  const list: [Primitive, Primitive, string][] = [];
  for (let k = 0; k < n; k++) {
    const { a, b, ka, kb, family } = ndCase(rng, dim, k);
    list.push([a, b, `seed=${seed} case ${k} ${ka}–${kb} family ${family} dim ${dim}`]);
  }
  return list;
}

describe('issue 16: the fused n-D passes as WebAssembly and as JavaScript', () => {
  afterEach(() => {
    ndPassesWasm(true);
  });

  for (const wasm of [true, false]) {
    for (const dim of [4, 5, 33, 1000]) {
      const seed = 16_450 + dim + (wasm ? 0 : 7);
      it(`issue 16: ${wasm ? 'WebAssembly' : 'JavaScript'} passes at ${dim}-D: faithful distance, exact decisions, points within 8·u·M′ (to 33-D) (seed=${seed})`, () => {
        ndPassesWasm(wasm);
        const fails: string[] = [];
        let fused = 0;
        const list = pairs(seed, dim, dim === 1000 ? 40 : 160);
        const out = new Float64Array(8 + dim);
        for (const [a, b, where] of list) {
          const code = closestNdFast(CODE[a.kind], CODE[b.kind], dim, a.p0, 0, a.kind === 'ray' ? a.dir : a.p1, 0, b.p0, 0, b.kind === 'ray' ? b.dir : b.p1, 0, out, true);
          if (code === FAST_DONE) fused++;
          const ex = exactClosest(a, b);
          const exact = ratSqrtToNumber(ex.distSq);
          const r = closestPoints(a, b, createClosestResult(dim));
          if (!faithful(r.distance, exact)) fails.push(`${where}: distance ${r.distance}, exact ${exact}`);
          if (code === FAST_DONE && !(out[2] === r.distance && out[0] === r.s && out[1] === r.t)) fails.push(`${where}: closestPoints differs from the kernel`);
          // (The 8·u·M′ bound on the points is checked up to 33-D: at 1000-D, 1e6 from the origin,
          // main's points are already 9.7·u·M′ off — their coordinates' roundings add up as √n;
          // the distance stays faithful.)
          const m = measure(a, b, r);
          if (dim <= 33 && !(m.cOnAPrime <= 8 && m.dOnBPrime <= 8 && m.cdPrime <= 16)) fails.push(`${where}: c off ${m.cOnAPrime}, d off ${m.dOnBPrime}, |c − d| off ${m.cdPrime} u·M'`);
          if (intersects(a, b) !== (ex.distSq.num === 0n)) fails.push(`${where}: intersects disagrees with the oracle`);
        }
        expect(fails).toEqual([]);
        expect(fused, `${seed}: the fused path answered ${fused} of ${list.length}`).toBeGreaterThanOrEqual(0.9 * list.length);
      });
    }
  }

  it('issue 16: WebAssembly and JavaScript passes give the same faithful distances and nearly the same s, t; segmentDistance too (seed=16470)', () => {
    const fails: string[] = [];
    for (const dim of [6, 101, 2000]) {
      for (const [a, b, where] of pairs(16_470 + dim, dim, 48)) {
        ndPassesWasm(true);
        const w = closestPoints(a, b);
        const wd = a.kind === 'segment' && b.kind === 'segment' ? segmentDistance(a.p0, a.p1, b.p0, b.p1) : w.distance;
        ndPassesWasm(false);
        const j = closestPoints(a, b);
        const jd = a.kind === 'segment' && b.kind === 'segment' ? segmentDistance(a.p0, a.p1, b.p0, b.p1) : j.distance;
        const exact = ratSqrtToNumber(exactClosest(a, b).distSq);
        if (!faithful(w.distance, exact) || !faithful(j.distance, exact) || !faithful(wd, exact) || !faithful(jd, exact)) {
          fails.push(`${where}: distances ${w.distance}, ${j.distance}, ${wd}, ${jd}; exact ${exact}`);
        }
        if (w.relation !== j.relation || w.unique !== j.unique) fails.push(`${where}: relation ${w.relation} vs ${j.relation}`);
        // s, t come from the same certified step; only the sums' order differs.
        const close = (x: number, y: number): boolean => x === y || Math.abs(x - y) <= 2 ** -40 * Math.max(1, Math.abs(x));
        if (!close(w.s, j.s) || !close(w.t, j.t)) fails.push(`${where}: s ${w.s} vs ${j.s}, t ${w.t} vs ${j.t}`);
      }
    }
    expect(fails).toEqual([]);
  });
});

describe('the committed n-D module is what its generator makes', () => {
  it('src/closest/nd.generated.ts is up to date (else run npx tsx scripts/build-wasm-nd.ts)', async () => {
    expect(fs.readFileSync(TARGET, 'utf8')).toBe(await generate());
  });
});
