// closestPoints(a, b) without a target (issue 16: the fresh result at 1000-D). The fresh arrays
// are made differently from a target's (slices of kept zeros), so the fresh result must equal the
// target path's bit for bit, −0 included, on every path (fused, general, degenerate, touching,
// parallel); and its arrays must be packed arrays of doubles (V8's fast elements), which is what
// makes them cheap. Every case is seeded; the seed and the case are in the failure message.
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { closestPoints, createClosestResult } from '../../src/closest/closest.js';
import { point, segment } from '../../src/core/primitives.js';
import type { ClosestResult, Primitive } from '../../src/core/types.js';
import { mulberry32 } from '../support/rng.js';
import { KINDS, make } from '../support/nd-kinds.js';

const FIELDS = ['distance', 'distanceSq', 's', 't', 'relation', 'tag', 'unique', 'parallel', 'degenerate'] as const;

/** Where two results differ bit for bit (Object.is: −0 ≠ 0), or null. */
function differ(x: ClosestResult, y: ClosestResult): string | null {
  for (const f of FIELDS) if (!Object.is(x[f], y[f])) return `${f}: ${String(x[f])} vs ${String(y[f])}`;
  for (const f of ['c', 'd', 'p', 'vector'] as const) {
    if (x[f].length !== y[f].length) return `${f}.length`;
    for (let i = 0; i < x[f].length; i++) if (!Object.is(x[f][i], y[f][i])) return `${f}[${i}]: ${x[f][i]} vs ${y[f][i]}`;
  }
  return null;
}

/** The result, or the error's class and message, of one call. */
function attempt(f: () => ClosestResult): ClosestResult | string {
  try {
    return f();
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
}

describe('issue 16: closestPoints(a, b) without a target in n-D', () => {
  for (const dim of [4, 7, 64, 1000]) {
    const seed = 16_600 + dim;
    it(`issue 16: a fresh n-D result equals the target path's bit for bit, −0 and degenerate kinds included (seed=${seed})`, () => {
      const rng = mulberry32(seed);
      const fails: string[] = [];
      // One target reused for every case (as a caller would), first filled with 1.5 so that a
      // coordinate the target path left unwritten would show.
      const target = createClosestResult(dim);
      for (const x of [target.c, target.d, target.p, target.vector]) x.fill(1.5);
      let families = 0;
      for (let k = 0; k < 96; k++) {
        const ka = KINDS[k % 4];
        const kb = KINDS[(k >> 2) % 4];
        const family = (k >> 4) % 6;
        const v = (): number[] => Array.from({ length: dim }, () => rng() * 2 - 1);
        let a: Primitive;
        let b: Primitive;
        if (family === 0) {
          // General position: the fused path.
          a = make(ka, v(), v());
          b = make(kb, v(), v());
        } else if (family === 1) {
          // Signed zeros: every coordinate ±0 but one, so c, d, p and vector hold −0 where the
          // rounding gives it.
          const z = (): number[] => Array.from({ length: dim }, (_, i) => (i === 0 ? rng() - 0.5 : rng() < 0.5 ? -0 : 0));
          a = make(ka, z(), z());
          b = make(kb, z(), z());
        } else if (family === 2) {
          // Touching: b passes through a's first point (intersecting, the general path).
          a = make(ka, v(), v());
          const q = v();
          b = make(kb, Array.from(a.p0), q);
        } else if (family === 3) {
          // Parallel: b is a shifted by a random offset (not unique for overlapping pieces).
          const p = v();
          const q = v();
          const off = v().map((x) => 0.01 * x);
          a = make(ka, p, q);
          b = make(kb, p.map((x, i) => x + off[i]), q.map((x, i) => x + off[i]));
        } else if (family === 4) {
          // Degenerate: zero-length segments (and points).
          const p = v();
          const q = v();
          a = ka === 'segment' ? segment(p, p.slice()) : make(ka, p, v());
          b = kb === 'segment' ? segment(q, q.slice()) : make(kb, q, v());
        } else {
          // Far from the origin and mixed scales.
          const big = (): number[] => Array.from({ length: dim }, () => (rng() * 2 - 1) * 2 ** 60 + 1e20);
          a = make(ka, big(), big());
          b = make(kb, big(), big());
        }
        const fresh = attempt(() => closestPoints(a, b));
        const into = attempt(() => closestPoints(a, b, target));
        const where = `seed=${seed} case ${k} ${ka}–${kb} family ${family}`;
        if (typeof fresh === 'string' || typeof into === 'string') {
          if (fresh !== into) fails.push(`${where}: ${typeof fresh === 'string' ? fresh : 'result'} vs ${typeof into === 'string' ? into : 'result'}`);
          continue;
        }
        if (fresh === target) fails.push(`${where}: the fresh result is the target`);
        const diff = differ(fresh, into);
        if (diff !== null) fails.push(`${where}: ${diff}`);
        families |= 1 << family;
      }
      expect(fails).toEqual([]);
      expect(families).toBe(0b111111);
    });
  }

  it('issue 16: signed zeros survive in a fresh n-D result (c = d = p = −0 where both points are −0)', () => {
    const a = point([-0, -0, -0, -0, 1]);
    const b = segment([-0, -0, -0, -0, 1], [-0, -0, -0, -0, 2]);
    const r = closestPoints(a, b);
    const t = closestPoints(a, b, createClosestResult(5));
    expect(differ(r, t)).toBeNull();
    expect(Object.is(r.c[0], -0) && Object.is(r.d[0], -0) && Object.is(r.p[0], -0)).toBe(true);
    expect(r.distance).toBe(0);
  });

  it('issue 16: fresh results and createClosestResult give packed arrays of doubles (V8 fast elements) in 1-D to 70,000-D (seed=16610)', () => {
    setFlagsFromString('--allow-natives-syntax');
    // Compiled after the flag is set; natives are V8's own test hooks.
    const packedDoubles = new Function('x', 'return %HasDoubleElements(x) && !%HasHoleyElements(x)') as (x: unknown) => boolean;
    const rng = mulberry32(16_610);
    const bad: string[] = [];
    for (const dim of [1, 2, 3, 4, 1000, 70_000]) {
      const v = (): number[] => Array.from({ length: dim }, () => rng() * 2 - 1);
      const made = createClosestResult(dim);
      const fresh = closestPoints(segment(v(), v()), segment(v(), v()));
      for (const [name, r] of [['createClosestResult', made], ['closestPoints', fresh]] as const) {
        for (const f of ['c', 'd', 'p', 'vector'] as const) {
          if (r[f].length !== dim || !packedDoubles(r[f])) bad.push(`${name}(${dim}).${f}`);
        }
      }
      expect(made.c.every((x) => Object.is(x, 0))).toBe(true);
      // Four distinct arrays: writing one leaves the others alone.
      made.c[0] = 2;
      expect([made.d[0], made.p[0], made.vector[0], createClosestResult(dim).c[0]]).toEqual([0, 0, 0, 0]);
    }
    expect(bad).toEqual([]);
  });
});
