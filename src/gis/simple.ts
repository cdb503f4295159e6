/**
 * `isSimple`: does a line, ring or polygon meet itself anywhere? The boolean beside the rich
 * query (`kinks`): the same search, stopped at the first contact.
 */
import { checkOptions } from '../core/options.js';
import { SkewlineInputError } from '../core/primitives.js';
import { classify2 } from '../chain/classify.js';
import { flattenChain, prepareChains } from '../chain/input.js';
import type { ChainPoints } from '../chain/input.js';
import { foldsBack } from '../chain/narrow.js';
import { LEAF, beginTraversal, buildTree, nextLeafPairs, segmentBoxes } from '../chain/tree.js';
import { readLines } from './geojson.js';

/** Options of {@link isSimple} for a plain array of points. */
export interface SimpleOptions {
  /** Add the segment from the last vertex back to the first (default false; a GeoJSON-style ring that repeats its first vertex is closed anyway). */
  closed?: boolean;
}

const LEAF_PAIRS = new Int32Array(2 * 1024);

/**
 * True when the geometry meets itself nowhere: no two segments share a point except neighbours
 * at their common vertex (and a ring's last and first segment at its closing vertex), and no
 * neighbours fold back over each other. The same contacts {@link kinks} lists (so
 * `isSimple(g) === (kinks(g).features.length === 0)` for GeoJSON), decided exactly; the search
 * stops at the first one, so a geometry that is not simple is usually answered long before a
 * full search would end. For a Polygon or MultiPolygon, rings that touch or cross each other
 * make it not simple, as in kinks.
 *
 * @param input a GeoJSON LineString, MultiLineString, Polygon or MultiPolygon (Feature or
 *   geometry), or one 2D chain: an array of [x, y] points or a flat x, y array.
 * @param options `closed` for a plain chain (rejected for GeoJSON, whose rings close themselves).
 * @throws SkewlineInputError for bad GeoJSON (naming the member at fault), a chain that is not
 *   2D, a non-finite coordinate, or an unknown option.
 * Not re-entrant (module scratch of the chain search).
 */
export function isSimple(input: ChainPoints | object, options?: SimpleOptions): boolean {
  checkOptions(options, ['closed'], 'isSimple');
  let flats: Float64Array[];
  const isPoints = Array.isArray(input) || ArrayBuffer.isView(input);
  if (isPoints) {
    const pts = input as ChainPoints;
    const flat = ArrayBuffer.isView(pts) || typeof pts[0] === 'number';
    const f = flattenChain(pts, flat ? 2 : undefined, 'isSimple: points');
    if (f.dim !== 2) throw new SkewlineInputError(`isSimple: points must be 2D (got ${f.dim} coordinates per vertex)`);
    flats = [f.flat];
  } else {
    if (options?.closed !== undefined) throw new SkewlineInputError('isSimple: options.closed applies to a plain chain of points, not GeoJSON (its rings close themselves)');
    flats = readLines(input, 'isSimple').chains;
  }
  const A = prepareChains(flats, 2, options?.closed === true);
  const P = A.P, m = A.m, dead = A.dead, partner = A.partner;
  // Neighbours that fold back (a spike): an overlap of adjacent segments.
  for (let k = 0; k + 1 < A.start.length; k++) {
    const first = A.start[k], end = A.start[k + 1] - 1;
    for (let c = first; c + 1 < end; c++) if (foldsBack(P, 2, c, c + 1, c + 2)) return false;
    if (partner !== null && end - first > 2 && partner[first] === end - 1 && foldsBack(P, 2, end - 1, end, first + 1)) return false;
  }
  if (m < 3) return true;
  const S = segmentBoxes(P, 2, m, dead);
  const tree = buildTree(P, 2, m, dead, S);
  beginTraversal(tree, tree, 0);
  const buf = LEAF_PAIRS;
  for (let n = nextLeafPairs(buf); n > 0; n = nextLeafPairs(buf)) {
    for (let q = 0; q < 2 * n; q += 2) {
      const qa = buf[q], qb = buf[q + 1];
      const a0 = qa * LEAF, a1 = Math.min(a0 + LEAF, m), b0 = qb * LEAF, b1 = Math.min(b0 + LEAF, m);
      for (let i = a0; i < a1; i++) {
        const o = 4 * i;
        const xlo = S[o], ylo = S[o + 1], xhi = S[o + 2], yhi = S[o + 3];
        for (let j = qa === qb ? i + 2 : b0; j < b1; j++) {
          if (j - i < 2 || (partner !== null && partner[i] === j)) continue;
          const p = 4 * j;
          // Box test (dead gap segments have empty boxes and never pass).
          if (S[p] > xhi || xlo > S[p + 2] || S[p + 1] > yhi || ylo > S[p + 3]) continue;
          const u = 2 * i, v = 2 * j;
          if (classify2(P[u], P[u + 1], P[u + 2], P[u + 3], P[v], P[v + 1], P[v + 2], P[v + 3]) !== 0) return false;
        }
      }
    }
  }
  return true;
}
