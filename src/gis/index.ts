/** gis: exact kinks and simplicity of GeoJSON lines and polygons (a drop-in for `@turf/kinks`). */
export { kinks } from './kinks.js';
export type { KinkCollection, KinkFeature } from './kinks.js';
export { isSimple } from './simple.js';
export type { SimpleOptions } from './simple.js';
export { readLines, LINE_TYPES } from './geojson.js';
export type { GeoChains, LineFeature, LineGeometry } from './geojson.js';
