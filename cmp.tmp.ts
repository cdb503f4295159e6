import { chainContacts } from './src/index.js';
import { mortonGridChainContacts } from './bench/peers/morton-grid-chain.js';
import { gridChainContacts } from './bench/peers/grid-chain.js';
import { randomWalk } from './test/support/walks.js';
import { makeRng } from './test/support/rng.js';
const m = Number(process.argv[2] ?? 200000);
const P = randomWalk(m, 3, makeRng(1));
for (let r = 0; r < 3; r++) {
  let t = performance.now(); const c = chainContacts(P, { dim: 3, thickness: 0.2 }); const a = performance.now() - t;
  let nonadj = 0; for (let k = 0; k < c.count; k++) if (c.j[k] - c.i[k] >= 2) nonadj++;
  t = performance.now(); const g = mortonGridChainContacts(P, m, 0.2); const b = performance.now() - t;
  t = performance.now(); const g2 = gridChainContacts(P, 3, m, 0.2); const d = performance.now() - t;
  console.log('skewline', a.toFixed(0), nonadj, 'morton grid', b.toFixed(0), g, 'midpoint grid', d.toFixed(0), g2, 'ratio', (b / a).toFixed(2), (d / a).toFixed(2));
}
