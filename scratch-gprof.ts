import { multiChainContacts } from './src/index.js';
import { ContactWriter } from './cli/chain.js';
import { CoordStore } from './cli/geojson-stream.js';
import { makeRng } from './test/support/rng.js';
import { gridWalk, randomWalk } from './test/support/walks.js';
const grid = process.argv.includes('grid');
const rng = makeRng(2016);
const store = new CoordStore(); store.dim = 2;
for (let f = 0; f < 600; f++) { store.begin({ feature: f }); const P = grid ? gridWalk(200, 2, rng) : randomWalk(200, 2, rng); const x0 = Math.round(rng.next() * 150), y0 = Math.round(rng.next() * 150); for (let k = 0; k < P.length; k++) store.push(P[k] + (k % 2 === 0 ? x0 : y0)); }
const r = multiChainContacts(Array.from({ length: store.count }, (_, k) => store.chain(k)), { dim: 2, thickness: 0 });
for (let run = 0; run < 6; run++) {
  const c0 = process.cpuUsage(); let bytes = 0;
  const w = new ContactWriter('geojson', true, 0, (t) => { bytes += t.length; });
  for (let f = 0; f < 600; f++) w.feature(f, { id: f, properties: { name: `parcel ${f}` } });
  await w.contacts(r, store, 0, () => Promise.resolve()); w.end(2);
  const c = process.cpuUsage(c0); console.log(r.count, bytes, Math.round(r.count / ((c.user + c.system) / 1e6)));
}
