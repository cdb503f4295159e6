/**
 * The GeoJSON contact writer as it was before issue 16's byte writer (cli/contact-geojson.ts):
 * every feature built as a string, numbers by String(x) (num, with −0 kept). Kept as the
 * reference the byte writer must equal, byte for byte (test/cli/contact-geojson.test.ts), and as
 * the "before" column of bench/cli/rows.bench.ts. Not used by the CLI.
 */
import type { MultiChainContacts } from '../../src/index.js';
import { kindOf, pairOf, pointOn } from '../../cli/chain.js';
import { crossingPoint2 } from '../../cli/crossing.js';
import { ratToDouble, toScaledBigInts } from '../../src/core/exact.js';
import { orient2Sign } from '../../src/intersect/intersects.js';
import { intersection2D } from '../../src/intersect/segment-2d.js';
import type { CoordStore } from '../../cli/geojson-stream.js';
import { num } from '../../cli/output.js';
import { CommandError } from '../../cli/run-rows.js';

/** The string writer's `--format geojson` features (without the FeatureCollection's opening and end). */
export class ReferenceGeojsonWriter {
  written = 0;
  private readonly c: number[] = [];
  private readonly d: number[] = [];
  private readonly cs: string[] = [];
  private readonly ds: string[] = [];

  constructor(
    private readonly thickness: number,
    private readonly write: (text: string) => void,
    private readonly featureA: { get(index: number): string | undefined },
    private readonly featureB: { get(index: number): string | undefined },
  ) {}

  async contacts(r: MultiChainContacts, store: CoordStore, chainBase: number, drain: () => Promise<void>): Promise<void> {
    const dim = store.dim;
    const exact = dim === 2 && this.thickness === 0;
    const { c, d, cs, ds } = this;
    const blocks = store.blocks, block = store.block, starts = store.starts, feature = store.feature;
    const labels = new Map<number, string>();
    const label = (k: number): string => {
      let text = labels.get(k);
      if (text === undefined) {
        text = labelOf(store, k, chainBase + k);
        labels.set(k, text);
      }
      return text;
    };
    const points = (): void => {
      for (let q = 0; q < dim; q++) {
        cs[q] = fin(c[q], 'point');
        ds[q] = d[q] === c[q] && !Object.is(d[q], -0) ? cs[q] : fin(d[q], 'point');
      }
    };
    for (let k = 0; k < r.count; k++) {
      const ci = r.chainI[k], cj = r.chainJ[k];
      const f0 = starts[ci], g0 = starts[cj];
      const nf = (store.end(ci) - f0) / dim, ng = (store.end(cj) - g0) / dim;
      const i = r.i[k], j = r.j[k], s = r.s[k], t = r.t[k], dist = r.distance[k];
      let ia = f0 + i * dim, ib = f0 + ((i + 1) % nf) * dim, ja = g0 + j * dim, jb = g0 + ((j + 1) % ng) * dim;
      let data = blocks[block[ci]];
      if (block[cj] !== block[ci]) {
        data = pairOf(data, ia, ib, blocks[block[cj]], ja, jb, dim);
        [ia, ib, ja, jb] = [0, dim, 2 * dim, 3 * dim];
      }
      for (let q = 0; q < dim; q++) {
        c[q] = pointOn(data[ia + q], data[ib + q], s);
        d[q] = pointOn(data[ja + q], data[jb + q], t);
      }
      const fa = feature[ci] < 0 ? undefined : feature[ci], fb = feature[cj] < 0 ? undefined : feature[cj];
      const distance = dist === 0 ? '0' : fin(dist, 'distance');
      const kind = kindOf(data, dim, ia, ib, ja, jb, this.thickness === 0, dist);
      let geometry: string;
      if (exact && dist === 0) {
        const x = meeting(data[ia], data[ia + 1], data[ib], data[ib + 1], data[ja], data[ja + 1], data[jb], data[jb + 1]);
        if (x.kind === 'overlap') {
          geometry = `{"type":"LineString","coordinates":[[${fin(x.x0, 'point')},${fin(x.y0, 'point')}],[${fin(x.x1, 'point')},${fin(x.y1, 'point')}]]}`;
        } else if (x.kind === 'point') {
          geometry = `{"type":"Point","coordinates":[${fin(x.x, 'point')},${fin(x.y, 'point')}]}`;
        } else {
          points();
          geometry = `{"type":"Point","coordinates":[${cs.join(',')}]}`;
        }
      } else {
        points();
        geometry = dist === 0 ? `{"type":"Point","coordinates":[${cs.join(',')}]}` : `{"type":"LineString","coordinates":[[${cs.join(',')}],[${ds.join(',')}]]}`;
      }
      let props = `{"a":{${label(ci)},"segment":${i}},"b":{${label(cj)},"segment":${j}},"kind":"${kind}","distance":${distance},"s":${param(s)},"t":${param(t)}`;
      if (fa !== undefined) props += this.featureA.get(fa) ?? '';
      if (fb !== undefined) props += this.featureB.get(fb) ?? '';
      this.write(`${this.written > 0 ? ',' : ''}\n{"type":"Feature","geometry":${geometry},"properties":${props}}}`);
      this.written++;
      if ((k & 1023) === 1023) await drain();
    }
  }
}

function labelOf(store: CoordStore, k: number, chainIndex: number): string {
  const w = store.whereOf(k);
  let text = `"chain":${chainIndex}`;
  if (w.feature !== undefined) text += `,"feature":${w.feature}`;
  if (w.part !== undefined) text += `,"part":${w.part}`;
  if (w.ring !== undefined) text += `,"ring":${w.ring}`;
  return text;
}

function param(s: number): string {
  return s === 0 ? (Object.is(s, -0) ? '-0' : '0') : s === 1 ? '1' : s === 0.5 ? '0.5' : String(s);
}

function fin(x: number, what: string): string {
  if (x - x !== 0) throw new CommandError(`a contact's ${what} is not representable (${String(x)}): the input is too close to the top of the double range`);
  return num(x);
}

type Meeting = { kind: 'point'; x: number; y: number } | { kind: 'overlap'; x0: number; y0: number; x1: number; y1: number } | { kind: 'none' };

const XY = [0, 0];

/** The meeting point or piece as the string writer found it (cli/chain.ts before issue 16's byte writer). */
function meeting(ax0: number, ay0: number, ax1: number, ay1: number, bx0: number, by0: number, bx1: number, by1: number): Meeting {
  const d3 = orient2Sign(ax0, ay0, ax1, ay1, bx0, by0);
  const d4 = orient2Sign(ax0, ay0, ax1, ay1, bx1, by1);
  const d1 = orient2Sign(bx0, by0, bx1, by1, ax0, ay0);
  const d2 = orient2Sign(bx0, by0, bx1, by1, ax1, ay1);
  if ((d3 === d4 && d3 !== 0) || (d1 === d2 && d1 !== 0)) return { kind: 'none' };
  if (d1 === 0 && d2 === 0 && d3 === 0 && d4 === 0) {
    const r = intersection2D(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
    if (r.kind === 'overlap') return { kind: 'overlap', x0: r.start[0], y0: r.start[1], x1: r.end[0], y1: r.end[1] };
    return r.kind === 'point' ? { kind: 'point', x: r.point[0], y: r.point[1] } : { kind: 'none' };
  }
  if (d3 === 0) return { kind: 'point', x: bx0, y: by0 };
  if (d4 === 0) return { kind: 'point', x: bx1, y: by1 };
  if (d1 === 0) return { kind: 'point', x: ax0, y: ay0 };
  if (d2 === 0) return { kind: 'point', x: ax1, y: ay1 };
  if (crossingPoint2(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1, XY)) return { kind: 'point', x: XY[0], y: XY[1] };
  const { ints, exp } = toScaledBigInts([ax0, ay0, ax1, ay1, bx0, by0, bx1, by1]);
  const [A0x, A0y, A1x, A1y, B0x, B0y, B1x, B1y] = ints;
  const ux = A1x - A0x, uy = A1y - A0y, vx = B1x - B0x, vy = B1y - B0y, wx = B0x - A0x, wy = B0y - A0y;
  const den = ux * vy - uy * vx;
  const n1 = wx * vy - wy * vx;
  return { kind: 'point', x: ratToDouble(A0x * den + n1 * ux, den, exp), y: ratToDouble(A0y * den + n1 * uy, den, exp) };
}
