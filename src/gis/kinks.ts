/**
 * `kinks`: an exact drop-in for `@turf/kinks` — the same input (a LineString, MultiLineString,
 * Polygon or MultiPolygon, as a Feature or a bare geometry) and the same output shape (a
 * FeatureCollection of Point features), found with skewline's chain search and decided exactly.
 */
import { multiChainContacts } from '../chain/contacts.js';
import { CONTACT_KIND_NAMES, CROSSING, OVERLAP, TOUCH, classify2 } from '../chain/classify.js';
import { crossingPoint2 } from '../chain/points.js';
import { intersection2D } from '../intersect/segment-2d.js';
import type { ContactKindName } from '../chain/classify.js';
import { readLines } from './geojson.js';

/** A kink: a GeoJSON Point feature, with the kind of contact found there. */
export interface KinkFeature {
  type: 'Feature';
  properties: {
    /**
     * What meets there: 'crossing' (two segments cross properly), 'vertex-touch' (vertices
     * touch), 't-junction' (a vertex on another segment's interior) or 'overlap' (an end of a
     * collinear shared piece). Where contacts of several kinds share a location, the most
     * degenerate wins: overlap, then t-junction, then vertex-touch, then crossing.
     */
    kind: Exclude<ContactKindName, 'none'>;
  };
  geometry: { type: 'Point'; coordinates: [number, number] };
}

/** The result of {@link kinks}: the shape `@turf/kinks` returns. */
export interface KinkCollection {
  type: 'FeatureCollection';
  features: KinkFeature[];
}

const PT = new Float64Array(2);

/**
 * Every place where a line or polygon meets itself, as `@turf/kinks` reports them — but exact,
 * complete and fast at any size. Input: a LineString, MultiLineString, Polygon or MultiPolygon,
 * a Feature or a bare geometry (as turf). Output: a FeatureCollection of Point features (as
 * turf), one per contact location.
 *
 * Which pairs of segments are tested is turf's rule: every pair of segments of the geometry —
 * within each line or ring and between any two of its lines or rings (for a MultiPolygon,
 * between rings of different polygons too) — except neighbours along a line or ring (which
 * share their vertex), and a closed ring's first and last segment.
 *
 * Differences from `@turf/kinks` (7.x), all deliberate:
 * - touches are found: two vertices that coincide (a self-tangent ring, a pinched polygon, a
 *   ring touching a hole), a vertex on another segment (T-junction), and collinear overlaps;
 *   turf's test divides by the determinant of the two directions and so misses every parallel
 *   pair, and its inexact parameters miss or invent contacts near the ends;
 * - one point per contact location: turf reports a point per pair of segments (a vertex where
 *   four segments touch gives it up to four points, and crossings of two rings may repeat);
 * - an overlap gives the two ends of the shared piece; adjacent segments that fold back over
 *   each other (a spike) are an overlap here, where turf skips neighbours entirely;
 * - each point's `properties.kind` says what meets there (turf's properties are empty);
 * - crossing points are the exact intersection rounded once to the nearest double (turf's are
 *   computed in plain doubles and may be off by many units in the last place);
 * - points come in the order of the segment pairs (by line or ring, then segment), not turf's;
 * - bad input is a SkewlineInputError naming the member at fault (a ring of fewer than 4
 *   positions or not closed, a LineString of 0–1 positions, a position that is not numbers).
 *
 * Cost: one search over all segments (a bounding-box hierarchy or a uniform grid), then a few
 * tens of nanoseconds per contact; O(n log n) for the usual map data. Not re-entrant.
 * @throws SkewlineInputError for input that is not such GeoJSON, naming where.
 */
export function kinks(geojson: unknown): KinkCollection {
  const { chains } = readLines(geojson, 'kinks');
  const c = multiChainContacts(chains, { dim: 2 });
  const features: KinkFeature[] = [];
  const at = new Map<string, number>();
  const put = (x: number, y: number, kind: number): void => {
    const key = `${x},${y}`;
    const k = at.get(key);
    if (k === undefined) {
      at.set(key, features.length);
      features.push({
        type: 'Feature',
        properties: { kind: CONTACT_KIND_NAMES[kind] as KinkFeature['properties']['kind'] },
        geometry: { type: 'Point', coordinates: [x + 0, y + 0] }, // + 0: no −0
      });
    } else if (CONTACT_KIND_NAMES.indexOf(features[k].properties.kind) < kind) {
      features[k].properties.kind = CONTACT_KIND_NAMES[kind] as KinkFeature['properties']['kind'];
    }
  };
  for (let k = 0; k < c.count; k++) {
    const A = chains[c.chainI[k]], B = chains[c.chainJ[k]];
    const a = 2 * c.i[k], b = 2 * c.j[k];
    const ax0 = A[a], ay0 = A[a + 1], ax1 = A[a + 2], ay1 = A[a + 3];
    const bx0 = B[b], by0 = B[b + 1], bx1 = B[b + 2], by1 = B[b + 3];
    const kind = classify2(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
    if (kind === CROSSING) {
      crossingPoint2(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1, PT);
      put(PT[0], PT[1], kind);
    } else if (kind === OVERLAP) {
      const r = intersection2D(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
      if (r.kind === 'overlap') {
        put(r.start[0], r.start[1], kind);
        put(r.end[0], r.end[1], kind);
      }
    } else if (kind !== 0) {
      put(TOUCH[0], TOUCH[1], kind);
    }
  }
  return { type: 'FeatureCollection', features };
}
