import { allocSharedChain, allocSharedPairs, chainContactsParallel, segmentDistancesParallel } from './src/parallel/index.js';

const pairs = allocSharedPairs(2, 3); // 2 pairs of 3D segments on a SharedArrayBuffer
pairs.set([0, 0, 0, 1, 0, 0, /* against */ 0, 1, 0, 1, 1, 0, /* next pair */ 0, 0, 0, 0, 0, 1, /* against */ 3, 0, 0, 3, 0, 1]);
console.log(Array.from(await segmentDistancesParallel(pairs, 3))); // → [ 1, 3 ]

const chain = allocSharedChain(5, 2); // 5 vertices in 2D: a bow tie plus a tail
chain.set([0, 0, 2, 2, 2, 0, 0, 2, 0, 3]);
const c = await chainContactsParallel(chain, { dim: 2, threads: 2 });
console.log(c.count, Array.from(c.i), Array.from(c.j), Array.from(c.s)); // → 2 [ 0, 0 ] [ 2, 3 ] [ 0.5, 1 ]
const { closeParallelPool } = await import('./src/parallel/index.js');
await closeParallelPool();
