/**
 * The cost of the `kind` column in `skewline chain`'s output (issue 17): for the contacts of
 * seeded walks, the CPU time of writing them (ContactWriter, CSV and NDJSON, into a counting
 * sink) beside the CPU time of classifying them alone (kindOf, the writer's classifier, over the
 * same contacts), interleaved run by run in one process; the share is classify / write. Cases:
 * 2D random walks (crossings: the orientation filter decides), 2D and 3D axis walks (integer
 * coordinates: touches, T-junctions and overlaps, every orientation exactly zero, the exact
 * stage's worst case), and thicknesses > 0 (every contact classified, the 3D ones first tested
 * by the exact intersection predicate; 4D: any dimension's path).
 *
 *   node --expose-gc --import tsx bench/cli/kind.bench.ts [--runs N]
 */
import { ContactWriter, kindOf } from '../../cli/chain.js';
import { CoordStore } from '../../cli/geojson-stream.js';
import { multiChainContacts, type MultiChainContacts } from '../../src/index.js';
import { makeRng, type Rng } from '../../test/support/rng.js';
import { randomWalk } from '../../test/support/walks.js';
import { machine } from '../harness.js';

/** Axis steps of length 1 or 2 (integer coordinates, heavy degeneracy). */
function axisWalk(n: number, dim: number, rng: Rng): Float64Array {
  const P = new Float64Array(dim * (n + 1));
  for (let v = 1; v <= n; v++) {
    const axis = Math.floor(rng.next() * dim), step = (rng.next() < 0.5 ? 1 : 2) * (rng.next() < 0.5 ? -1 : 1);
    for (let k = 0; k < dim; k++) P[dim * v + k] = P[dim * (v - 1) + k] + (k === axis ? step : 0);
  }
  return P;
}

/** Classifies every contact of `r` as the writer does; returns a checksum (a sink). */
function classifyAll(r: MultiChainContacts, store: CoordStore, tau: number): number {
  if (store.blocks.length !== 1) throw new Error('classifyAll: the chains must lie in one block of the store');
  const dim = store.dim, data = store.blocks[0], starts = store.starts;
  let sink = 0;
  for (let k = 0; k < r.count; k++) {
    const ci = r.chainI[k], cj = r.chainJ[k];
    const f0 = starts[ci], g0 = starts[cj];
    const nf = (store.end(ci) - f0) / dim, ng = (store.end(cj) - g0) / dim;
    const ia = f0 + r.i[k] * dim, ib = f0 + ((r.i[k] + 1) % nf) * dim, ja = g0 + r.j[k] * dim, jb = g0 + ((r.j[k] + 1) % ng) * dim;
    sink += kindOf(data, dim, ia, ib, ja, jb, tau === 0, r.distance[k]).length;
  }
  return sink;
}

const cpuMs = (c0: NodeJS.CpuUsage): number => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};

/** Prints the table; `runs` interleaved runs, best of each. */
export async function run(opts: { runs?: number } = {}): Promise<void> {
  const runs = opts.runs ?? 5;
  const rng = makeRng(2017);
  const cases: { name: string; dim: number; tau: number; format: 'csv' | 'ndjson'; axis?: boolean }[] = [
    { name: 'CSV, 2D random walks, thickness 0', dim: 2, tau: 0, format: 'csv' },
    { name: 'NDJSON, 2D axis walks, thickness 0', dim: 2, tau: 0, format: 'ndjson', axis: true },
    { name: 'CSV, 2D random walks, thickness 0.3', dim: 2, tau: 0.3, format: 'csv' },
    { name: 'CSV, 3D random walks, thickness 0.3', dim: 3, tau: 0.3, format: 'csv' },
    { name: 'CSV, 3D axis walks, thickness 0', dim: 3, tau: 0, format: 'csv', axis: true },
    { name: 'CSV, 4D random walks, thickness 0.3', dim: 4, tau: 0.3, format: 'csv' },
    { name: 'CSV, 4D axis walks, thickness 0', dim: 4, tau: 0, format: 'csv', axis: true },
  ];
  console.log(`\nThe kind column of skewline chain: classifying vs writing the same contacts (CPU ms, best of ${runs}, interleaved) — ${machine()}`);
  console.log('| output | contacts | write ms (with kind) | classify ms | classify / write |');
  console.log('|---|---:|---:|---:|---:|');
  for (const c of cases) {
    const store = new CoordStore();
    store.dim = c.dim;
    for (let f = 0; f < 600; f++) {
      store.begin({ feature: f });
      const P = c.axis === true ? axisWalk(200, c.dim, rng) : randomWalk(200, c.dim, rng);
      const x0 = Math.round(rng.next() * 150), y0 = Math.round(rng.next() * 150);
      for (let k = 0; k < P.length; k++) store.push(P[k] + (k % c.dim === 0 ? x0 : k % c.dim === 1 ? y0 : 0));
    }
    const flats = Array.from({ length: store.count }, (_, k) => store.chain(k));
    const r = multiChainContacts(flats, { dim: c.dim, thickness: c.tau });
    let write = Infinity, classify = Infinity, sink = 0;
    for (let k = 0; k < runs; k++) {
      let bytes = 0;
      const w = new ContactWriter(c.format, false, c.tau, (t) => {
        bytes += t.length;
      });
      let c0 = process.cpuUsage();
      await w.contacts(r, store, 0, () => Promise.resolve());
      w.end(c.dim);
      write = Math.min(write, cpuMs(c0));
      c0 = process.cpuUsage();
      sink += classifyAll(r, store, c.tau);
      classify = Math.min(classify, cpuMs(c0));
      sink += bytes;
    }
    console.log(`| ${c.name} | ${r.count.toLocaleString('en')} | ${write.toFixed(1)} | ${classify.toFixed(1)} | ${((100 * classify) / write).toFixed(0)}% |`);
    if (sink < 0) console.log(sink);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--runs');
  await run({ runs: i >= 0 ? Number(process.argv[i + 1]) : 5 });
}
