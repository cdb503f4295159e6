/**
 * Caller-owned result buffers: the `into` option of chainContacts and chainContactsParallel.
 * A caller that searches the same chain again and again (a simulation's every step) hands back
 * the previous result and the search writes into its arrays instead of fresh ones: no fresh
 * memory to fault in, and nothing for the collector to free (a 1e6-step planar walk's result is
 * about 88 MB, each dropped result one full collection).
 */
import { SkewlineInputError, describeValue } from '../core/primitives.js';
import type { ChainContacts, PairShare } from './contacts.js';

type View = Int32Array | Float64Array;

/** The arrays of `into` objects in use by calls in flight (a parallel call awaits its workers). */
const inFlight: View[] = [];

/** Do the bytes of a and b overlap (the same buffer, intersecting byte ranges)? */
function overlaps(a: ArrayBufferView, b: ArrayBufferView): boolean {
  return a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
}

/** The five arrays of a checked `into`, in the order i, j, distance, s, t. */
function views(into: ChainContacts): View[] {
  return [into.i, into.j, into.distance, into.s, into.t];
}

const FIELDS = ['i', 'j', 'distance', 's', 't'] as const;

/**
 * Checks `options.into` of `fn`: an object whose `i` and `j` are Int32Arrays and whose
 * `distance`, `s` and `t` are Float64Arrays (of any lengths: the capacity is the shortest), no
 * two of them on overlapping memory, none on the memory of an input (`inputs`: the chains, when
 * they are typed arrays), and none in use by a call in flight. Returns it typed.
 * @throws SkewlineInputError naming what is wrong.
 */
export function checkInto(into: unknown, fn: string, inputs: readonly unknown[]): ChainContacts {
  if (into === null || typeof into !== 'object' || Array.isArray(into)) {
    throw new SkewlineInputError(`${fn}: options.into must be a ChainContacts object (a previous result, or { count, i, j, distance, s, t }) (got ${describeValue(into)})`);
  }
  const o = into as Record<string, unknown>;
  for (const f of FIELDS) {
    const v = o[f];
    const ok = f === 'i' || f === 'j' ? v instanceof Int32Array : v instanceof Float64Array;
    if (!ok) throw new SkewlineInputError(`${fn}: options.into.${f} must be ${f === 'i' || f === 'j' ? 'an Int32Array' : 'a Float64Array'} (got ${describeValue(v)})`);
  }
  const c = into as ChainContacts;
  const vs = views(c);
  for (let a = 0; a < 5; a++) {
    for (let b = a + 1; b < 5; b++) {
      if (overlaps(vs[a], vs[b])) throw new SkewlineInputError(`${fn}: options.into.${FIELDS[a]} and options.into.${FIELDS[b]} share memory`);
    }
    for (const input of inputs) {
      if (ArrayBuffer.isView(input) && overlaps(vs[a], input)) throw new SkewlineInputError(`${fn}: options.into.${FIELDS[a]} shares memory with the input chain`);
    }
    for (const busy of inFlight) {
      if (overlaps(vs[a], busy)) throw new SkewlineInputError(`${fn}: options.into.${FIELDS[a]} is in use by a chainContactsParallel call in flight (give each concurrent call its own into)`);
    }
  }
  return c;
}

/** Marks `into`'s arrays as in use until {@link releaseInto} (a parallel call, while it runs). */
export function holdInto(into: ChainContacts): void {
  inFlight.push(...views(into));
}

/** Ends {@link holdInto} for these arrays (call it once, when the call settles, with the arrays held). */
export function releaseInto(held: readonly View[]): void {
  for (const v of held) {
    const k = inFlight.indexOf(v);
    if (k >= 0) inFlight.splice(k, 1);
  }
}

/** The arrays {@link holdInto} marked for `into` (to release them later, even if `into` was grown). */
export function heldViews(into: ChainContacts): View[] {
  return views(into);
}

/**
 * `into`'s arrays as the place for n contacts: themselves when each holds at least n entries,
 * else fresh arrays of n + n/8 entries (room for the next call to find a few more) put into
 * `into` in their place. With `zero` the first n distances are set to 0 (thickness 0: the
 * search does not write them). `into.count` is set to n.
 */
export function intoShare(into: ChainContacts, n: number, zero: boolean): PairShare {
  if (Math.min(into.i.length, into.j.length, into.distance.length, into.s.length, into.t.length) < n) {
    const cap = n + (n >> 3);
    into.i = new Int32Array(cap);
    into.j = new Int32Array(cap);
    into.distance = new Float64Array(cap);
    into.s = new Float64Array(cap);
    into.t = new Float64Array(cap);
  } else if (zero) {
    into.distance.fill(0, 0, n);
  }
  into.count = n;
  return { CI: into.i, CJ: into.j, distance: into.distance, s: into.s, t: into.t };
}
