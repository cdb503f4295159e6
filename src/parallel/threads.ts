/**
 * How many threads a parallel call uses: the caller's `threads` checked and capped, or, when
 * absent, a count chosen from the size of the job so that a small job runs inline on the calling
 * thread (a worker's round trip costs 0.1–0.3 ms, and each chain worker builds its own hierarchy).
 */
import { SkewlineInputError } from '../core/primitives.js';
import { maxThreads } from './pool.js';

/**
 * `threads` as given: an integer ≥ 1, capped at {@link maxThreads} (more threads than cores only
 * add memory and switching; the caller's count is otherwise honoured, even for a small job);
 * absent, `items / minPerThread` rounded down, within [1, maxThreads()].
 * @throws SkewlineInputError for 0, a negative or fractional number, NaN, ±∞ or a non-number.
 */
export function threadCount(threads: unknown, items: number, minPerThread: number, fn: string): number {
  const cap = maxThreads();
  if (threads === undefined) return Math.max(1, Math.min(cap, Math.floor(items / minPerThread)));
  if (typeof threads !== 'number' || !Number.isInteger(threads) || threads < 1) {
    const got = typeof threads === 'number' ? String(threads) : typeof threads === 'string' ? JSON.stringify(threads) : typeof threads;
    throw new SkewlineInputError(`${fn}: options.threads must be a positive integer (got ${got})`);
  }
  return Math.min(threads, cap);
}
