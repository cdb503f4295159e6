/**
 * Where the two-thread chain search allocates on the JS heap (issue 15): a sampling heap profile
 * of the calling thread (objects a minor or major collection took included) over measured calls
 * of chainContactsParallel on a seeded random walk, after warm-up calls. Prints the sampled
 * bytes a call and the top allocation sites (function < caller < caller's caller).
 * argv: dim, segments, threads, warm-up calls, measured calls. Not a test: run by hand,
 * `node --import tsx test/parallel/heap-probe.mts 2 1000000 2 3 6`.
 */
import { Session } from 'node:inspector/promises';
import { allocSharedChain, chainContactsParallel, closeParallelPool } from '../../src/parallel/index.js';
import { randomWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';

interface ProfileNode { callFrame: { functionName: string; url: string }; selfSize: number; children: ProfileNode[] }

const [dim, m, threads, warm, calls] = process.argv.slice(2, 7).map(Number);
const walk = allocSharedChain(m + 1, dim);
walk.set(randomWalk(m, dim, makeRng(dim === 3 ? 1 : 2)));
const options = dim === 3 ? { dim: 3, thickness: 0.2, threads } : { dim: 2, threads };
for (let k = 0; k < warm; k++) await chainContactsParallel(walk, options);
const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
for (let k = 0; k < calls; k++) await chainContactsParallel(walk, options);
const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
const sites = new Map<string, number>();
const visit = (node: ProfileNode, stack: string[]): void => {
  const here = [`${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').slice(-2).join('/')}`, ...stack];
  if (node.selfSize > 0) {
    const key = here.slice(0, 3).join(' < ');
    sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
  }
  for (const child of node.children) visit(child, here);
};
visit(profile.head, []);
let total = 0;
for (const bytes of sites.values()) total += bytes;
console.log(`sampled bytes a call: ${(total / calls / 1024).toFixed(0)} KiB`);
for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`${(bytes / calls / 1024).toFixed(1).padStart(8)} KiB  ${site}`);
session.disconnect();
await closeParallelPool();
