/**
 * Child process of compile-stable.test.ts: builds the block grid of a seeded 3D random walk
 * (blockGrid3, one thread) several times (argv: segments, warm-up calls, measured calls) between
 * two marker lines, so that the parent can count V8's bailouts (node --trace-deopt) in the grid
 * build during the measured calls.
 */
import { blockBoxes3, blockGrid3, blockGridEntries3 } from '../../src/chain/blocks3.js';
import { leafCount } from '../../src/chain/tree.js';
import { randomWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';

const [m, warm, calls] = process.argv.slice(2, 5).map(Number);
const P = randomWalk(m, 3, makeRng(1));
const n = leafCount(m);
const leaves = new Float64Array(6 * n);
blockBoxes3(P, m, leaves, new Int32Array(m));
for (let k = 0; k < warm; k++) blockGrid3(leaves, n, 0.2);
console.log('=== measured calls start');
let entries = 0;
for (let k = 0; k < calls; k++) entries += blockGrid3(leaves, n, 0.2) > 0 ? blockGridEntries3() : 0;
console.log('=== measured calls end', entries);
