/**
 * Brute-force reference for chain contacts: every pair of segments, decided with the test
 * oracle's exact rational distances (test/support/oracle.ts, independent of src/). It applies
 * the documented rules on its own: zero-length segments dropped and their neighbours adjacent,
 * rings (closed, or first vertex repeated at the end) with first and last segment adjacent,
 * adjacent pairs reported only when they fold back over a piece of positive length.
 * O(n²) exact work behind a box prefilter: for chains of a few thousand segments.
 */
import { segment } from '../../src/index.js';
import { exactClosest, ratCmp, ratFromDouble, ratMul } from './oracle.js';

export interface BruteOptions {
  thickness?: number;
  closed?: boolean;
  against?: Float64Array;
  againstClosed?: boolean;
}

interface Seg {
  index: number;
  a: Float64Array;
  b: Float64Array;
}

function segmentsOf(P: Float64Array, dim: number, closed: boolean): { segs: Seg[]; ring: boolean } {
  const n = P.length / dim;
  const v = (k: number): Float64Array => P.slice(k * dim, k * dim + dim);
  const same = (x: Float64Array, y: Float64Array): boolean => x.every((c, i) => c === y[i]);
  const segs: Seg[] = [];
  const count = n < 2 ? 0 : closed ? n : n - 1;
  for (let k = 0; k < count; k++) {
    const a = v(k), b = v((k + 1) % n);
    if (!same(a, b)) segs.push({ index: k, a, b });
  }
  const ring = segs.length >= 2 && (closed || same(v(0), v(n - 1)));
  return { segs, ring };
}

function boxesNear(x: Seg, y: Seg, dim: number, tau: number): boolean {
  for (let k = 0; k < dim; k++) {
    const xlo = Math.min(x.a[k], x.b[k]), xhi = Math.max(x.a[k], x.b[k]);
    const ylo = Math.min(y.a[k], y.b[k]), yhi = Math.max(y.a[k], y.b[k]);
    // Exact: compare as rationals only when the doubles are close (a generous float prefilter).
    if (ylo - xhi > 2 * tau + 1e-300 + Math.abs(ylo) * 1e-12 + Math.abs(xhi) * 1e-12) return false;
    if (xlo - yhi > 2 * tau + 1e-300 + Math.abs(xlo) * 1e-12 + Math.abs(yhi) * 1e-12) return false;
  }
  return true;
}

function within(x: Seg, y: Seg, tau: number): boolean {
  const e = exactClosest(segment(x.a, x.b), segment(y.a, y.b));
  const t = ratFromDouble(tau);
  return ratCmp(e.distSq, ratMul(t, t)) <= 0;
}

/** Do two collinear-or-not segments share a piece of positive length? (exact) */
export function sharePiece(x: Seg, y: Seg, dim: number): boolean {
  const e = exactClosest(segment(x.a, x.b), segment(y.a, y.b));
  if (e.distSq.num !== 0n || !e.parallel) return false;
  // Collinear: compare the intervals along an axis where x has extent.
  let k = 0;
  while (x.a[k] === x.b[k]) k++;
  void dim;
  const lo = Math.max(Math.min(x.a[k], x.b[k]), Math.min(y.a[k], y.b[k]));
  const hi = Math.min(Math.max(x.a[k], x.b[k]), Math.max(y.a[k], y.b[k]));
  return lo < hi;
}

/** The contacts as sorted "i,j" strings (input segment indices). */
export function bruteContacts(P: Float64Array, dim: number, options: BruteOptions = {}): string[] {
  const tau = options.thickness ?? 0;
  const A = segmentsOf(P, dim, options.closed === true);
  const out: [number, number][] = [];
  if (options.against === undefined) {
    const s = A.segs;
    for (let p = 0; p < s.length; p++) {
      for (let q = p + 1; q < s.length; q++) {
        const adjacent = q === p + 1 || (A.ring && p === 0 && q === s.length - 1);
        if (adjacent) {
          if (sharePiece(s[p], s[q], dim)) out.push([s[p].index, s[q].index]);
        } else if (boxesNear(s[p], s[q], dim, tau) && within(s[p], s[q], tau)) {
          out.push([s[p].index, s[q].index]);
        }
      }
    }
  } else {
    const B = segmentsOf(options.against, dim, (options.againstClosed ?? options.closed) === true);
    for (const x of A.segs) for (const y of B.segs) if (boxesNear(x, y, dim, tau) && within(x, y, tau)) out.push([x.index, y.index]);
  }
  out.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return out.map(([i, j]) => `${i},${j}`);
}
