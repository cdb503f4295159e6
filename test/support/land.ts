/**
 * Real coastlines for the chain tests and benchmarks: every ring of a world-atlas land file
 * (Natural Earth, 1:110m, 1:50m or 1:10m) as a flat Float64Array of longitude, latitude pairs,
 * first vertex repeated at the end as GeoJSON has it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

export function landRings(file: 'land-110m.json' | 'land-50m.json' | 'land-10m.json'): Float64Array[] {
  const require = createRequire(import.meta.url);
  const topo = JSON.parse(readFileSync(require.resolve(`world-atlas/${file}`), 'utf8')) as Topology;
  const land = feature(topo, topo.objects.land as GeometryCollection);
  const out: Float64Array[] = [];
  for (const f of land.features) {
    const g = f.geometry;
    const polys = g.type === 'MultiPolygon' ? g.coordinates : g.type === 'Polygon' ? [g.coordinates] : [];
    for (const poly of polys) for (const ring of poly) out.push(new Float64Array(ring.flat()));
  }
  return out;
}
