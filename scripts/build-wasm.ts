/**
 * Generates src/wasm/seg3.generated.ts: the 3D segment–segment distance kernel of
 * src/kernels.ts (closestSegSeg3 with its shallow-angle tiers) as WebAssembly, for pairs that
 * already live in WebAssembly memory. WebAssembly's `select` makes the clamps branch-free,
 * which JavaScript cannot express (V8 compiles ternaries and Math.min/max to branches).
 *
 * Every expression mirrors the JavaScript kernel operation for operation, so both give the
 * same bits; a pair the kernel would hand to the exact/generic path is written as NaN, and
 * the caller finishes it in JavaScript. Run: npx tsx scripts/build-wasm.ts
 */
import fs from 'node:fs';
import wabtInit from 'wabt';

type E = string;
const g = (n: string): E => `(local.get $${n})`;
const c = (x: number): E => `(f64.const ${Number.isNaN(x) ? 'nan' : x})`;
const op = (o: string) => (a: E, b: E): E => `(f64.${o} ${a} ${b})`;
const add = op('add');
const sub = op('sub');
const mul = op('mul');
const div = op('div');
const set = (n: string, e: E): string => `(local.set $${n} ${e})`;
const dot3 = (a: string, b: string): E => add(add(mul(g(a + 'x'), g(b + 'x')), mul(g(a + 'y'), g(b + 'y'))), mul(g(a + 'z'), g(b + 'z')));
/** x < 0 ? 0 : x > 1 ? 1 : x, branch-free (NaN passes through, as in the JS clamp01). */
const clamp01 = (n: string, e: E): string =>
  [set(n, e), set(n, `(select ${c(0)} ${g(n)} (f64.lt ${g(n)} ${c(0)}))`), set(n, `(select ${c(1)} ${g(n)} (f64.gt ${g(n)} ${c(1)}))`)].join('\n      ');
/** Dekker split of x into xh + xl. */
const split = (x: string): string => [set('sp', mul(c(134217729), g(x))), set(x + 'h', sub(g('sp'), sub(g('sp'), g(x)))), set(x + 'l', sub(g(x), g(x + 'h')))].join(' ');

// Constants shared with src/kernels.ts (checked by test/wasm.test.ts).
const EPS = 2 ** -53;
const FILTER2 = (64 * EPS) ** 2;
const TINY = 2 ** -300;
const HUGE = 2 ** 200;
const ACCURATE_BELOW = 2 ** -50;

const P = ['a0x', 'a0y', 'a0z', 'a1x', 'a1y', 'a1z', 'b0x', 'b0y', 'b0z', 'b1x', 'b1y', 'b1z'];
const locals = [
  ...P, 'ux', 'uy', 'uz', 'vx', 'vy', 'vz', 'wx', 'wy', 'wz', 'aa', 'cc', 'b', 'd', 'e', 'ac', 'D', 'q',
  'sStar', 'iA', 'iC', 'nx', 'ny', 'nz', 'mu', 'sp', 'muh', 'mul', 'uxh', 'uxl', 'uyh', 'uyl', 'uzh', 'uzl',
  'px', 'py', 'pz', 'qx', 'qy', 'qz', 's', 't', 'rx', 'ry', 'rz', 'dist2', 'size2',
];

const body = `
    ${P.map((n, j) => set(n, `(f64.load offset=${8 * j} (local.get $p))`)).join(' ')}
    ${set('ux', sub(g('a1x'), g('a0x')))} ${set('uy', sub(g('a1y'), g('a0y')))} ${set('uz', sub(g('a1z'), g('a0z')))}
    ${set('vx', sub(g('b1x'), g('b0x')))} ${set('vy', sub(g('b1y'), g('b0y')))} ${set('vz', sub(g('b1z'), g('b0z')))}
    ${set('aa', dot3('u', 'u'))} ${set('cc', dot3('v', 'v'))} ${set('b', dot3('u', 'v'))}
    ${set('ac', mul(g('aa'), g('cc')))}
    ${set('D', sub(g('ac'), mul(g('b'), g('b'))))}
    ${set('wx', sub(g('a0x'), g('b0x')))} ${set('wy', sub(g('a0y'), g('b0y')))} ${set('wz', sub(g('a0z'), g('b0z')))}
    ${set('d', dot3('u', 'w'))} ${set('e', dot3('v', 'w'))}
    (local.set $ok (i32.const 1))
    (if (f64.ge ${g('D')} ${mul(c(0.0625), g('ac'))})
      (then
        ${set('q', div(c(1), mul(g('ac'), g('D'))))}
        ${set('sStar', mul(mul(sub(mul(g('b'), g('e')), mul(g('cc'), g('d'))), g('ac')), g('q')))}
        ${set('iA', mul(mul(g('cc'), g('D')), g('q')))}
        ${set('iC', mul(mul(g('aa'), g('D')), g('q')))})
      (else
        ${set('iA', div(c(1), g('aa')))} ${set('iC', div(c(1), g('cc')))}
        (if (f64.ge ${sub(g('ac'), mul(g('b'), g('b')))} ${mul(c(ACCURATE_BELOW), g('ac'))})
          (then
            ${set('nx', sub(mul(g('uy'), g('vz')), mul(g('uz'), g('vy'))))}
            ${set('ny', sub(mul(g('uz'), g('vx')), mul(g('ux'), g('vz'))))}
            ${set('nz', sub(mul(g('ux'), g('vy')), mul(g('uy'), g('vx'))))})
          (else
            ${set('mu', mul(g('b'), g('iA')))}
            ${set('sp', mul(c(134217729), g('mu')))} ${set('muh', sub(g('sp'), sub(g('sp'), g('mu'))))} ${set('mul', sub(g('mu'), g('muh')))}
            ${split('ux')} ${split('uy')} ${split('uz')}
            ${['x', 'y', 'z'].map((a) => set('p' + a, mul(g('mu'), g('u' + a)))).join(' ')}
            ${['x', 'y', 'z']
              .map((a) =>
                set('q' + a, sub(sub(g('v' + a), g('p' + a)),
                  sub(mul(g('mul'), g(`u${a}l`)), sub(sub(sub(g('p' + a), mul(g('muh'), g(`u${a}h`))), mul(g('mul'), g(`u${a}h`))), mul(g('muh'), g(`u${a}l`)))))))
              .join('\n            ')}
            ${set('nx', sub(mul(g('uy'), g('qz')), mul(g('uz'), g('qy'))))}
            ${set('ny', sub(mul(g('uz'), g('qx')), mul(g('ux'), g('qz'))))}
            ${set('nz', sub(mul(g('ux'), g('qy')), mul(g('uy'), g('qx'))))}))
        ${set('D', add(add(mul(g('nx'), g('nx')), mul(g('ny'), g('ny'))), mul(g('nz'), g('nz'))))}
        (local.set $ok (f64.gt ${g('D')} ${c(0)}))
        ${set('sStar', div(add(add(
          mul(sub(mul(g('ny'), g('vz')), mul(g('nz'), g('vy'))), g('wx')),
          mul(sub(mul(g('nz'), g('vx')), mul(g('nx'), g('vz'))), g('wy'))),
          mul(sub(mul(g('nx'), g('vy')), mul(g('ny'), g('vx'))), g('wz'))), g('D')))}))
    ${clamp01('s', g('sStar'))}
    ${clamp01('t', mul(add(g('e'), mul(g('b'), g('s'))), g('iC')))}
    ${clamp01('s', mul(sub(mul(g('b'), g('t')), g('d')), g('iA')))}
    ${set('rx', sub(add(g('wx'), mul(g('s'), g('ux'))), mul(g('t'), g('vx'))))}
    ${set('ry', sub(add(g('wy'), mul(g('s'), g('uy'))), mul(g('t'), g('vy'))))}
    ${set('rz', sub(add(g('wz'), mul(g('s'), g('uz'))), mul(g('t'), g('vz'))))}
    ${set('dist2', dot3('r', 'r'))}
    ${set('size2', add(add(dot3('w', 'w'), g('aa')), g('cc')))}
    (f64.store (local.get $o) (select (f64.sqrt ${g('dist2')}) ${c(NaN)}
      (i32.and (i32.and (local.get $ok) (f64.gt ${g('dist2')} ${mul(c(FILTER2), g('size2'))}))
               (i32.and (f64.lt ${g('size2')} ${c(HUGE)}) (f64.gt ${g('ac')} ${c(TINY)})))))`;

// ---------------------------------------------------------------------------------------------
// The same kernel on two pairs at once (f64x2 lanes: each lane is IEEE arithmetic, so each lane
// computes the very bits of the scalar kernel). Both tiers are evaluated where needed and chosen
// per lane with v128.bitselect; the shallow tier only runs when some lane needs it.

const V = (n: string): E => `(local.get $${n})`;
const vc = (x: number): E => `(f64x2.splat ${c(x)})`;
const vop = (o: string) => (a: E, b: E): E => `(f64x2.${o} ${a} ${b})`;
const vadd = vop('add');
const vsub = vop('sub');
const vmul = vop('mul');
const vdiv = vop('div');
const vdot3 = (a: string, b: string): E => vadd(vadd(vmul(V(a + 'x'), V(b + 'x')), vmul(V(a + 'y'), V(b + 'y'))), vmul(V(a + 'z'), V(b + 'z')));
/** bitselect(a, b, m): a where the mask m is set, else b. */
const sel = (a: E, b: E, m: E): E => `(v128.bitselect ${a} ${b} ${m})`;
const vclamp01 = (n: string, e: E): string =>
  [set(n, e), set(n, sel(vc(0), V(n), `(f64x2.lt ${V(n)} ${vc(0)})`)), set(n, sel(vc(1), V(n), `(f64x2.gt ${V(n)} ${vc(1)})`))].join('\n      ');
const vsplit = (x: string): string => [set('sp', vmul(vc(134217729), V(x))), set(x + 'h', vsub(V('sp'), vsub(V('sp'), V(x)))), set(x + 'l', vsub(V(x), V(x + 'h')))].join(' ');
const lanes = (j: number): E => `(f64x2.replace_lane 1 (f64x2.splat (f64.load offset=${8 * j} (local.get $p))) (f64.load offset=${8 * j + 96} (local.get $p)))`;
const VL = [...locals, 'sStarF', 'iAF', 'iCF', 'nxA', 'nyA', 'nzA', 'fast', 'plain', 'okT', 'res'];

const bodyX2 = `
    ${P.map((n, j) => set(n, lanes(j))).join(' ')}
    ${set('ux', vsub(V('a1x'), V('a0x')))} ${set('uy', vsub(V('a1y'), V('a0y')))} ${set('uz', vsub(V('a1z'), V('a0z')))}
    ${set('vx', vsub(V('b1x'), V('b0x')))} ${set('vy', vsub(V('b1y'), V('b0y')))} ${set('vz', vsub(V('b1z'), V('b0z')))}
    ${set('aa', vdot3('u', 'u'))} ${set('cc', vdot3('v', 'v'))} ${set('b', vdot3('u', 'v'))}
    ${set('ac', vmul(V('aa'), V('cc')))}
    ${set('D', vsub(V('ac'), vmul(V('b'), V('b'))))}
    ${set('wx', vsub(V('a0x'), V('b0x')))} ${set('wy', vsub(V('a0y'), V('b0y')))} ${set('wz', vsub(V('a0z'), V('b0z')))}
    ${set('d', vdot3('u', 'w'))} ${set('e', vdot3('v', 'w'))}
    ${set('fast', `(f64x2.ge ${V('D')} ${vmul(vc(0.0625), V('ac'))})`)}
    ${set('q', vdiv(vc(1), vmul(V('ac'), V('D'))))}
    ${set('sStarF', vmul(vmul(vsub(vmul(V('b'), V('e')), vmul(V('cc'), V('d'))), V('ac')), V('q')))}
    ${set('iAF', vmul(vmul(V('cc'), V('D')), V('q')))}
    ${set('iCF', vmul(vmul(V('aa'), V('D')), V('q')))}
    (if (v128.any_true (v128.not ${V('fast')}))
      (then
        ${set('iA', vdiv(vc(1), V('aa')))} ${set('iC', vdiv(vc(1), V('cc')))}
        ${set('plain', `(f64x2.ge ${vsub(V('ac'), vmul(V('b'), V('b')))} ${vmul(vc(ACCURATE_BELOW), V('ac'))})`)}
        ${set('nx', vsub(vmul(V('uy'), V('vz')), vmul(V('uz'), V('vy'))))}
        ${set('ny', vsub(vmul(V('uz'), V('vx')), vmul(V('ux'), V('vz'))))}
        ${set('nz', vsub(vmul(V('ux'), V('vy')), vmul(V('uy'), V('vx'))))}
        (if (v128.any_true (v128.not ${V('plain')}))
          (then
            ${set('mu', vmul(V('b'), V('iA')))}
            ${set('sp', vmul(vc(134217729), V('mu')))} ${set('muh', vsub(V('sp'), vsub(V('sp'), V('mu'))))} ${set('mul', vsub(V('mu'), V('muh')))}
            ${vsplit('ux')} ${vsplit('uy')} ${vsplit('uz')}
            ${['x', 'y', 'z'].map((a) => set('p' + a, vmul(V('mu'), V('u' + a)))).join(' ')}
            ${['x', 'y', 'z']
              .map((a) =>
                set('q' + a, vsub(vsub(V('v' + a), V('p' + a)),
                  vsub(vmul(V('mul'), V(`u${a}l`)), vsub(vsub(vsub(V('p' + a), vmul(V('muh'), V(`u${a}h`))), vmul(V('mul'), V(`u${a}h`))), vmul(V('muh'), V(`u${a}l`)))))))
              .join('\n            ')}
            ${set('nxA', vsub(vmul(V('uy'), V('qz')), vmul(V('uz'), V('qy'))))}
            ${set('nyA', vsub(vmul(V('uz'), V('qx')), vmul(V('ux'), V('qz'))))}
            ${set('nzA', vsub(vmul(V('ux'), V('qy')), vmul(V('uy'), V('qx'))))}
            ${set('nx', sel(V('nx'), V('nxA'), V('plain')))}
            ${set('ny', sel(V('ny'), V('nyA'), V('plain')))}
            ${set('nz', sel(V('nz'), V('nzA'), V('plain')))}))
        ${set('D', vadd(vadd(vmul(V('nx'), V('nx')), vmul(V('ny'), V('ny'))), vmul(V('nz'), V('nz'))))}
        ${set('okT', `(v128.or ${V('fast')} (f64x2.gt ${V('D')} ${vc(0)}))`)}
        ${set('sStar', sel(V('sStarF'), vdiv(vadd(vadd(
          vmul(vsub(vmul(V('ny'), V('vz')), vmul(V('nz'), V('vy'))), V('wx')),
          vmul(vsub(vmul(V('nz'), V('vx')), vmul(V('nx'), V('vz'))), V('wy'))),
          vmul(vsub(vmul(V('nx'), V('vy')), vmul(V('ny'), V('vx'))), V('wz'))), V('D')), V('fast')))}
        ${set('iA', sel(V('iAF'), V('iA'), V('fast')))}
        ${set('iC', sel(V('iCF'), V('iC'), V('fast')))})
      (else
        ${set('sStar', V('sStarF'))} ${set('iA', V('iAF'))} ${set('iC', V('iCF'))}
        ${set('okT', '(v128.const i64x2 -1 -1)')}))
    ${vclamp01('s', V('sStar'))}
    ${vclamp01('t', vmul(vadd(V('e'), vmul(V('b'), V('s'))), V('iC')))}
    ${vclamp01('s', vmul(vsub(vmul(V('b'), V('t')), V('d')), V('iA')))}
    ${set('rx', vsub(vadd(V('wx'), vmul(V('s'), V('ux'))), vmul(V('t'), V('vx'))))}
    ${set('ry', vsub(vadd(V('wy'), vmul(V('s'), V('uy'))), vmul(V('t'), V('vy'))))}
    ${set('rz', vsub(vadd(V('wz'), vmul(V('s'), V('uz'))), vmul(V('t'), V('vz'))))}
    ${set('dist2', vdot3('r', 'r'))}
    ${set('size2', vadd(vadd(vdot3('w', 'w'), V('aa')), V('cc')))}
    ${set('res', sel(`(f64x2.sqrt ${V('dist2')})`, vc(NaN),
      `(v128.and (v128.and ${V('okT')} (f64x2.gt ${V('dist2')} ${vmul(vc(FILTER2), V('size2'))})) ` +
      `(v128.and (f64x2.lt ${V('size2')} ${vc(HUGE)}) (f64x2.gt ${V('ac')} ${vc(TINY)})))`))}
    (f64.store (local.get $o) (f64x2.extract_lane 0 ${V('res')}))
    (f64.store offset=8 (local.get $o) (f64x2.extract_lane 1 ${V('res')}))`;

const wat = `(module
  (import "env" "memory" (memory 1))
  ;; seg3(p, n, o): distances of n pairs (12 f64 each, from byte p) to byte o; NaN = hand over.
  (func (export "seg3") (param $p i32) (param $n i32) (param $o i32)
    (local $i i32) (local $ok i32) ${locals.map((n) => `(local $${n} f64)`).join(' ')}
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      ${body}
      (local.set $p (i32.add (local.get $p) (i32.const 96)))
      (local.set $o (i32.add (local.get $o) (i32.const 8)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next))))
  ;; seg3x2(p, n, o): the same for an even n, two pairs per step in f64x2 lanes.
  (func (export "seg3x2") (param $p i32) (param $n i32) (param $o i32)
    (local $i i32) ${VL.map((n) => `(local $${n} v128)`).join(' ')}
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      ${bodyX2}
      (local.set $p (i32.add (local.get $p) (i32.const 192)))
      (local.set $o (i32.add (local.get $o) (i32.const 16)))
      (local.set $i (i32.add (local.get $i) (i32.const 2)))
      (br $next)))))`;

/** The generated TypeScript module's text (the wasm bytes, base64). */
export async function generate(): Promise<string> {
  const wabt = await wabtInit();
  const module = wabt.parseWat('seg3.wat', wat);
  module.validate();
  const bytes = Buffer.from(module.toBinary({}).buffer);
  return `// GENERATED by scripts/build-wasm.ts — do not edit; edit the generator and rerun it.
// The 3D segment–segment distance kernel of src/kernels.ts as WebAssembly (${bytes.length} bytes).

/** The module's bytes, base64. */
export const SEG3_WASM = '${bytes.toString('base64')}';
`;
}

/** Where the generated module lives. */
export const TARGET = new URL('../src/wasm/seg3.generated.ts', import.meta.url);

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.writeFileSync(TARGET, await generate());
  console.log('wrote src/wasm/seg3.generated.ts');
}
