/**
 * chainContacts against a brute force over all pairs with exact rational distances
 * (test/support/chain-oracle.ts): seeded walks in 2D and 3D, grids full of degeneracies, far and
 * tiny chains, pairs exactly at the thickness and an ulp beyond, rings, two chains, real
 * coastlines; plus the broad phase against an all-pairs scan at larger sizes.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { OVERLAP_CONTACT, POINT_CONTACT, SkewlineInputError, chainCollisions, chainContacts, chainIntersections, multiChainContacts, releaseChainMemory } from '../../src/index.js';
import { pairWithin } from '../../src/chain/narrow.js';
import { searchMode } from '../../src/chain/contacts.js';
import { closestSegSeg2, closestSegSeg3 } from '../../src/closest/segment-kernels.js';
import { bruteContacts } from '../support/chain-oracle.js';
import { gridWalk, randomWalk, smoothWalk } from '../support/walks.js';
import { makeRng, nextDown, nextUp } from '../support/rng.js';
import { landRings } from '../support/land.js';
import { mortonGridChainContacts } from '../../bench/peers/morton-grid-chain.js';
import { exactClosest, ratToNumber, ratSqrtToNumber } from '../support/oracle.js';
import { segment } from '../../src/index.js';

const keys = (r: { count: number; i: Int32Array; j: Int32Array }): string[] =>
  Array.from({ length: r.count }, (_, k) => `${r.i[k]},${r.j[k]}`);

/**
 * The numbers of every contact are the segment kernel's, bit for bit (the search computes them
 * on the fly; with thickness 0 in 2D through the fused crossing test): s and t as
 * closestSegSeg2/3 give them, and the distance too (exactly 0 at thickness 0).
 */
function checkKernelNumbers(r: ReturnType<typeof chainContacts>, P: Float64Array, dim: number, opts: { thickness?: number; closed?: boolean; against?: Float64Array }, label: string): void {
  if (dim > 3) return;
  const B = opts.against ?? P;
  const nA = P.length / dim, nB = B.length / dim;
  const Q = new Float64Array(4 * dim), out = new Float64Array(2);
  for (let k = 0; k < r.count; k++) {
    const i = r.i[k], j = r.j[k];
    for (let c = 0; c < dim; c++) {
      Q[c] = P[i * dim + c];
      Q[dim + c] = P[((i + 1) % nA) * dim + c];
      Q[2 * dim + c] = B[j * dim + c];
      Q[3 * dim + c] = B[((j + 1) % nB) * dim + c];
    }
    const d = dim === 2 ? closestSegSeg2(Q, 0, out, 0) : closestSegSeg3(Q, 0, out, 0);
    const want = (opts.thickness ?? 0) === 0 ? 0 : d;
    if (!Object.is(r.distance[k], want) || !Object.is(r.s[k], out[0]) || !Object.is(r.t[k], out[1])) {
      throw new Error(`${label}: contact ${i},${j} has (${r.distance[k]}, ${r.s[k]}, ${r.t[k]}), the kernel (${want}, ${out[0]}, ${out[1]})`);
    }
  }
}

/** Searches run with the grid (searchMode.last), to show the grid was exercised. */
let gridRuns = 0;

/**
 * Runs f with each broad phase: 'auto' (the grid where a planar chain at thickness 0 crowds its
 * box, the hierarchy elsewhere) and 'tree' (always the hierarchy).
 */
function bothBroad<T>(f: () => T): T {
  try {
    searchMode.broad = 'tree';
    f();
  } finally {
    searchMode.broad = 'auto';
  }
  return f();
}

function agree(P: Float64Array, dim: number, opts: { thickness?: number; closed?: boolean; against?: Float64Array }, label: string): number {
  const want = bruteContacts(P, dim, opts);
  return bothBroad(() => agreeWith(want, P, dim, opts, `${label} (${searchMode.broad})`));
}

function agreeWith(want: string[], P: Float64Array, dim: number, opts: { thickness?: number; closed?: boolean; against?: Float64Array }, label: string): number {
  const got = chainContacts(P, { dim, ...opts });
  if (searchMode.last === 'grid') gridRuns++;
  checkKernelNumbers(got, P, dim, opts, label);
  const g = keys(got);
  if (g.join(' ') !== want.join(' ')) {
    const missing = want.filter((x) => !g.includes(x));
    const extra = g.filter((x) => !want.includes(x));
    throw new Error(`${label}: ${missing.length} missing (${missing.slice(0, 5).join(' ')}), ${extra.length} extra (${extra.slice(0, 5).join(' ')})`);
  }
  return got.count;
}

/** Checks the reported distance and parameters against the exact nearest pair. */
function checkNumbers(P: Float64Array, dim: number, tau: number, label: string, B = P): void {
  const r = chainContacts(P, B === P ? { dim, thickness: tau } : { dim, thickness: tau, against: B });
  const seg = (Q: Float64Array, k: number) => segment(Q.slice(k * dim, k * dim + dim), Q.slice((k + 1) * dim, (k + 2) * dim));
  for (let k = 0; k < r.count; k++) {
    const a = seg(P, r.i[k]), b = seg(B, r.j[k]);
    const e = exactClosest(a, b);
    const exact = ratSqrtToNumber(e.distSq);
    if (tau === 0) expect(r.distance[k], label).toBe(0);
    let S = 0;
    for (let d = 0; d < dim; d++) S = Math.max(S, Math.abs(a.p1[d] - a.p0[d]), Math.abs(b.p1[d] - b.p0[d]), Math.abs(b.p0[d] - a.p0[d]));
    expect(Math.abs(r.distance[k] - exact), `${label} pair ${r.i[k]},${r.j[k]}`).toBeLessThanOrEqual(8 * 2 ** -53 * S * Math.sqrt(dim) + 1e-300);
    expect(r.s[k]).toBeGreaterThanOrEqual(0);
    expect(r.s[k]).toBeLessThanOrEqual(1);
    if (!e.parallel) {
      // Unique nearest pair: the parameters are close to the exact ones.
      expect(Math.abs(r.s[k] - ratToNumber(e.s)), `${label} s`).toBeLessThan(1e-6);
      expect(Math.abs(r.t[k] - ratToNumber(e.t)), `${label} t`).toBeLessThan(1e-6);
    }
  }
}

describe('chainContacts against the exact brute force', () => {
  for (const dim of [2, 3]) {
    it(`random, smooth and grid walks in ${dim}D, thickness 0 and positive (seeds 100–111)`, () => {
      for (let seed = 100; seed < 112; seed++) {
        const rng = makeRng(seed);
        const label = `seed ${seed}, ${dim}D`;
        const n = rng.int(50, 250);
        const walks = [randomWalk(n, dim, rng), smoothWalk(n, dim, rng, 0.6), gridWalk(n, dim, rng)];
        for (const P of walks) {
          for (const tau of [0, 0.2, 1, nextDown(1)]) agree(P, dim, { thickness: tau }, `${label}, τ=${tau}`);
        }
      }
    });
  }

  it('grid walks are full of exact contacts, and the exact thickness boundary holds (seeds 200–205)', () => {
    let total = 0;
    for (let seed = 200; seed < 206; seed++) {
      const P = gridWalk(400, 2, makeRng(seed));
      // Grid points at distance exactly 1: in at τ = 1, out at τ = 1 − ulp.
      const at = agree(P, 2, { thickness: 1 }, `seed ${seed} τ=1`);
      const below = agree(P, 2, { thickness: nextDown(1) }, `seed ${seed} τ=1−ulp`);
      expect(at).toBeGreaterThan(below);
      total += agree(P, 2, {}, `seed ${seed} τ=0`);
    }
    expect(total).toBeGreaterThan(1000);
  });

  it('the planar walks above ran through the grid as well as the hierarchy', () => {
    expect(gridRuns).toBeGreaterThan(20);
  });

  it('the grid with gaps between chains, rings, and dense scribbles far from the origin (seeds 250–253)', () => {
    for (let seed = 250; seed < 254; seed++) {
      const rng = makeRng(seed);
      // Several dense walks in one search: the gap segments between chains must stay out.
      const chains = [randomWalk(300, 2, rng), randomWalk(300, 2, rng).map((x) => x + 3), gridWalk(300, 2, rng)];
      const want: string[] = [];
      chains.forEach((A, a) => {
        for (const key of bruteContacts(A, 2, {})) want.push(`${a},${key}`);
        for (let b = a + 1; b < chains.length; b++) for (const key of bruteContacts(A, 2, { against: chains[b] })) want.push(`${a},${key.split(',')[0]},${b},${key.split(',')[1]}`);
      });
      const norm = (x: string): number[] => (x.split(',').length === 3 ? [Number(x.split(',')[0]), Number(x.split(',')[1]), Number(x.split(',')[0]), Number(x.split(',')[2])] : x.split(',').map(Number));
      const wantSorted = want.map(norm).sort((p, q) => p[0] - q[0] || p[1] - q[1] || p[2] - q[2] || p[3] - q[3]).map((p) => p.join(','));
      bothBroad(() => {
        const r = multiChainContacts(chains, { dim: 2 });
        if (searchMode.broad === 'auto') expect(searchMode.last).toBe('grid');
        expect(Array.from({ length: r.count }, (_, k) => `${r.chainI[k]},${r.i[k]},${r.chainJ[k]},${r.j[k]}`), `seed ${seed} (${searchMode.broad})`).toEqual(wantSorted);
      });
      // A dense ring, and the same scribble far from the origin and scaled down.
      const W = randomWalk(400, 2, rng);
      agree(W, 2, { closed: true }, `seed ${seed} dense ring`);
      agree(W.map((x) => x + 2 ** 30), 2, {}, `seed ${seed} far scribble`);
      agree(W.map((x) => x * 2 ** -40), 2, {}, `seed ${seed} tiny scribble`);
    }
  });

  it('short chains, searched all pairs without a hierarchy, and just past that size (seeds 260–263)', () => {
    for (let seed = 260; seed < 264; seed++) {
      const rng = makeRng(seed);
      for (let n = 2; n <= 30; n++) {
        agree(randomWalk(n, 2, rng, 0.3), 2, {}, `seed ${seed}, ${n} segments`);
        agree(gridWalk(n, 2, rng), 2, { closed: true }, `seed ${seed}, ${n} segments, ring`);
        agree(randomWalk(n, 2, rng, 0.3), 2, { thickness: 0.1 }, `seed ${seed}, ${n} segments, τ = 0.1`);
      }
    }
  });

  it('releaseChainMemory frees the working memory; the next search is the same', () => {
    const P = randomWalk(5000, 2, makeRng(270));
    const a = chainContacts(P, { dim: 2 });
    releaseChainMemory();
    const b = chainContacts(P, { dim: 2 });
    expect(keys(b)).toEqual(keys(a));
    expect(Array.from(b.s)).toEqual(Array.from(a.s));
    expect(a.count).toBeGreaterThan(1000);
  });

  it('integer segments at an integer thickness: ties exactly at the thickness, inside and at the ends (seeds 280–283)', () => {
    // Small integer coordinates and long segments, so that a point lies exactly τ from another
    // segment's interior (3-4-5 directions among them) as often as from its ends.
    let total = 0;
    for (let seed = 280; seed < 284; seed++) {
      const rng = makeRng(seed);
      for (let k = 0; k < 150; k++) {
        const pt = (): number[] => [rng.int(-6, 6), rng.int(-6, 6)];
        const A = new Float64Array([...pt(), ...pt()]), B = new Float64Array([...pt(), ...pt()]);
        if ((A[0] === A[2] && A[1] === A[3]) || (B[0] === B[2] && B[1] === B[3])) continue;
        for (const tau of [1, 2, 5]) total += agree(A, 2, { thickness: tau, against: B }, `seed ${seed} pair ${k} τ=${tau}`);
      }
      // A point exactly 1 from the inside of a 3-4-5 segment, and one a little farther.
      expect(chainContacts([[0, 0], [3, 4]], { thickness: 1, against: [[1, 3], [1, 10]] }).count).toBe(1);
      expect(chainContacts([[0, 0], [3, 4]], { thickness: 1, against: [[1, 4], [1, 10]] }).count).toBe(0);
    }
    expect(total).toBeGreaterThan(300);
  });

  it('4D and 5D walks', () => {
    for (const dim of [4, 5]) {
      const rng = makeRng(300 + dim);
      agree(gridWalk(150, dim, rng), dim, { thickness: 0 }, `${dim}D grid`);
      agree(randomWalk(150, dim, rng), dim, { thickness: 0.5 }, `${dim}D random`);
    }
  });

  it('far from the origin (1e6) and tiny (1e-12 units) chains decide the same pairs', () => {
    for (let seed = 400; seed < 404; seed++) {
      const rng = makeRng(seed);
      const P = randomWalk(200, 3, rng);
      const far = P.map((x) => x + 1e6);
      const tiny = P.map((x) => x * 1e-12);
      agree(far, 3, { thickness: 0.3 }, `seed ${seed} far`);
      agree(tiny, 3, { thickness: 0.3e-12 }, `seed ${seed} tiny`);
      const G = gridWalk(200, 2, rng);
      agree(G.map((x) => x * 1e-12), 2, {}, `seed ${seed} tiny grid`);
      agree(G.map((x) => x + 2 ** 40), 2, {}, `seed ${seed} far grid`);
    }
  });

  it('a pair exactly at the thickness is in, one an ulp beyond is out', () => {
    for (const tau of [0.1, 1 / 3, 1e-7, 0.4999999999999999]) {
      // Segment 0 along the x axis, segment 3 comes down to y = τ exactly.
      const P = new Float64Array([0, 0, 1, 0, 1, 5, 0.5, 5, 0.5, tau]);
      expect(keys(chainContacts(P, { dim: 2, thickness: tau }))).toEqual(['0,3']);
      expect(chainContacts(P, { dim: 2, thickness: nextDown(tau) }).count).toBe(0);
      const Q = new Float64Array([0, 0, 1, 0, 1, 5, 0.5, 5, 0.5, nextUp(tau)]);
      expect(chainContacts(Q, { dim: 2, thickness: tau }).count).toBe(0);
      // Two chains: parallel segments τ apart.
      const A = new Float64Array([0, 0, 0, 1, 0, 0]);
      const B = new Float64Array([0, tau, 0, 1, tau, 0]);
      expect(chainContacts(A, { dim: 3, thickness: tau, against: B }).count).toBe(1);
      expect(chainContacts(A, { dim: 3, thickness: nextDown(tau), against: B }).count).toBe(0);
    }
  });

  it('rings: closed chains, GeoJSON rings and repeated vertices', () => {
    for (let seed = 500; seed < 506; seed++) {
      const rng = makeRng(seed);
      const P = gridWalk(120, 2, rng);
      agree(P, 2, { closed: true }, `seed ${seed} closed`);
      agree(P, 2, { closed: true, thickness: 1 }, `seed ${seed} closed τ=1`);
      // GeoJSON ring: first vertex repeated at the end.
      const R = new Float64Array(P.length + 2);
      R.set(P);
      R.set(P.subarray(0, 2), P.length);
      agree(R, 2, {}, `seed ${seed} geojson ring`);
      expect(keys(chainContacts(R, { dim: 2 }))).toEqual(keys(chainContacts(P, { dim: 2, closed: true })));
      // Repeated consecutive vertices change nothing but the indices.
      const D = randomWalk(100, 3, rng);
      const dup = new Float64Array(D.length + 6);
      dup.set(D.subarray(0, 30));
      dup.set(D.subarray(27, 30), 30); // vertex 9 twice
      dup.set(D.subarray(30, 60), 33);
      dup.set(D.subarray(57, 60), 63); // vertex 19 twice
      dup.set(D.subarray(60), 66);
      agree(dup, 3, { thickness: 0.3 }, `seed ${seed} repeated vertices`);
    }
  });

  it('two chains against each other', () => {
    for (let seed = 600; seed < 606; seed++) {
      const rng = makeRng(seed);
      const A = gridWalk(150, 2, rng), B = gridWalk(150, 2, rng).map((x) => x + 1);
      agree(A, 2, { against: B }, `seed ${seed} grid`);
      const C = randomWalk(150, 3, rng), D = randomWalk(150, 3, rng);
      agree(C, 3, { against: D, thickness: 0.25 }, `seed ${seed} random`);
    }
  });

  it('distance, s and t are the nearest pair’s (seeds 700–703)', () => {
    for (let seed = 700; seed < 704; seed++) {
      const rng = makeRng(seed);
      checkNumbers(randomWalk(150, 3, rng), 3, 0.3, `seed ${seed} 3D`);
      checkNumbers(randomWalk(150, 2, rng), 2, 0, `seed ${seed} 2D`);
      checkNumbers(smoothWalk(150, 2, rng, 0.6), 2, 0.4, `seed ${seed} 2D smooth`);
    }
  });
});

describe('the classic bugs of the 2D peers, as regressions', () => {
  it('touching vertices count (a figure-eight through one vertex)', () => {
    // Segments 1 and 4 meet at (1, 1), and so do 2 and 4 (2 and 1 are adjacent there).
    const P = [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2], [1, 1]];
    expect(keys(chainContacts(P))).toEqual(['1,4', '2,4']);
  });
  it('a T-junction counts', () => {
    expect(keys(chainContacts([[0, 0], [4, 0], [4, 2], [2, 2], [2, 0]]))).toEqual(['0,3']);
  });
  it('collinear overlaps count, with s and t at the middle of the shared piece', () => {
    // Segment 3 comes down onto segment 0 (a T-junction at (3, 0)); segment 4 runs back along it.
    const r = chainContacts([[0, 0], [4, 0], [4, 1], [3, 1], [3, 0], [1, 0]]);
    expect(keys(r)).toEqual(['0,3', '0,4']);
    expect([r.s[0], r.t[0]]).toEqual([0.75, 1]);
    // The shared piece is x ∈ [1, 3]: its middle x = 2 is s = 0.5 on segment 0 and t = 0.5 on segment 4.
    expect(r.s[1]).toBeCloseTo(0.5, 15);
    expect(r.t[1]).toBeCloseTo(0.5, 15);
  });
  it('a fold-back of adjacent segments counts, a plain turn does not', () => {
    expect(keys(chainContacts([[0, 0], [2, 0], [1, 0]]))).toEqual(['0,1']);
    expect(chainContacts([[0, 0], [2, 0], [3, 0]]).count).toBe(0);
    expect(chainContacts([[0, 0], [2, 0], [1, 1e-300]]).count).toBe(0);
    expect(keys(chainContacts([[0, 0, 0], [2, 2, 2], [1, 1, 1]]))).toEqual(['0,1']);
  });
  it('the first and last segment of a ring are adjacent, not a contact; crossing ones are', () => {
    const square = [[0, 0], [1, 0], [1, 1], [0, 1]];
    expect(chainContacts(square, { closed: true }).count).toBe(0);
    expect(chainContacts([...square, [0, 0]]).count).toBe(0);
    const bow = [[0, 0], [1, 1], [1, 0], [0, 1]];
    expect(keys(chainContacts(bow, { closed: true }))).toEqual(['0,2']);
    // Segment 2 ends on segment 0; the closing segment (1,0)→(0,0) runs back along segment 0:
    // adjacent in the ring, but a fold-back.
    expect(keys(chainContacts([[0, 0], [2, 0], [2, 2], [1, 0]], { closed: true }))).toEqual(['0,2', '0,3']);
  });
  it('chainCollisions flags every segment in a contact', () => {
    const f = chainCollisions([[0, 0], [2, 0], [1, 1], [0, 2], [2, 2], [1, 1]]);
    expect(Array.from(f)).toEqual([0, 1, 1, 0, 1]);
  });
});

describe('the broad phase never drops a pair (against an all-pairs scan with the same exact test)', () => {
  it('dense 2D random walks and 3D walks with thickness, a few thousand segments, and a zigzag crowding a few grid cells (seeds 800–803)', () => {
    for (let seed = 800; seed < 804; seed++) {
      const rng = makeRng(seed);
      // A zigzag: 3,000 segments across a strip of width 1, 3·10⁻⁴ apart, in a handful of cells.
      const Z = new Float64Array(2 * 3001);
      for (let k = 0; k <= 3000; k++) {
        Z[2 * k] = k % 2 === 0 ? rng.uniform(-0.01, 0.01) : 1 + rng.uniform(-0.01, 0.01);
        Z[2 * k + 1] = 3e-4 * k + rng.uniform(0, 1e-3);
      }
      for (const [P, dim, tau] of [[randomWalk(3000, 2, rng), 2, 0], [Z, 2, 0], [randomWalk(3000, 3, rng), 3, 0.4], [gridWalk(3000, 3, rng), 3, 1]] as const) {
        const m = P.length / dim - 1;
        const Q = new Float64Array(4 * dim);
        const want: string[] = [];
        for (let i = 0; i < m; i++) {
          for (let j = i + 2; j < m; j++) {
            let near = true;
            for (let k = 0; k < dim && near; k++) {
              const lo = Math.min(P[j * dim + k], P[j * dim + dim + k]) - Math.max(P[i * dim + k], P[i * dim + dim + k]);
              const lo2 = Math.min(P[i * dim + k], P[i * dim + dim + k]) - Math.max(P[j * dim + k], P[j * dim + dim + k]);
              if (lo > tau || lo2 > tau) near = false;
            }
            if (!near) continue;
            Q.set(P.subarray(i * dim, i * dim + 2 * dim), 0);
            Q.set(P.subarray(j * dim, j * dim + 2 * dim), 2 * dim);
            if (pairWithin(Q, dim, tau)) want.push(`${i},${j}`);
          }
        }
        bothBroad(() => {
          const got = keys(chainContacts(P, { dim, thickness: tau })).filter((x) => {
            const [i, j] = x.split(',').map(Number);
            return j - i >= 2;
          });
          expect(got, `seed ${seed} dim ${dim} (${searchMode.broad}, ran ${searchMode.last})`).toEqual(want);
          if (dim === 2 && searchMode.broad === 'auto') expect(searchMode.last, 'a dense planar walk takes the grid').toBe('grid');
        });
      }
    }
  });
});

describe('real coastlines (world-atlas land-110m, and a land-50m extract)', () => {
  it('every ring of land-110m agrees with the brute force', () => {
    let total = 0;
    for (const R of landRings('land-110m.json')) total += agree(R, 2, {}, 'land-110m ring');
    expect(total).toBeGreaterThanOrEqual(0);
  });
  it('the land-50m fixture rings agree with the brute force', () => {
    const fixture = JSON.parse(readFileSync(new URL('../fixtures/land-50m-extract.json', import.meta.url), 'utf8')) as number[][][];
    let total = 0;
    for (const ring of fixture) total += agree(new Float64Array(ring.flat()), 2, {}, 'land-50m ring');
    expect(total).toBeGreaterThan(0);
  });
});

describe('input', () => {
  it('names what is wrong', () => {
    expect(() => chainContacts(new Float64Array(6))).toThrow(/options\.dim/);
    expect(() => chainContacts(new Float64Array(7), { dim: 2 })).toThrow(/multiple/);
    expect(() => chainContacts([[0, 0], [1, NaN]])).toThrow(/points\[1\]\[1\]/);
    expect(() => chainContacts([[0, 0], [1, 1, 1]])).toThrow(/points\[1\] has 3 coordinates/);
    expect(() => chainContacts([[0, 0], [1, 1]], { thickness: -1 })).toThrow(SkewlineInputError);
    expect(() => chainContacts([[0, 0], [1, 1]], { thickness: Infinity })).toThrow(/thickness/);
    expect(() => chainContacts(new Float64Array([0, 0, 1, Infinity]), { dim: 2 })).toThrow(/vertex 1 coordinate 1/);
    expect(() => chainContacts([[0, 0], [1, 1]], { against: [[0, 0, 0], [1, 1, 1]] })).toThrow(/against\[0\] has 3 coordinates/);
  });
  it('unknown option keys and non-boolean flags are errors naming the function (chainContacts, chainCollisions, multiChainContacts)', () => {
    const P = [[0, 0], [1, 1], [2, 0]];
    expect(() => chainContacts(P, { thicknes: 1 } as never)).toThrow(/chainContacts: unknown option "thicknes"/);
    expect(() => chainCollisions(P, { between: false } as never)).toThrow(/chainCollisions: unknown option "between"/);
    expect(() => multiChainContacts([P], { against: P } as never)).toThrow(/multiChainContacts: unknown option "against"/);
    expect(() => chainContacts(P, { closed: 'yes' } as never)).toThrow(/chainContacts: options\.closed must be true or false/);
    expect(() => chainContacts(P, { againstClosed: 1 } as never)).toThrow(SkewlineInputError);
    expect(() => multiChainContacts([P], { between: 'false' } as never)).toThrow(/options\.between must be true or false \(got "false"\)/);
    expect(() => chainContacts(P, [] as never)).toThrow(/chainContacts: options must be an object/);
    expect(chainContacts(P, { dim: 2, thickness: 0, closed: false, againstClosed: false }).count).toBe(0);
    expect(multiChainContacts([P], { dim: 2, thickness: 0, closed: true, between: true }).count).toBe(0);
  });
  it('accepts {x, y} objects and tiny chains', () => {
    expect(chainContacts([{ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 1, y: 0 }]).count).toBe(1);
    expect(chainContacts([]).count).toBe(0);
    expect(chainContacts([[1, 2]]).count).toBe(0);
    expect(chainCollisions([[1, 2], [1, 2], [1, 2]]).length).toBe(2);
  });
});

describe('chainIntersections (2D points and pieces)', () => {
  it('crossing points are the exact intersection rounded once; pieces end at input vertices (seeds 900–905)', () => {
    let points = 0, pieces = 0;
    for (let seed = 900; seed < 906; seed++) {
      const rng = makeRng(seed);
      for (const P of [randomWalk(200, 2, rng), gridWalk(200, 2, rng), smoothWalk(200, 2, rng, 0.8).map((x) => x * 1e5 + 3e7)]) {
        const r = chainIntersections(P, { dim: 2 });
        expect(keys(r)).toEqual(keys(chainContacts(P, { dim: 2 })));
        for (let k = 0; k < r.count; k++) {
          const a = segment(P.slice(2 * r.i[k], 2 * r.i[k] + 2), P.slice(2 * r.i[k] + 2, 2 * r.i[k] + 4));
          const b = segment(P.slice(2 * r.j[k], 2 * r.j[k] + 2), P.slice(2 * r.j[k] + 2, 2 * r.j[k] + 4));
          const e = exactClosest(a, b);
          expect(e.distSq.num).toBe(0n);
          if (r.kind[k] === POINT_CONTACT) {
            points++;
            if (!e.parallel) {
              expect([r.x0[k], r.y0[k]], `seed ${seed} pair ${r.i[k]},${r.j[k]}`).toEqual([ratToNumber(e.c[0]), ratToNumber(e.c[1])]);
            }
            expect([r.x1[k], r.y1[k]]).toEqual([r.x0[k], r.y0[k]]);
          } else {
            pieces++;
            expect(r.kind[k]).toBe(OVERLAP_CONTACT);
            const ends = [[r.x0[k], r.y0[k]], [r.x1[k], r.y1[k]]];
            const verts = [a.p0, a.p1, b.p0, b.p1].map((v) => [v[0], v[1]]);
            for (const end of ends) expect(verts.some((v) => v[0] === end[0] && v[1] === end[1])).toBe(true);
            expect(ends[0]).not.toEqual(ends[1]);
          }
        }
      }
    }
    expect(points).toBeGreaterThan(100);
    expect(pieces).toBeGreaterThan(10);
  });
  it('refuses a thickness and 3D chains', () => {
    expect(() => chainIntersections([[0, 0, 0], [1, 1, 1]])).toThrow(/2D/);
    expect(() => chainIntersections([[0, 0], [1, 1]], { thickness: 1 as 0 })).toThrow(/thickness 0/);
  });
});

describe('multiChainContacts', () => {
  it('is each chain’s contacts plus every pair across chains (seeds 1000–1003)', () => {
    for (let seed = 1000; seed < 1004; seed++) {
      const rng = makeRng(seed);
      const dim = seed % 2 === 0 ? 2 : 3;
      const tau = dim === 2 ? 0 : 0.3;
      const chains = [gridWalk(60, dim, rng), randomWalk(80, dim, rng), new Float64Array(dim), gridWalk(50, dim, rng).map((x) => x + 1), randomWalk(1, dim, rng)];
      // a ring that closes itself
      const R = gridWalk(40, dim, rng);
      chains.push(new Float64Array([...R, ...R.subarray(0, dim)]));
      const want: string[] = [];
      chains.forEach((A, a) => {
        for (const key of bruteContacts(A, dim, { thickness: tau })) want.push(`${a},${key.split(',')[0]},${a},${key.split(',')[1]}`);
        for (let b = a + 1; b < chains.length; b++) {
          for (const key of bruteContacts(A, dim, { thickness: tau, against: chains[b] })) want.push(`${a},${key.split(',')[0]},${b},${key.split(',')[1]}`);
        }
      });
      want.sort((x, y) => {
        const p = x.split(',').map(Number), q = y.split(',').map(Number);
        return p[0] - q[0] || p[1] - q[1] || p[2] - q[2] || p[3] - q[3];
      });
      bothBroad(() => {
        const r = multiChainContacts(chains, { dim, thickness: tau });
        const got = Array.from({ length: r.count }, (_, k) => `${r.chainI[k]},${r.i[k]},${r.chainJ[k]},${r.j[k]}`);
        expect(got, `seed ${seed} (${searchMode.broad})`).toEqual(want);
        const within = multiChainContacts(chains, { dim, thickness: tau, between: false });
        expect(Array.from({ length: within.count }, (_, k) => `${within.chainI[k]},${within.i[k]},${within.chainJ[k]},${within.j[k]}`)).toEqual(want.filter((w) => w.split(',')[0] === w.split(',')[2]));
      });
    }
  });
});

describe('the 3D grid baseline of the benchmark (bench/peers/morton-grid-chain.ts)', () => {
  it('issue 16: the tuned grid counts the non-adjacent contacts chainContacts finds (3D walks, seeds 1601–1603)', () => {
    for (let seed = 1601; seed <= 1603; seed++) {
      const m = 1500;
      const P = randomWalk(m, 3, makeRng(seed), 0.5 + (seed - 1601) * 0.7);
      for (const tau of [0.2, 1]) {
        const exact = chainContacts(P, { dim: 3, thickness: tau });
        let nonAdjacent = 0;
        for (let k = 0; k < exact.count; k++) if (exact.j[k] - exact.i[k] >= 2) nonAdjacent++;
        expect(mortonGridChainContacts(P, m, tau), `seed ${seed}, thickness ${tau}`).toBe(nonAdjacent);
      }
    }
  });
});

describe('the 3D grid search (grid.ts, planGrid3) against the hierarchy', () => {
  /** A helix of n steps around the z axis (radius r, rise per turn c), with a little noise. */
  const helix = (n: number, r: number, c: number, rng: ReturnType<typeof makeRng>): Float64Array => {
    const P = new Float64Array(3 * (n + 1));
    for (let k = 0; k <= n; k++) {
      const a = k * 0.7;
      P[3 * k] = r * Math.cos(a) + rng.uniform(-0.05, 0.05);
      P[3 * k + 1] = r * Math.sin(a) + rng.uniform(-0.05, 0.05);
      P[3 * k + 2] = (c * a) / (2 * Math.PI) + rng.uniform(-0.05, 0.05);
    }
    return P;
  };
  /** A random walk of n unit steps kept inside a ball of radius R (a step that would leave it is reversed, or else taken towards the centre): a crowded ball. */
  const ballWalk = (n: number, R: number, rng: ReturnType<typeof makeRng>): Float64Array => {
    const P = new Float64Array(3 * (n + 1));
    for (let k = 1; k <= n; k++) {
      let x = rng.normal(), y = rng.normal(), z = rng.normal();
      const l = Math.hypot(x, y, z);
      x /= l;
      y /= l;
      z /= l;
      const px = P[3 * k - 3], py = P[3 * k - 2], pz = P[3 * k - 1];
      const s = Math.hypot(px + x, py + y, pz + z) > R ? -1 : 1;
      if (s < 0 && Math.hypot(px - x, py - y, pz - z) > R) {
        const l2 = Math.hypot(px, py, pz);
        x = px / l2;
        y = py / l2;
        z = pz / l2;
      }
      P[3 * k] = px + s * x;
      P[3 * k + 1] = py + s * y;
      P[3 * k + 2] = pz + s * z;
    }
    return P;
  };
  const same = (a: ReturnType<typeof chainContacts>, b: ReturnType<typeof chainContacts>, label: string): void => {
    expect(a.count, label).toBe(b.count);
    for (let k = 0; k < a.count; k++) {
      if (a.i[k] !== b.i[k] || a.j[k] !== b.j[k] || !Object.is(a.s[k], b.s[k]) || !Object.is(a.t[k], b.t[k]) || !Object.is(a.distance[k], b.distance[k])) {
        throw new Error(`${label}: contact ${k} is (${a.i[k]}, ${a.j[k]}, ${a.s[k]}, ${a.t[k]}, ${a.distance[k]}) on the grid, (${b.i[k]}, ${b.j[k]}, ${b.s[k]}, ${b.t[k]}, ${b.distance[k]}) on the hierarchy`);
      }
    }
  };
  const run = (mode: 'grid' | 'tree', f: () => ReturnType<typeof chainContacts>): ReturnType<typeof chainContacts> => {
    try {
      searchMode.broad = mode;
      const r = f();
      const c = { ...r, i: r.i.slice(), j: r.j.slice(), s: r.s.slice(), t: r.t.slice(), distance: r.distance.slice() };
      expect(searchMode.last).toBe(mode);
      return c;
    } finally {
      searchMode.broad = 'auto';
    }
  };

  it('issue 16: the 3D grid gives the hierarchy’s contacts bit for bit (walks, helices, crowded balls, thick and thin; seeds 1610–1611)', () => {
    for (let seed = 1610; seed < 1612; seed++) {
      const rng = makeRng(seed);
      const far = randomWalk(1000, 3, rng, 0.3);
      for (let k = 0; k < far.length; k++) far[k] += 1e6 * (k % 3 === 1 ? -1 : 1);
      const ring = new Float64Array(3 * 1000); // 1,000 steps of about 0.94 round a circle, wobbling in z
      for (let k = 0; k < 1000; k++) {
        const a = (2 * Math.PI * k) / 1000;
        ring[3 * k] = 150 * Math.cos(a) + rng.uniform(-0.3, 0.3);
        ring[3 * k + 1] = 150 * Math.sin(a) + rng.uniform(-0.3, 0.3);
        ring[3 * k + 2] = rng.uniform(-0.5, 0.5);
      }
      const families: [string, Float64Array][] = [
        ['random walk', randomWalk(1500, 3, rng)],
        ['short-step walk', randomWalk(1500, 3, rng, 0.05)],
        ['integer-grid walk', gridWalk(1500, 3, rng)],
        ['helix', helix(1000, 3, 0.4, rng)],
        ['crowded ball', ballWalk(400, 3, rng)],
        ['walk far from the origin', far],
        ['noisy ring', ring],
      ];
      for (const [name, P] of families) {
        for (const tau of [0, 0.05, 0.2, 1.5]) {
          const label = `seed ${seed}, ${name}, thickness ${tau}`;
          // Closed: only where the closing segment is short (a long one makes the forced grid's cells huge).
          for (const closed of name === 'noisy ring' || name === 'crowded ball' ? [false, true] : [false]) {
            const opts = { dim: 3, thickness: tau, closed };
            same(run('grid', () => chainContacts(P, opts)), run('tree', () => chainContacts(P, opts)), `${label}${closed ? ', closed' : ''}`);
          }
        }
      }
    }
  });

  it('issue 16: several chains at once (gap segments skipped) and repeated vertices, on the grid and the hierarchy (seeds 1620–1621)', () => {
    for (let seed = 1620; seed < 1622; seed++) {
      const rng = makeRng(seed);
      const chains = [randomWalk(400, 3, rng), randomWalk(300, 3, rng), helix(300, 2, 0.5, rng)];
      const P = randomWalk(600, 3, rng);
      P.copyWithin(30, 27, 30); // vertex 10 repeated: a zero-length segment
      for (const tau of [0, 0.3]) {
        const grid = run('grid', () => multiChainContacts(chains, { dim: 3, thickness: tau }));
        const tree = run('tree', () => multiChainContacts(chains, { dim: 3, thickness: tau }));
        same(grid, tree, `seed ${seed}, three chains, thickness ${tau}`);
        same(run('grid', () => chainContacts(P, { dim: 3, thickness: tau })), run('tree', () => chainContacts(P, { dim: 3, thickness: tau })), `seed ${seed}, repeated vertex, thickness ${tau}`);
      }
    }
  });

  it('issue 16: the 3D grid runs only on request; auto takes the block grid over the leaves (blocks3.ts), tree the hierarchy', () => {
    const P = randomWalk(5000, 3, makeRng(1630));
    chainContacts(P, { dim: 3, thickness: 0.2 });
    expect(searchMode.last).toBe('blocks');
    run('tree', () => chainContacts(P, { dim: 3, thickness: 0.2 }));
    expect(run('grid', () => chainContacts(P, { dim: 3, thickness: 0.2 })).count).toBe(chainContacts(P, { dim: 3, thickness: 0.2 }).count);
  });
});
