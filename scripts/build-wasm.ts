/**
 * Generates src/batch/seg3.generated.ts: the 3D segment–segment distance kernel of
 * src/closest/segment-kernels.ts (closestSegSeg3 with its shallow-angle tiers) as WebAssembly, for the batch.
 * WebAssembly's `select`/`bitselect` make the clamps and the choice of tier branch-free, which
 * JavaScript cannot express (V8 compiles ternaries and Math.min/max to branches), and f64x2
 * SIMD lanes measure two pairs per step.
 *
 * One template, two instantiations: `seg3` (one pair per step, f64 values, i32 masks) and
 * `seg3x2` (two pairs per step, f64x2 values, v128 masks). Every lane performs the JavaScript
 * kernel's IEEE operations in the same order, so all three give the same bits (tested). After
 * the kernel, the module runs the first certificate of faithfulSegSeg3 (closest/faithful.ts), also
 * operation for operation: where it certifies the distance d it writes −d in place of s; elsewhere
 * it writes the fast path's parameters (s, t), from which JavaScript makes the distance faithful
 * exactly as closestSegSeg3 does; a pair the kernel would hand to the exact/generic path gets
 * s = NaN, and the caller runs the whole JavaScript kernel on it.
 * Run: npx tsx scripts/build-wasm.ts
 */
import fs from 'node:fs';
import wabtInit from 'wabt';

type E = string;

/** The operations the template needs, for one lane width. */
interface Ops {
  value: 'f64' | 'v128';
  mask: 'i32' | 'v128';
  /** Pairs per step. */
  lanes: number;
  c(x: number): E;
  bin(op: 'add' | 'sub' | 'mul' | 'div', a: E, b: E): E;
  sqrt(a: E): E;
  cmp(op: 'lt' | 'gt' | 'ge' | 'le', a: E, b: E): E;
  /** a where the mask m is set, else b. */
  sel(a: E, b: E, m: E): E;
  and(m: E, n: E): E;
  or(m: E, n: E): E;
  /** An i32 condition: is the mask unset in some lane? */
  anyUnset(m: E): E;
  allSet: E;
  /** Coordinate j (0…11) of the step's pair(s). */
  load(j: number): E;
  /** Stores the step's results: s (NaN to hand over) and t of each pair, 16 bytes a pair. */
  store(s: E, t: E): string;
  abs(a: E): E;
  neg(a: E): E;
  /** The bits of a (as a 64-bit integer) and c, reinterpreted as a double. */
  bitAnd(a: E, c: bigint): E;
  /** The bits of a minus c, reinterpreted as a double. */
  bitSub(a: E, c: bigint): E;
  /** A mask: are the bits of a (as a signed 64-bit integer) above c? */
  bitGt(a: E, c: bigint): E;
  /** A mask: are the bits of a all zero? */
  bitZero(a: E): E;
}

const constant = (x: number): E => `(f64.const ${Number.isNaN(x) ? 'nan' : x})`;

const SCALAR: Ops = {
  value: 'f64',
  mask: 'i32',
  lanes: 1,
  c: constant,
  bin: (op, a, b) => `(f64.${op} ${a} ${b})`,
  sqrt: (a) => `(f64.sqrt ${a})`,
  cmp: (op, a, b) => `(f64.${op} ${a} ${b})`,
  sel: (a, b, m) => `(select ${a} ${b} ${m})`,
  and: (m, n) => `(i32.and ${m} ${n})`,
  or: (m, n) => `(i32.or ${m} ${n})`,
  anyUnset: (m) => `(i32.eqz ${m})`,
  allSet: '(i32.const 1)',
  load: (j) => `(f64.load offset=${8 * j} (local.get $p))`,
  store: (s, t) => `(f64.store (local.get $o) ${s}) (f64.store offset=8 (local.get $o) ${t})`,
  abs: (a) => `(f64.abs ${a})`,
  neg: (a) => `(f64.neg ${a})`,
  bitAnd: (a, c) => `(f64.reinterpret_i64 (i64.and (i64.reinterpret_f64 ${a}) (i64.const ${c})))`,
  bitSub: (a, c) => `(f64.reinterpret_i64 (i64.sub (i64.reinterpret_f64 ${a}) (i64.const ${c})))`,
  bitGt: (a, c) => `(i64.gt_s (i64.reinterpret_f64 ${a}) (i64.const ${c}))`,
  bitZero: (a) => `(i64.eqz (i64.reinterpret_f64 ${a}))`,
};

const SIMD: Ops = {
  value: 'v128',
  mask: 'v128',
  lanes: 2,
  c: (x) => `(f64x2.splat ${constant(x)})`,
  bin: (op, a, b) => `(f64x2.${op} ${a} ${b})`,
  sqrt: (a) => `(f64x2.sqrt ${a})`,
  cmp: (op, a, b) => `(f64x2.${op} ${a} ${b})`,
  sel: (a, b, m) => `(v128.bitselect ${a} ${b} ${m})`,
  and: (m, n) => `(v128.and ${m} ${n})`,
  or: (m, n) => `(v128.or ${m} ${n})`,
  anyUnset: (m) => `(v128.any_true (v128.not ${m}))`,
  allSet: '(v128.const i64x2 -1 -1)',
  load: (j) =>
    `(f64x2.replace_lane 1 (f64x2.splat (f64.load offset=${8 * j} (local.get $p))) (f64.load offset=${8 * j + 96} (local.get $p)))`,
  store: (s, t) =>
    `(f64.store (local.get $o) (f64x2.extract_lane 0 ${s})) (f64.store offset=8 (local.get $o) (f64x2.extract_lane 0 ${t})) ` +
    `(f64.store offset=16 (local.get $o) (f64x2.extract_lane 1 ${s})) (f64.store offset=24 (local.get $o) (f64x2.extract_lane 1 ${t}))`,
  abs: (a) => `(f64x2.abs ${a})`,
  neg: (a) => `(f64x2.neg ${a})`,
  bitAnd: (a, c) => `(v128.and ${a} (v128.const i64x2 ${c} ${c}))`,
  bitSub: (a, c) => `(i64x2.sub ${a} (v128.const i64x2 ${c} ${c}))`,
  bitGt: (a, c) => `(i64x2.gt_s ${a} (v128.const i64x2 ${c} ${c}))`,
  bitZero: (a) => `(i64x2.eq ${a} (v128.const i64x2 0 0))`,
};

// Constants shared with src/closest/segment-kernels.ts (the bitwise tests would catch a mismatch).
const EPS = 2 ** -53;
const FILTER2 = (64 * EPS) ** 2;
const TINY = 2 ** -300;
const HUGE = 2 ** 200;
const ACCURATE_BELOW = 2 ** -50;
const SPLITTER = 134217729;

const P = ['a0x', 'a0y', 'a0z', 'a1x', 'a1y', 'a1z', 'b0x', 'b0y', 'b0z', 'b1x', 'b1y', 'b1z'];
const VALUES = [
  ...P, 'ux', 'uy', 'uz', 'vx', 'vy', 'vz', 'wx', 'wy', 'wz', 'aa', 'cc', 'b', 'd', 'e', 'ac', 'D', 'q',
  'sStarF', 'iAF', 'iCF', 'sStar', 'iA', 'iC', 'nx', 'ny', 'nz', 'nAx', 'nAy', 'nAz', 'mu', 'sp', 'muh', 'mul',
  'uxh', 'uxl', 'uyh', 'uyl', 'uzh', 'uzl', 'px', 'py', 'pz', 'qx', 'qy', 'qz', 's', 't', 'rx', 'ry', 'rz',
  'dist2', 'size2', 'res',
  // The faithful step (faithfulSegSeg of src/closest/faithful.ts, dim 3).
  'fs', 'ft', 'fsp', 'fmt', 'fsh', 'fsl', 'fth', 'ftl', 'fc', 'fx', 'fy', 'fbh', 'fbl', 'fbv', 'ful', 'fvl', 'fhh', 'fhl',
  'fp', 'fpe', 'fq', 'fqe', 'fsum', 'fs2', 'flo', 'frh', 'frl', 'fT', 'fuu', 'fvv', 'fuv', 'fgs', 'fgt',
  'fpp', 'fppe', 'fxh', 'fxl', 'fX', 'fer', 'fes', 'fet', 'fdet', 'fA', 'fB', 'fex2', 'fgf', 'fef', 'fhf', 'fa1',
  'fex1', 'fgc', 'fec', 'fpc', 'fexcess', 'fE', 'fr0', 'fr2', 'fd', 'fdd', 'fdelta', 'fexp', 'fulpUp', 'fulpDown',
];
const MASKS = ['fast', 'plain', 'okT', 'pass', 'fhiS', 'fhiT', 'fsFree', 'ftFree', 'fok'];

/**
 * The faithful step for the pair(s) whose kernel passed: the first certificate of faithfulSegSeg3
 * (src/closest/faithful.ts), operation for operation in the same order (so the same bits; where
 * JavaScript skips a product by a zero parameter, it only changes the sign of a zero, which no
 * decision sees), without branches: every
 * case's certificate is computed and the active set's is selected. Leaves in $fok the mask of the
 * lanes whose distance is certified and in $fd that distance; the other lanes finish in
 * JavaScript, which reaches the same decision and goes on to the slower certificates.
 */
function faithfulStep(o: Ops, g: (n: string) => E, set: (n: string, e: E) => string): string {
  const add = (a: E, b: E): E => o.bin('add', a, b);
  const sub = (a: E, b: E): E => o.bin('sub', a, b);
  const mul = (a: E, b: E): E => o.bin('mul', a, b);
  const div = (a: E, b: E): E => o.bin('div', a, b);
  const c = o.c;
  /** x = hh + hl (Dekker), through $fc. */
  const split = (x: E): string => [set('fc', mul(c(SPLITTER), x)), set('fhh', sub(g('fc'), sub(g('fc'), x))), set('fhl', sub(x, g('fhh')))].join(' ');
  const U2 = EPS * EPS;
  const out: string[] = [
    // |u|², |v|², u·v: the kernel's (JavaScript's sums from 0 give the same values, up to the
    // sign of a zero u·v, which no decision below sees).
    set('fs', g('s')), set('ft', g('t')), set('fuu', g('aa')), set('fvv', g('cc')), set('fuv', g('b')),
    set('fhiS', o.cmp('gt', g('fs'), c(0.5))), set('fhiT', o.cmp('gt', g('ft'), c(0.5))),
    set('fsp', o.sel(sub(g('fs'), c(1)), g('fs'), g('fhiS'))),
    set('fmt', o.neg(o.sel(sub(g('ft'), c(1)), g('ft'), g('fhiT')))),
    split(g('fsp')), set('fsh', g('fhh')), set('fsl', g('fhl')),
    split(g('fmt')), set('fth', g('fhh')), set('ftl', g('fhl')),
    ...['fT', 'fgs', 'fgt', 'fxh', 'fxl'].map((n) => set(n, c(0))),
  ];
  for (const a of ['x', 'y', 'z']) {
    const uh = g('u' + a);
    const vh = g('v' + a);
    out.push(
      set('fx', o.sel(g(`a1${a}`), g(`a0${a}`), g('fhiS'))),
      set('fy', o.sel(g(`b1${a}`), g(`b0${a}`), g('fhiT'))),
      // b = x − y, u = a1 − a0, v = b1 − b0 with their errors (two-difference).
      set('fbh', sub(g('fx'), g('fy'))), set('fbv', sub(g('fx'), g('fbh'))),
      set('fbl', add(sub(g('fx'), add(g('fbh'), g('fbv'))), sub(g('fbv'), g('fy')))),
      set('fbv', sub(g(`a1${a}`), uh)), set('ful', add(sub(g(`a1${a}`), add(uh, g('fbv'))), sub(g('fbv'), g(`a0${a}`)))),
      set('fbv', sub(g(`b1${a}`), vh)), set('fvl', add(sub(g(`b1${a}`), add(vh, g('fbv'))), sub(g('fbv'), g(`b0${a}`)))),
      set('fT', add(g('fT'), o.abs(g('fbh')))),
      // sp·u and −tp·v exactly (two-product), summed with b by two-sums. (JavaScript skips this
      // when sp = tp = 0; it then gives the same r up to the sign of a zero.)
      set('fp', mul(g('fsp'), uh)), split(uh),
      set('fpe', sub(mul(g('fsl'), g('fhl')), sub(sub(sub(g('fp'), mul(g('fsh'), g('fhh'))), mul(g('fsl'), g('fhh'))), mul(g('fsh'), g('fhl'))))),
      set('fq', mul(g('fmt'), vh)), split(vh),
      set('fqe', sub(mul(g('ftl'), g('fhl')), sub(sub(sub(g('fq'), mul(g('fth'), g('fhh'))), mul(g('ftl'), g('fhh'))), mul(g('fth'), g('fhl'))))),
      set('fsum', add(g('fbh'), g('fp'))), set('fbv', sub(g('fsum'), g('fbh'))),
      set('flo', add(sub(g('fbh'), sub(g('fsum'), g('fbv'))), sub(g('fp'), g('fbv')))),
      set('fs2', add(g('fsum'), g('fq'))), set('fbv', sub(g('fs2'), g('fsum'))),
      set('flo', add(g('flo'), add(add(add(add(add(add(sub(g('fsum'), sub(g('fs2'), g('fbv'))), sub(g('fq'), g('fbv'))), g('fbl')), g('fpe')), g('fqe')), mul(g('fsp'), g('ful'))), mul(g('fmt'), g('fvl'))))),
      set('frh', add(g('fs2'), g('flo'))), set('frl', sub(g('flo'), sub(g('frh'), g('fs2')))),
      set('fT', add(g('fT'), add(o.abs(g('fp')), o.abs(g('fq'))))),
      set('fgs', add(g('fgs'), mul(g('frh'), uh))), set('fgt', sub(g('fgt'), mul(g('frh'), vh))),
      // |r|² in double-double.
      set('fpp', mul(g('frh'), g('frh'))), split(g('frh')),
      set('fppe', sub(mul(g('fhl'), g('fhl')), sub(sub(g('fpp'), mul(g('fhh'), g('fhh'))), mul(mul(c(2), g('fhl')), g('fhh'))))),
      set('fsum', add(g('fxh'), g('fpp'))), set('fbv', sub(g('fsum'), g('fxh'))),
      set('fxl', add(g('fxl'), add(add(add(sub(g('fxh'), sub(g('fsum'), g('fbv'))), sub(g('fpp'), g('fbv'))), g('fppe')), mul(g('frl'), add(mul(c(2), g('frh')), g('frl')))))),
      set('fxh', g('fsum')),
    );
  }
  const ge = (a: E, b: E): E => o.cmp('ge', a, b);
  const gt = (a: E, b: E): E => o.cmp('gt', a, b);
  const lt = (a: E, b: E): E => o.cmp('lt', a, b);
  const le = (a: E, b: E): E => o.cmp('le', a, b);
  out.push(
    set('fX', add(g('fxh'), g('fxl'))), set('fxl', sub(g('fxl'), sub(g('fX'), g('fxh')))), set('fxh', g('fX')),
    set('fok', o.and(g('pass'), gt(g('fxh'), c(2 ** -900)))),
    set('fr0', o.sqrt(g('fxh'))),
    set('fer', mul(c(8 * U2), g('fT'))),
    set('fes', mul(mul(add(mul(c(7 * EPS), g('fr0')), g('fer')), o.sqrt(g('fuu'))), c(1.01))),
    set('fet', mul(mul(add(mul(c(7 * EPS), g('fr0')), g('fer')), o.sqrt(g('fvv'))), c(1.01))),
    set('fsFree', o.and(gt(g('fs'), c(0)), lt(g('fs'), c(1)))),
    set('ftFree', o.and(gt(g('ft'), c(0)), lt(g('ft'), c(1)))),
    // Both free.
    set('fdet', sub(mul(g('fuu'), g('fvv')), mul(g('fuv'), g('fuv')))),
    set('fA', add(o.abs(g('fgs')), g('fes'))), set('fB', add(o.abs(g('fgt')), g('fet'))),
    set('fex2', div(add(add(mul(mul(g('fvv'), g('fA')), g('fA')), mul(mul(mul(c(2), o.abs(g('fuv'))), g('fA')), g('fB'))), mul(mul(g('fuu'), g('fB')), g('fB'))),
      mul(g('fdet'), c(1 - 8 * EPS)))),
    // One free: the other keeps its sign once it moves.
    set('fgf', o.sel(g('fgs'), g('fgt'), g('fsFree'))), set('fef', o.sel(g('fes'), g('fet'), g('fsFree'))),
    set('fhf', o.sel(g('fuu'), g('fvv'), g('fsFree'))),
    set('fa1', add(o.abs(g('fgf')), g('fef'))),
    set('fex1', mul(div(mul(g('fa1'), g('fa1')), g('fhf')), c(1 + 8 * EPS))),
    set('fgc', add(o.sel(g('fgt'), g('fgs'), g('fsFree')), div(mul(g('fuv'), g('fgf')), g('fhf')))),
    set('fec', add(add(o.sel(g('fet'), g('fes'), g('fsFree')), div(mul(o.abs(g('fuv')), g('fef')), g('fhf'))), mul(c(4 * EPS), o.abs(g('fgc'))))),
    set('fpc', o.sel(g('ft'), g('fs'), g('fsFree'))),
    // The certificate of the active set (both free, one, none), and its excess.
    set('fok', o.and(g('fok'), o.sel(
      ge(g('fdet'), mul(mul(c(0.0625), g('fuu')), g('fvv'))),
      o.sel(
        o.sel(gt(g('fgc'), g('fec')), lt(g('fgc'), o.neg(g('fec'))), le(g('fpc'), c(0))),
        o.and(o.sel(gt(g('fgs'), g('fes')), lt(g('fgs'), o.neg(g('fes'))), le(g('fs'), c(0))),
          o.sel(gt(g('fgt'), g('fet')), lt(g('fgt'), o.neg(g('fet'))), le(g('ft'), c(0)))),
        o.or(g('fsFree'), g('ftFree'))),
      o.and(g('fsFree'), g('ftFree'))))),
    set('fexcess', o.sel(g('fex2'), o.sel(g('fex1'), c(0), o.or(g('fsFree'), g('ftFree'))), o.and(g('fsFree'), g('ftFree')))),
    set('fok', o.and(g('fok'), le(g('fexcess'), mul(mul(g('fxh'), c(EPS)), c(1 / 64))))),
    set('fE', add(add(add(mul(mul(c(2.02), g('fr0')), g('fer')), mul(g('fer'), g('fer'))), mul(c(20 * U2), g('fxh'))), g('fexcess'))),
    // The root, one Newton correction, and the certificate.
    set('fr2', mul(g('fr0'), g('fr0'))), split(g('fr0')),
    set('fd', add(g('fr0'), div(add(sub(g('fxh'), g('fr2')), sub(g('fxl'),
      sub(mul(g('fhl'), g('fhl')), sub(sub(g('fr2'), mul(g('fhh'), g('fhh'))), mul(mul(c(2), g('fhl')), g('fhh')))))), mul(c(2), g('fr0'))))),
    set('fdd', mul(g('fd'), g('fd'))), split(g('fd')),
    set('fdelta', add(sub(g('fdd'), g('fxh')), sub(sub(mul(g('fhl'), g('fhl')),
      sub(sub(g('fdd'), mul(g('fhh'), g('fhh'))), mul(mul(c(2), g('fhl')), g('fhh')))), g('fxl')))),
    // ulp(d) from its exponent field; half of it below a power of two.
    set('fexp', o.bitAnd(g('fd'), 0x7ff0000000000000n)),
    set('fulpUp', o.bitSub(g('fexp'), 52n << 52n)),
    set('fulpDown', o.sel(div(g('fulpUp'), c(2)), g('fulpUp'), o.bitZero(o.bitAnd(g('fd'), 0xfffffffffffffn)))),
    set('fok', o.and(o.and(g('fok'), o.bitGt(g('fexp'), 54n << 52n)), o.and(
      lt(mul(add(g('fdelta'), g('fE')), c(1 + 4 * EPS)), sub(mul(mul(c(2), g('fd')), g('fulpDown')), mul(g('fulpDown'), g('fulpDown')))),
      lt(mul(sub(g('fE'), g('fdelta')), c(1 + 4 * EPS)), add(mul(mul(c(2), g('fd')), g('fulpUp')), mul(g('fulpUp'), g('fulpUp'))))))),
  );
  return out.join('\n      ');
}

/** The kernel's loop for one lane width (see closestSegSeg3 and segSeg3Shallow in src/closest/segment-kernels.ts). */
function kernel(name: string, o: Ops): string {
  const g = (n: string): E => `(local.get $${n})`;
  const set = (n: string, e: E): string => `(local.set $${n} ${e})`;
  const add = (a: E, b: E): E => o.bin('add', a, b);
  const sub = (a: E, b: E): E => o.bin('sub', a, b);
  const mul = (a: E, b: E): E => o.bin('mul', a, b);
  const div = (a: E, b: E): E => o.bin('div', a, b);
  const dot3 = (a: string, b: string): E => add(add(mul(g(a + 'x'), g(b + 'x')), mul(g(a + 'y'), g(b + 'y'))), mul(g(a + 'z'), g(b + 'z')));
  const cross = (a: string, b: string, out: string): string =>
    [
      set(out + 'x', sub(mul(g(a + 'y'), g(b + 'z')), mul(g(a + 'z'), g(b + 'y')))),
      set(out + 'y', sub(mul(g(a + 'z'), g(b + 'x')), mul(g(a + 'x'), g(b + 'z')))),
      set(out + 'z', sub(mul(g(a + 'x'), g(b + 'y')), mul(g(a + 'y'), g(b + 'x')))),
    ].join(' ');
  /** x < 0 ? 0 : x > 1 ? 1 : x (NaN passes through, as in the JS clamp01). */
  const clamp01 = (n: string, e: E): string =>
    [set(n, e), set(n, o.sel(o.c(0), g(n), o.cmp('lt', g(n), o.c(0)))), set(n, o.sel(o.c(1), g(n), o.cmp('gt', g(n), o.c(1))))].join(' ');
  /** Dekker split x = xh + xl. */
  const split = (x: string): string =>
    [set('sp', mul(o.c(SPLITTER), g(x))), set(x + 'h', sub(g('sp'), sub(g('sp'), g(x)))), set(x + 'l', sub(g(x), g(x + 'h')))].join(' ');
  // v′ = v − μu with μ·u_i = p + (ml·ul − (((p − mh·uh) − ml·uh) − mh·ul)) exactly (Dekker).
  const vPrime = (a: string): string =>
    set('q' + a, sub(sub(g('v' + a), g('p' + a)),
      sub(mul(g('mul'), g(`u${a}l`)), sub(sub(sub(g('p' + a), mul(g('muh'), g(`u${a}h`))), mul(g('mul'), g(`u${a}h`))), mul(g('muh'), g(`u${a}l`))))));

  const body = [
    P.map((n, j) => set(n, o.load(j))).join(' '),
    set('ux', sub(g('a1x'), g('a0x'))), set('uy', sub(g('a1y'), g('a0y'))), set('uz', sub(g('a1z'), g('a0z'))),
    set('vx', sub(g('b1x'), g('b0x'))), set('vy', sub(g('b1y'), g('b0y'))), set('vz', sub(g('b1z'), g('b0z'))),
    set('aa', dot3('u', 'u')), set('cc', dot3('v', 'v')), set('b', dot3('u', 'v')),
    set('ac', mul(g('aa'), g('cc'))),
    set('D', sub(g('ac'), mul(g('b'), g('b')))),
    set('wx', sub(g('a0x'), g('b0x'))), set('wy', sub(g('a0y'), g('b0y'))), set('wz', sub(g('a0z'), g('b0z'))),
    set('d', dot3('u', 'w')), set('e', dot3('v', 'w')),
    // Tier 1 (sin²θ ≥ 1/16): Ericson's dot-product form, one division for three reciprocals.
    set('fast', o.cmp('ge', g('D'), mul(o.c(0.0625), g('ac')))),
    set('q', div(o.c(1), mul(g('ac'), g('D')))),
    set('sStarF', mul(mul(sub(mul(g('b'), g('e')), mul(g('cc'), g('d'))), g('ac')), g('q'))),
    set('iAF', mul(mul(g('cc'), g('D')), g('q'))),
    set('iCF', mul(mul(g('aa'), g('D')), g('q'))),
    // Shallow angles, only where some lane needs them: s* = n·(v×w)/|n|², n = u×v, plain or
    // (below sin²θ = 2⁻⁵⁰) as u×(v − μu) with μ·u split error-free.
    `(if ${o.anyUnset(g('fast'))} (then`,
    set('iA', div(o.c(1), g('aa'))), set('iC', div(o.c(1), g('cc'))),
    set('plain', o.cmp('ge', sub(g('ac'), mul(g('b'), g('b'))), mul(o.c(ACCURATE_BELOW), g('ac')))),
    cross('u', 'v', 'n'),
    `(if ${o.anyUnset(g('plain'))} (then`,
    set('mu', mul(g('b'), g('iA'))),
    set('sp', mul(o.c(SPLITTER), g('mu'))), set('muh', sub(g('sp'), sub(g('sp'), g('mu')))), set('mul', sub(g('mu'), g('muh'))),
    split('ux'), split('uy'), split('uz'),
    ['x', 'y', 'z'].map((a) => set('p' + a, mul(g('mu'), g('u' + a)))).join(' '),
    ['x', 'y', 'z'].map(vPrime).join(' '),
    cross('u', 'q', 'nA'),
    ['x', 'y', 'z'].map((a) => set('n' + a, o.sel(g('n' + a), g(`nA${a}`), g('plain')))).join(' '),
    '))',
    set('D', add(add(mul(g('nx'), g('nx')), mul(g('ny'), g('ny'))), mul(g('nz'), g('nz')))),
    set('okT', o.or(g('fast'), o.cmp('gt', g('D'), o.c(0)))),
    set('sStar', o.sel(g('sStarF'), div(add(add(
      mul(sub(mul(g('ny'), g('vz')), mul(g('nz'), g('vy'))), g('wx')),
      mul(sub(mul(g('nz'), g('vx')), mul(g('nx'), g('vz'))), g('wy'))),
      mul(sub(mul(g('nx'), g('vy')), mul(g('ny'), g('vx'))), g('wz'))), g('D')), g('fast'))),
    set('iA', o.sel(g('iAF'), g('iA'), g('fast'))),
    set('iC', o.sel(g('iCF'), g('iC'), g('fast'))),
    ') (else',
    set('sStar', g('sStarF')), set('iA', g('iAF')), set('iC', g('iCF')), set('okT', o.allSet),
    '))',
    // Clamp, project onto b, clamp, project back; the residual; the hand-over test.
    clamp01('s', g('sStar')),
    clamp01('t', mul(add(g('e'), mul(g('b'), g('s'))), g('iC'))),
    clamp01('s', mul(sub(mul(g('b'), g('t')), g('d')), g('iA'))),
    set('rx', sub(add(g('wx'), mul(g('s'), g('ux'))), mul(g('t'), g('vx')))),
    set('ry', sub(add(g('wy'), mul(g('s'), g('uy'))), mul(g('t'), g('vy')))),
    set('rz', sub(add(g('wz'), mul(g('s'), g('uz'))), mul(g('t'), g('vz')))),
    set('dist2', dot3('r', 'r')),
    set('size2', add(add(dot3('w', 'w'), g('aa')), g('cc'))),
    // The fast path's (s, t), or NaN for s where the kernel hands over; JavaScript then makes the
    // distance faithful from them (closest/faithful.ts), exactly as closestSegSeg3 does.
    set('pass', o.and(o.and(g('okT'), o.cmp('gt', g('dist2'), mul(o.c(FILTER2), g('size2')))),
      o.and(o.cmp('lt', g('size2'), o.c(HUGE)), o.cmp('gt', g('ac'), o.c(TINY))))),
    set('res', o.sel(g('s'), o.c(NaN), g('pass'))),
    // Where the faithful step certifies the distance d (> 0), −d replaces s (which is ≥ 0).
    faithfulStep(o, g, set),
    o.store(o.sel(o.neg(g('fd')), g('res'), g('fok')), g('t')),
  ].join('\n      ');

  return `
  ;; ${name}(p, n, o): (s, t) of n pairs (12 f64 each, from byte p) to byte o, ${o.lanes} pair(s)
  ;; per step (n a multiple of ${o.lanes}); s = NaN marks a pair to finish in JavaScript.
  (func (export "${name}") (param $p i32) (param $n i32) (param $o i32)
    (local $i i32) ${VALUES.map((n) => `(local $${n} ${o.value})`).join(' ')} ${MASKS.map((n) => `(local $${n} ${o.mask})`).join(' ')}
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      ${body}
      (local.set $p (i32.add (local.get $p) (i32.const ${96 * o.lanes})))
      (local.set $o (i32.add (local.get $o) (i32.const ${16 * o.lanes})))
      (local.set $i (i32.add (local.get $i) (i32.const ${o.lanes})))
      (br $next))))`;
}

const wat = `(module
  (import "env" "memory" (memory 1))${kernel('seg3', SCALAR)}${kernel('seg3x2', SIMD)})`;

/** The generated TypeScript module's text (the wasm bytes, base64). */
export async function generate(): Promise<string> {
  const wabt = await wabtInit();
  const module = wabt.parseWat('seg3.wat', wat);
  module.validate();
  const bytes = Buffer.from(module.toBinary({}).buffer);
  return `// GENERATED by scripts/build-wasm.ts — do not edit; edit the generator and rerun it.
// The fast path of the 3D segment–segment kernel of src/closest/segment-kernels.ts as WebAssembly (${bytes.length} bytes).

/** The module's bytes, base64. */
export const SEG3_WASM = '${bytes.toString('base64')}';
`;
}

/** Where the generated module lives. */
export const TARGET = new URL('../src/batch/seg3.generated.ts', import.meta.url);

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.writeFileSync(TARGET, await generate());
  console.log('wrote src/batch/seg3.generated.ts');
}
