/**
 * Reading the GeoJSON that `@turf/kinks` accepts — a Feature or a bare geometry of type
 * LineString, MultiLineString, Polygon or MultiPolygon — into flat 2D chains, with errors that
 * name the offending member (RFC 7946: a LineString has two or more positions, a linear ring
 * four or more with the first and last equal; a position is two or more numbers, x and y first).
 */
import { SkewlineInputError } from '../core/primitives.js';

/** The geometry types {@link readLines} accepts. */
export const LINE_TYPES = ['LineString', 'MultiLineString', 'Polygon', 'MultiPolygon'] as const;

/** A GeoJSON geometry that {@link readLines} accepts. */
export interface LineGeometry {
  type: (typeof LINE_TYPES)[number];
  coordinates: unknown;
}

/** A GeoJSON Feature whose geometry {@link readLines} accepts. */
export interface LineFeature {
  type: 'Feature';
  geometry: LineGeometry;
  properties?: unknown;
  id?: string | number;
}

/** The chains of a geometry: each a flat x, y array; a ring repeats its first vertex at the end. */
export interface GeoChains {
  chains: Float64Array[];
  /** Whether each chain is a polygon ring. */
  rings: boolean[];
}

function describe(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return `an array of ${x.length}`;
  if (typeof x === 'object') return `an object${typeof (x as { type?: unknown }).type === 'string' ? ` of type "${(x as { type: string }).type}"` : ''}`;
  return typeof x === 'string' ? JSON.stringify(x) : String(x);
}

/** One line or ring (`where` names it in errors) to a flat array; `ring`: checks closure and length 4. */
function readChain(coords: unknown, where: string, ring: boolean, fn: string): Float64Array {
  if (!Array.isArray(coords)) throw new SkewlineInputError(`${fn}: ${where} must be an array of positions (got ${describe(coords)})`);
  const n = coords.length;
  if (ring && n < 4) {
    throw new SkewlineInputError(`${fn}: ${where} is a polygon ring of ${n} position${n === 1 ? '' : 's'}; a linear ring needs at least 4 (the first repeated at the end)`);
  }
  if (!ring && n < 2) {
    throw new SkewlineInputError(`${fn}: ${where} is a LineString of ${n} position${n === 1 ? '' : 's'}; a LineString needs at least 2`);
  }
  const flat = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    const p = coords[k] as unknown;
    if (!Array.isArray(p) || p.length < 2) throw new SkewlineInputError(`${fn}: ${where}[${k}] must be a position [x, y] (got ${describe(p)})`);
    const x = p[0] as unknown, y = p[1] as unknown;
    if (typeof x !== 'number' || !Number.isFinite(x) || typeof y !== 'number' || !Number.isFinite(y)) {
      throw new SkewlineInputError(`${fn}: ${where}[${k}] must hold finite numbers (got [${describe(x)}, ${describe(y)}])`);
    }
    flat[2 * k] = x;
    flat[2 * k + 1] = y;
  }
  if (ring && (flat[0] !== flat[2 * n - 2] || flat[1] !== flat[2 * n - 1])) {
    throw new SkewlineInputError(`${fn}: ${where} is a polygon ring whose last position (${flat[2 * n - 2]}, ${flat[2 * n - 1]}) is not its first (${flat[0]}, ${flat[1]}); a linear ring is closed`);
  }
  return flat;
}

function arrayAt(x: unknown, where: string, fn: string, what: string): unknown[] {
  if (!Array.isArray(x)) throw new SkewlineInputError(`${fn}: ${where} must be an array of ${what} (got ${describe(x)})`);
  return x;
}

/**
 * The chains of a LineString, MultiLineString, Polygon or MultiPolygon (a Feature or a bare
 * geometry): each line, and each ring of each polygon, as a flat x, y array (z and further
 * coordinates ignored, as turf does). `fn` names the caller in errors.
 * @throws SkewlineInputError for anything else, naming the member at fault: a Feature without
 *   a geometry, another geometry type, a LineString of 0–1 positions, a ring of fewer than 4
 *   positions or one not closed, a position that is not two finite numbers.
 */
export function readLines(input: unknown, fn: string): GeoChains {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new SkewlineInputError(`${fn}: expected a GeoJSON Feature or geometry (LineString, MultiLineString, Polygon, MultiPolygon), got ${describe(input)}`);
  }
  let g = input as { type?: unknown; geometry?: unknown; coordinates?: unknown };
  let at = 'coordinates';
  if (g.type === 'Feature') {
    if (g.geometry === null || typeof g.geometry !== 'object') throw new SkewlineInputError(`${fn}: the Feature has no geometry (got ${describe(g.geometry)})`);
    g = g.geometry as typeof g;
    at = 'geometry.coordinates';
  }
  const type = g.type;
  if (typeof type !== 'string' || !(LINE_TYPES as readonly string[]).includes(type)) {
    throw new SkewlineInputError(`${fn}: input must be a LineString, MultiLineString, Polygon or MultiPolygon (Feature or geometry), got ${typeof type === 'string' ? `type "${type}"` : describe(g)}`);
  }
  const chains: Float64Array[] = [];
  const rings: boolean[] = [];
  const c = g.coordinates;
  if (type === 'LineString') {
    chains.push(readChain(c, at, false, fn));
    rings.push(false);
  } else if (type === 'MultiLineString') {
    arrayAt(c, at, fn, 'LineStrings').forEach((line, k) => {
      chains.push(readChain(line, `${at}[${k}]`, false, fn));
      rings.push(false);
    });
  } else if (type === 'Polygon') {
    arrayAt(c, at, fn, 'rings').forEach((ring, k) => {
      chains.push(readChain(ring, `${at}[${k}]`, true, fn));
      rings.push(true);
    });
  } else {
    arrayAt(c, at, fn, 'polygons').forEach((poly, p) => {
      arrayAt(poly, `${at}[${p}]`, fn, 'rings').forEach((ring, k) => {
        chains.push(readChain(ring, `${at}[${p}][${k}]`, true, fn));
        rings.push(true);
      });
    });
  }
  return { chains, rings };
}
