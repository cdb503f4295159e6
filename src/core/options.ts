/**
 * Options checking shared by every public function that takes an options object: a user's typo
 * (`{ thicknes: 1 }`, `{ closed: true }` where there is no such option) must be an error, never
 * silently ignored.
 */
import { SkewlineInputError } from './primitives.js';

/**
 * Throws a {@link SkewlineInputError} if `options` is not a plain object (or undefined/null,
 * which mean "no options"), or if it has an own enumerable key outside `allowed`. The message
 * names the function, the unknown key and the accepted keys, e.g.
 * `foldChain: unknown option "closed" (accepted: dim, joint, angle, axis, thickness)`.
 * Keys whose value is `undefined` are still checked (a misspelt key is a typo whatever its value).
 * Does not allocate when every key is known.
 */
export function checkOptions(options: unknown, allowed: readonly string[], fn: string): void {
  if (options === undefined || options === null) return;
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new SkewlineInputError(`${fn}: options must be an object (got ${Array.isArray(options) ? 'an array' : typeof options})`);
  }
  for (const key in options) {
    if (!Object.prototype.hasOwnProperty.call(options, key)) continue;
    if (allowed.indexOf(key) < 0) {
      throw new SkewlineInputError(`${fn}: unknown option "${key}" (accepted: ${allowed.join(', ')})`);
    }
  }
}

/**
 * Checks that `options[key]`, when present, is a finite number within [lo, hi]; returns it, or
 * `fallback` when absent. The message names the function, the key, the range and the value.
 */
export function numberOption(options: Record<string, unknown> | undefined | null, key: string, fn: string, lo: number, hi: number, fallback: number): number {
  const v = options == null ? undefined : options[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !(v >= lo && v <= hi)) {
    const got = typeof v === 'number' ? String(v) : typeof v === 'string' ? JSON.stringify(v) : typeof v;
    throw new SkewlineInputError(`${fn}: options.${key} must be a number in [${lo}, ${hi}] (got ${got})`);
  }
  return v;
}
