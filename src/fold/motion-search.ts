/**
 * The search shared by foldChain and stretchChain: two hierarchies in chain order (the part
 * that stays, the part that moves; level 0 holds single segments, each level pairs up the one
 * below), a motion-specific window test that narrows a node pair's parameter window to where its
 * nodes could come within the thickness, and
 * - {@link bestFirst}: visits node pairs in order of window start (a binary heap in typed
 *   arrays), solves segment pairs on their windows, and stops once the next window starts after
 *   the earliest contact found: the first contact of the whole motion without solving pairs
 *   that could only touch later;
 * - {@link pairsAt}: every segment pair whose window contains one parameter value (for the exact
 *   check of the returned pose);
 * - the heap itself ({@link heapPush}, {@link heapPop}), for the same search over another
 *   hierarchy (the chain folder's tree: src/fold/folder-fold.ts).
 * Not re-entrant (module scratch).
 */

/** The window a {@link WindowFn} found: [WIN[0], WIN[1]]. */
export const WIN = new Float64Array(2);

/**
 * Can node f (at offset fo of a fixed level) and node g (at go of a moving level) come within
 * the thickness for a motion parameter in [s0, s1]? If so, writes a window ⊆ [s0, s1] outside
 * of which they cannot, into WIN, and returns true.
 */
export type WindowFn = (f: Float64Array, fo: number, g: Float64Array, go: number, s0: number, s1: number) => boolean;

/** The first parameter in [s, e] at which fixed segment i and moving segment j (local index) are not certified apart (Infinity: none). */
export type SolveFn = (i: number, j: number, s: number, e: number) => number;

/** What {@link bestFirst} found: the earliest uncertified parameter and its pair (-1 when none beat the initial best). */
export const FOUND = { best: 0, i: -1, j: -1 };

// The heap: keys and entry slots in heap order (a sift moves two numbers), the entries' other
// fields by slot; freed slots are reused (a stack).
let hKey: Float64Array = new Float64Array(1024);
let hSlot: Int32Array = new Int32Array(1024);
let hn = 0;
let eEnd: Float64Array = new Float64Array(1024);
let eLf: Int32Array = new Int32Array(1024);
let eFi: Int32Array = new Int32Array(1024);
let eLm: Int32Array = new Int32Array(1024);
let eMi: Int32Array = new Int32Array(1024);
let freeSlots: Int32Array = new Int32Array(1024);
let nFree = 0;
let nSlots = 0; // slots ever used since the last clear

/** Entries on the heap (for searches over other hierarchies: the chain folder's tree). */
export function heapSize(): number {
  return hn;
}

/** Empties the heap. */
export function heapClear(): void {
  hn = 0;
  nFree = 0;
  nSlots = 0;
}

function grow(): void {
  const n = hKey.length * 2;
  const f = (a: Float64Array): Float64Array => {
    const b = new Float64Array(n);
    b.set(a);
    return b;
  };
  const g = (a: Int32Array): Int32Array => {
    const b = new Int32Array(n);
    b.set(a);
    return b;
  };
  hKey = f(hKey);
  hSlot = g(hSlot);
  eEnd = f(eEnd);
  eLf = g(eLf);
  eFi = g(eFi);
  eLm = g(eLm);
  eMi = g(eMi);
  freeSlots = g(freeSlots);
}

/** Pushes an entry (nodes lf/fi, lm/mi; window [s, e]) on the heap keyed by s. */
export function heapPush(lf: number, fi: number, lm: number, mi: number, s: number, e: number): void {
  if (hn === hKey.length) grow();
  const slot = nFree > 0 ? freeSlots[--nFree] : nSlots++;
  eEnd[slot] = e;
  eLf[slot] = lf;
  eFi[slot] = fi;
  eLm[slot] = lm;
  eMi[slot] = mi;
  let k = hn++;
  while (k > 0) {
    const p = (k - 1) >> 1;
    if (hKey[p] <= s) break;
    hKey[k] = hKey[p];
    hSlot[k] = hSlot[p];
    k = p;
  }
  hKey[k] = s;
  hSlot[k] = slot;
}

let pLf = 0, pFi = 0, pLm = 0, pMi = 0, pS = 0, pE = 0;

/** Takes the entry with the smallest window start into out: lf, fi, lm, mi, s, e (the heap must not be empty). */
export function heapPop(out: Float64Array): void {
  pop();
  out[0] = pLf;
  out[1] = pFi;
  out[2] = pLm;
  out[3] = pMi;
  out[4] = pS;
  out[5] = pE;
}

function pop(): void {
  pS = hKey[0];
  const top = hSlot[0];
  pE = eEnd[top];
  pLf = eLf[top];
  pFi = eFi[top];
  pLm = eLm[top];
  pMi = eMi[top];
  freeSlots[nFree++] = top;
  const last = --hn;
  if (last === 0) return;
  const s = hKey[last], slot = hSlot[last];
  let k = 0;
  for (;;) {
    let c = 2 * k + 1;
    if (c >= last) break;
    if (c + 1 < last && hKey[c + 1] < hKey[c]) c++;
    if (hKey[c] >= s) break;
    hKey[k] = hKey[c];
    hSlot[k] = hSlot[c];
    k = c;
  }
  hKey[k] = s;
  hSlot[k] = slot;
}

/**
 * The earliest parameter in [0, best) at which some (fixed, moving) segment pair is not
 * certified apart, into FOUND (FOUND.i = −1 when every pair is certified up to `best`).
 * `stride` is the number of values per node in the level arrays.
 */
export function bestFirst(fixed: Float64Array[], moving: Float64Array[], stride: number, window: WindowFn, solve: SolveFn, best: number): void {
  FOUND.best = best;
  FOUND.i = FOUND.j = -1;
  if (fixed.length === 0 || moving.length === 0) return;
  heapClear();
  const tf = fixed.length - 1, tm = moving.length - 1;
  if (window(fixed[tf], 0, moving[tm], 0, 0, best) && WIN[0] < best) heapPush(tf, 0, tm, 0, WIN[0], WIN[1]);
  while (hn > 0) {
    pop();
    const s = pS;
    if (s >= FOUND.best) break;
    const e = pE < FOUND.best ? pE : FOUND.best;
    const lf = pLf, fi = pFi, lm = pLm, mi = pMi;
    if (lf === 0 && lm === 0) {
      const r = solve(fi, mi, s, e);
      if (r < FOUND.best) {
        FOUND.best = r;
        FOUND.i = fi;
        FOUND.j = mi;
      }
      continue;
    }
    if (lf >= lm) {
      const L = fixed[lf - 1], n = L.length / stride, g = moving[lm], go = mi * stride;
      for (let c = 2 * fi; c <= 2 * fi + 1 && c < n; c++) {
        if (window(L, c * stride, g, go, s, e) && WIN[0] < FOUND.best) heapPush(lf - 1, c, lm, mi, WIN[0], WIN[1]);
      }
    } else {
      const L = moving[lm - 1], n = L.length / stride, f = fixed[lf], fo = fi * stride;
      for (let c = 2 * mi; c <= 2 * mi + 1 && c < n; c++) {
        if (window(f, fo, L, c * stride, s, e) && WIN[0] < FOUND.best) heapPush(lf, fi, lm - 1, c, WIN[0], WIN[1]);
      }
    }
  }
  heapClear();
}

let vStack = new Int32Array(4 * 64);

function vPush(sp: number, lf: number, fi: number, lm: number, mi: number): number {
  if (sp + 4 > vStack.length) {
    const g = new Int32Array(vStack.length * 2);
    g.set(vStack);
    vStack = g;
  }
  vStack[sp] = lf;
  vStack[sp + 1] = fi;
  vStack[sp + 2] = lm;
  vStack[sp + 3] = mi;
  return sp + 4;
}

/**
 * Calls `visit(i, j)` for every (fixed, moving) segment pair whose window contains the parameter
 * `at`, until `visit` returns true (then returns true). Depth first, an explicit stack.
 */
export function pairsAt(fixed: Float64Array[], moving: Float64Array[], stride: number, window: WindowFn, at: number, visit: (i: number, j: number) => boolean): boolean {
  if (fixed.length === 0 || moving.length === 0) return false;
  let sp = 0;
  const tf = fixed.length - 1, tm = moving.length - 1;
  if (window(fixed[tf], 0, moving[tm], 0, at, at)) sp = vPush(sp, tf, 0, tm, 0);
  while (sp > 0) {
    sp -= 4;
    const lf = vStack[sp], fi = vStack[sp + 1], lm = vStack[sp + 2], mi = vStack[sp + 3];
    if (lf === 0 && lm === 0) {
      if (visit(fi, mi)) return true;
      continue;
    }
    if (lf >= lm) {
      const L = fixed[lf - 1], n = L.length / stride;
      for (let c = 2 * fi; c <= 2 * fi + 1 && c < n; c++) if (window(L, c * stride, moving[lm], mi * stride, at, at)) sp = vPush(sp, lf - 1, c, lm, mi);
    } else {
      const L = moving[lm - 1], n = L.length / stride;
      for (let c = 2 * mi; c <= 2 * mi + 1 && c < n; c++) if (window(fixed[lf], fi * stride, L, c * stride, at, at)) sp = vPush(sp, lf, fi, lm - 1, c);
    }
  }
  return false;
}
