/**
 * Child process of compile-stable.test.ts: runs chainContactsParallel on a seeded random walk
 * (argv: dim, segments, warm-up calls, measured calls[, "bands": the planar search by bands of
 * columns, not in chain order]) between two marker lines, so that the
 * parent can count what V8 reports (node --trace-opt / --trace-deopt) during the measured calls.
 */
import { allocSharedChain, chainContactsParallel, closeParallelPool } from '../../src/parallel/index.js';
import { chainSearch } from '../../src/parallel/chains.js';
import { randomWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';

const [dim, m, warm, calls] = process.argv.slice(2, 6).map(Number);
if (process.argv[6] === 'bands') chainSearch.inOrder = false;
const walk = allocSharedChain(m + 1, dim);
walk.set(randomWalk(m, dim, makeRng(dim === 3 ? 1 : 2)));
const options = dim === 3 ? { dim: 3, thickness: 0.2, threads: 2 } : { dim: 2, threads: 2 };
for (let k = 0; k < warm; k++) await chainContactsParallel(walk, options);
console.log('=== measured calls start');
let count = 0;
for (let k = 0; k < calls; k++) count += (await chainContactsParallel(walk, options)).count;
console.log('=== measured calls end', count);
await closeParallelPool();
