import { afterAll, describe, expect, it } from 'vitest';
import { segmentDistances, SkewlineInputError } from '../../src/index.js';
import { closeParallelPool, maxThreads, parallelPoolSize, segmentDistancesParallel } from '../../src/parallel/index.js';
import { nearlyParallelPairs3, uniformPairs3 } from '../support/families.js';

afterAll(closeParallelPool);

describe('segmentDistancesParallel', () => {
  it('gives segmentDistances’ bits, from shared and from ordinary arrays (seeds 11, 12)', async () => {
    const data = new Float64Array([...uniformPairs3(30000, 11), ...nearlyParallelPairs3(30000, 12)]);
    const serial = segmentDistances(data, 3);
    const fromCopy = await segmentDistancesParallel(data, 3, { threads: 2 });
    const shared = new Float64Array(new SharedArrayBuffer(data.byteLength));
    shared.set(data);
    const fromShared = await segmentDistancesParallel(shared, 3, { threads: 3 });
    for (let i = 0; i < serial.length; i++) {
      if (!Object.is(fromCopy[i], serial[i]) || !Object.is(fromShared[i], serial[i])) {
        throw new Error(`pair ${i}: ${fromCopy[i]} / ${fromShared[i]} vs ${serial[i]}`);
      }
    }
  });
  it('works in 2D and n-D, and on fewer pairs than threads', async () => {
    const d2 = new Float64Array([0, 0, 1, 0, 0, 1, 1, 1]);
    expect(Array.from(await segmentDistancesParallel(d2, 2, { threads: 4 }))).toEqual([1]);
    const d5 = new Float64Array(40).map((_, i) => (i * 7) % 5);
    expect(Array.from(await segmentDistancesParallel(d5, 5))).toEqual(Array.from(segmentDistances(d5, 5)));
  });
  it('rejects bad input with the same clear errors', async () => {
    const bad = uniformPairs3(10, 1);
    bad[12 * 7 + 4] = NaN;
    await expect(segmentDistancesParallel(bad, 3)).rejects.toThrow(SkewlineInputError);
    await expect(segmentDistancesParallel(bad, 3)).rejects.toThrow(/a1\[1\] is not finite/);
    await expect(segmentDistancesParallel(new Float64Array(13), 3)).rejects.toThrow(/multiple of 4·dim/);
    await expect(segmentDistancesParallel(new Float64Array(12), 3, { threads: 0 })).rejects.toThrow(/threads/);
  });
  it('caps threads at the core count (1,000 threads once used 10 GB) and rejects nonsense', async () => {
    await closeParallelPool();
    const data = uniformPairs3(5000, 77);
    const r = await segmentDistancesParallel(data, 3, { threads: 1000 });
    expect(Array.from(r)).toEqual(Array.from(segmentDistances(data, 3)));
    expect(parallelPoolSize()).toBeLessThanOrEqual(maxThreads());
    for (const bad of [0, -1, 1.5, NaN, Infinity, '2' as unknown as number]) {
      await expect(segmentDistancesParallel(data, 3, { threads: bad })).rejects.toThrow(/threads must be a positive integer/);
    }
  });
});
