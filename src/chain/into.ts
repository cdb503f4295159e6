/**
 * Caller-owned result buffers: the `into` option of chainContacts, chainContactsParallel and
 * chainIntersections.
 * A caller that searches the same chain again and again (a simulation's every step) hands back
 * the previous result and the search writes into its arrays instead of fresh ones: no fresh
 * memory to fault in, and nothing for the collector to free (a 1e6-step planar walk's result is
 * about 88 MB, each dropped result one full collection).
 */
import { SkewlineInputError, describeValue } from '../core/primitives.js';
import type { ChainContacts, PairShare } from './contacts.js';
import { releaseHooks } from './scratch.js';
import type { ChainIntersections } from './points.js';

type View = Int32Array | Float64Array | Uint8Array;

/**
 * Where a search puts its n sorted pairs: a ChainContacts `into` (through {@link intoShare}), or
 * a function that hands out arrays of at least n entries (chainIntersections' `into`).
 */
export type IntoTarget = ChainContacts | ((n: number) => PairShare);

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
const CONTACT_TYPES = [Int32Array, Int32Array, Float64Array, Float64Array, Float64Array] as const;

type ViewType = Int32ArrayConstructor | Float64ArrayConstructor | Uint8ArrayConstructor;

/** What an array of `type` is called in a message. */
function typeName(type: ViewType): string {
  return type === Int32Array ? 'an Int32Array' : type === Uint8Array ? 'a Uint8Array' : 'a Float64Array';
}

/**
 * The checks of an `into` object of `fn` (`what` says what it must be): each of `fields` an
 * array of its type, no two of them on overlapping memory, none on the memory of an input, none
 * in use by a call in flight. Returns the arrays, in the order of `fields`.
 */
function checkViews(into: unknown, fn: string, inputs: readonly unknown[], fields: readonly string[], types: readonly ViewType[], what: string): View[] {
  if (into === null || typeof into !== 'object' || Array.isArray(into)) {
    throw new SkewlineInputError(`${fn}: options.into must be ${what} (got ${describeValue(into)})`);
  }
  const o = into as Record<string, unknown>;
  const vs: View[] = [];
  fields.forEach((f, k) => {
    const v = o[f];
    if (!(v instanceof types[k])) throw new SkewlineInputError(`${fn}: options.into.${f} must be ${typeName(types[k])} (got ${describeValue(v)})`);
    vs.push(v as View);
  });
  for (let a = 0; a < vs.length; a++) {
    for (let b = a + 1; b < vs.length; b++) {
      if (overlaps(vs[a], vs[b])) throw new SkewlineInputError(`${fn}: options.into.${fields[a]} and options.into.${fields[b]} share memory`);
    }
    for (const input of inputs) {
      if (ArrayBuffer.isView(input) && overlaps(vs[a], input)) throw new SkewlineInputError(`${fn}: options.into.${fields[a]} shares memory with the input chain`);
    }
    for (const busy of inFlight) {
      if (overlaps(vs[a], busy)) throw new SkewlineInputError(`${fn}: options.into.${fields[a]} is in use by a chainContactsParallel call in flight (give each concurrent call its own into)`);
    }
  }
  return vs;
}

/**
 * Checks `options.into` of `fn`: an object whose `i` and `j` are Int32Arrays and whose
 * `distance`, `s` and `t` are Float64Arrays (of any lengths: the capacity is the shortest), no
 * two of them on overlapping memory, none on the memory of an input (`inputs`: the chains, when
 * they are typed arrays), and none in use by a call in flight. Returns it typed.
 * @throws SkewlineInputError naming what is wrong.
 */
export function checkInto(into: unknown, fn: string, inputs: readonly unknown[]): ChainContacts {
  checkViews(into, fn, inputs, FIELDS, CONTACT_TYPES, 'a ChainContacts object (a previous result, or { count, i, j, distance, s, t })');
  return into as ChainContacts;
}

const X_FIELDS = ['i', 'j', 'kind', 'contact', 'x0', 'y0', 'x1', 'y1'] as const;
const X_TYPES = [Int32Array, Int32Array, Uint8Array, Uint8Array, Float64Array, Float64Array, Float64Array, Float64Array] as const;

/**
 * Checks `options.into` of chainIntersections (`fn`): an object whose `i` and `j` are
 * Int32Arrays, `kind` and `contact` Uint8Arrays, `x0`, `y0`, `x1` and `y1` Float64Arrays (of any
 * lengths: the capacity is the shortest), with the checks of {@link checkInto}. One sharing is
 * allowed, the one a result without overlaps has: `x1` the same array as `x0` and `y1` the same
 * as `y0` (both, or neither). Returns it typed.
 * @throws SkewlineInputError naming what is wrong.
 */
export function checkIntersectionsInto(into: unknown, fn: string, inputs: readonly unknown[]): ChainIntersections {
  const what = 'a ChainIntersections object (a previous result, or { count, i, j, kind, contact, x0, y0, x1, y1 })';
  const o = into as ChainIntersections | null;
  const aliased = o !== null && typeof o === 'object' && o.x1 === o.x0 && o.x1 !== undefined;
  const aliasedY = o !== null && typeof o === 'object' && o.y1 === o.y0 && o.y1 !== undefined;
  if (aliased !== aliasedY) {
    throw new SkewlineInputError(`${fn}: options.into.x1 and options.into.y1 must both be the arrays x0 and y0 (as in a result without overlaps) or both arrays of their own`);
  }
  const n = aliased ? 6 : 8;
  checkViews(into, fn, inputs, X_FIELDS.slice(0, n), X_TYPES.slice(0, n), what);
  return into as ChainIntersections;
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
export function intoShare(into: IntoTarget, n: number, zero: boolean): PairShare {
  if (typeof into === 'function') return into(n);
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

/**
 * Distances for an intersections share: the sort carries them, nobody reads them (grown as
 * needed; the 2D in-order search never writes them). Dropped by releaseChainMemory.
 */
let spareD = new Float64Array(0);
releaseHooks.push(() => {
  spareD = new Float64Array(0);
});

/**
 * `into`'s arrays as the place for n intersections, as {@link intoShare} does for contacts: i, j,
 * kind, contact, x0, y0 (and x1, y1 when they are arrays of their own) are kept when each holds
 * at least n entries, else all replaced by fresh arrays of n + n/8 entries; `into.count` is set
 * to n. The share's s and t are x0 and y0 (where the search writes its points); its distances
 * are a module scratch that the thickness-0 search leaves alone. Nothing else is written.
 */
export function intersectionsShare(into: ChainIntersections, n: number): PairShare {
  const own = into.x1 !== into.x0;
  let cap = Math.min(into.i.length, into.j.length, into.kind.length, into.contact.length, into.x0.length, into.y0.length);
  if (own) cap = Math.min(cap, into.x1.length, into.y1.length);
  if (cap < n) {
    const m = n + (n >> 3);
    into.i = new Int32Array(m);
    into.j = new Int32Array(m);
    into.kind = new Uint8Array(m);
    into.contact = new Uint8Array(m);
    into.x0 = new Float64Array(m);
    into.y0 = new Float64Array(m);
    into.x1 = own ? new Float64Array(m) : into.x0;
    into.y1 = own ? new Float64Array(m) : into.y0;
  }
  if (spareD.length < n) spareD = new Float64Array(n + (n >> 3));
  into.count = n;
  return { CI: into.i, CJ: into.j, distance: spareD, s: into.x0, t: into.y0 };
}
