/**
 * Baseline for 2D chain self-intersection: mourner's flatbush (a packed Hilbert R-tree) over
 * the segments' boxes, then for each segment a box search and the exact segment-intersection
 * predicate (orient2d from robust-predicates, with the collinear case decided by coordinates),
 * as GIS code commonly does it. Counts non-adjacent pairs that share a point.
 */
import Flatbush from 'flatbush';
import { orient2d } from 'robust-predicates';

function onSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);
}

function intersects(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = orient2d(cx, cy, dx, dy, ax, ay);
  const d2 = orient2d(cx, cy, dx, dy, bx, by);
  const d3 = orient2d(ax, ay, bx, by, cx, cy);
  const d4 = orient2d(ax, ay, bx, by, dx, dy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  if (d1 === 0 && onSegment(cx, cy, dx, dy, ax, ay)) return true;
  if (d2 === 0 && onSegment(cx, cy, dx, dy, bx, by)) return true;
  if (d3 === 0 && onSegment(ax, ay, bx, by, cx, cy)) return true;
  if (d4 === 0 && onSegment(ax, ay, bx, by, dx, dy)) return true;
  return false;
}

/** Non-adjacent pairs of the chain P (flat x, y) that share a point; `ring`: first and last segment adjacent. */
export function flatbushChainContacts(P: Float64Array, ring: boolean): number {
  const m = P.length / 2 - 1;
  if (m < 1) return 0;
  const index = new Flatbush(m);
  for (let k = 0; k < m; k++) {
    const ax = P[2 * k], ay = P[2 * k + 1], bx = P[2 * k + 2], by = P[2 * k + 3];
    index.add(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
  }
  index.finish();
  let count = 0;
  for (let i = 0; i < m; i++) {
    const ax = P[2 * i], ay = P[2 * i + 1], bx = P[2 * i + 2], by = P[2 * i + 3];
    const hits = index.search(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by), (j) => j > i + 1 && !(ring && i === 0 && j === m - 1));
    for (const j of hits) {
      if (intersects(ax, ay, bx, by, P[2 * j], P[2 * j + 1], P[2 * j + 2], P[2 * j + 3])) count++;
    }
  }
  return count;
}
