/**
 * Generates src/closest/nd.generated.ts: the two passes of kernel-nd.ts's fused n-D path (pass 1,
 * the Gram entries; pass 2, the residual in double-double with |r|² and the gradient) as
 * WebAssembly with f64x2 lanes: two coordinates a step, the even ones in lane 0 and the odd ones
 * in lane 1. Both passes are bound by floating-point throughput in JavaScript (V8 neither
 * vectorises nor uses FMA); the lanes do two operations per instruction. Each lane performs the
 * JavaScript loops' IEEE operations in the same order; only the order of the sums over the
 * coordinates differs (two partial sums, added by the caller), which the certificate's bounds
 * allow (Higham §3.1: the γₙ bound holds for any order; the compensated sum's bound for two
 * halves and one exact two-sum is within the bound for n terms).
 *
 * Memory layout (byte offsets; the caller keeps the vectors there, see kernel-nd.ts):
 * - gram(m, a0, a1, au, b0, b1, bv, o): m coordinates (even); writes the lanes of u·u, u·v, v·v,
 *   u·w, v·w, w·w (12 doubles) at o.
 * - resid(m, a0, a1, au, b0, b1, bv, ro, o): reads s, t at o + 96, o + 104; writes r at ro and
 *   the lanes of hi, lo (|r|² in double-double), r·u, r·v (8 doubles) at o + 112.
 * Run: npx tsx scripts/build-wasm-nd.ts
 */
import fs from 'node:fs';
import wabtInit from 'wabt';

const SPLITTER = 134217729;

const get = (n: string): string => `(local.get $${n})`;
const set = (n: string, e: string): string => `(local.set $${n} ${e})`;
const add = (a: string, b: string): string => `(f64x2.add ${a} ${b})`;
const sub = (a: string, b: string): string => `(f64x2.sub ${a} ${b})`;
const mul = (a: string, b: string): string => `(f64x2.mul ${a} ${b})`;
const splat = (x: number): string => `(f64x2.splat (f64.const ${x}))`;
const load = (base: string): string => `(v128.load (i32.add (local.get $${base}) (local.get $i)))`;
const locals = (names: string[]): string => names.map((n) => `(local $${n} v128)`).join(' ');
const params = (names: string[]): string => names.map((n) => `(param $${n} i32)`).join(' ');

/** Pass 1: the Gram entries (kernel-nd.ts gram). */

/** The loop over the coordinates, two (16 bytes) a step, `$i` from 0 to m·8 bytes. */
function coordLoop(body: string): string {
  return `(local.set $end (i32.shl (local.get $m) (i32.const 3)))
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
      ${body}
      (local.set $i (i32.add (local.get $i) (i32.const 16)))
      (br $next)))`;
}
function gram(): string {
  const body = [
    set('x0', load('a0')),
    set('y0', load('b0')),
    set('u', sub(load('a1'), load('au'))),
    set('v', sub(load('b1'), load('bv'))),
    set('w', sub(get('x0'), get('y0'))),
    set('A', add(get('A'), mul(get('u'), get('u')))),
    set('B', add(get('B'), mul(get('u'), get('v')))),
    set('C', add(get('C'), mul(get('v'), get('v')))),
    set('D', add(get('D'), mul(get('u'), get('w')))),
    set('E', add(get('E'), mul(get('v'), get('w')))),
    set('F', add(get('F'), mul(get('w'), get('w')))),
  ].join('\n      ');
  const out = ['A', 'B', 'C', 'D', 'E', 'F'].map((n, k) => `(v128.store offset=${16 * k} (local.get $o) ${get(n)})`).join('\n    ');
  return `
  (func (export "gram") ${params(['m', 'a0', 'a1', 'au', 'b0', 'b1', 'bv', 'o'])}
    (local $i i32) (local $end i32) ${locals(['x0', 'y0', 'u', 'v', 'w', 'A', 'B', 'C', 'D', 'E', 'F'])}
    ${coordLoop(body)}
    ${out})`;
}

/** Pass 2: the residual in double-double, |r|² and the gradient (kernel-nd.ts residualBlock). */
function resid(): string {
  const S = get('S');
  const g = get;
  const body = [
    set('x0', load('a0')),
    set('x1', load('a1')),
    set('xu', load('au')),
    set('y0', load('b0')),
    set('y1', load('b1')),
    set('yv', load('bv')),
    // The differences and their exact rounding errors (Knuth's two-difference).
    set('ui', sub(g('x1'), g('xu'))),
    set('bb', sub(g('x1'), g('ui'))),
    set('ul', add(sub(g('x1'), add(g('ui'), g('bb'))), sub(g('bb'), g('xu')))),
    set('vi', sub(g('y1'), g('yv'))),
    set('bb', sub(g('y1'), g('vi'))),
    set('vl', add(sub(g('y1'), add(g('vi'), g('bb'))), sub(g('bb'), g('yv')))),
    set('wi', sub(g('x0'), g('y0'))),
    set('bb', sub(g('x0'), g('wi'))),
    set('wl', add(sub(g('x0'), add(g('wi'), g('bb'))), sub(g('bb'), g('y0')))),
    // s·uᵢ = p + pe and t·vᵢ = q + qe exactly (Dekker's two-product, s and t split once).
    set('p', mul(g('s'), g('ui'))),
    set('c', mul(S, g('ui'))),
    set('uh', sub(g('c'), sub(g('c'), g('ui')))),
    set('ulo', sub(g('ui'), g('uh'))),
    set('pe', sub(mul(g('sl'), g('ulo')), sub(sub(sub(g('p'), mul(g('sh'), g('uh'))), mul(g('sl'), g('uh'))), mul(g('sh'), g('ulo'))))),
    set('q', mul(g('t'), g('vi'))),
    set('c', mul(S, g('vi'))),
    set('vh', sub(g('c'), sub(g('c'), g('vi')))),
    set('vlo', sub(g('vi'), g('vh'))),
    set('qe', sub(mul(g('tl'), g('vlo')), sub(sub(sub(g('q'), mul(g('th'), g('vh'))), mul(g('tl'), g('vh'))), mul(g('th'), g('vlo'))))),
    // y = wᵢ + p − q with the two-sums' errors; l collects every low part.
    set('x', add(g('wi'), g('p'))),
    set('bb', sub(g('x'), g('wi'))),
    set('e1', add(sub(g('wi'), sub(g('x'), g('bb'))), sub(g('p'), g('bb')))),
    set('y', sub(g('x'), g('q'))),
    set('bb', sub(g('y'), g('x'))),
    set('e2', add(sub(g('x'), sub(g('y'), g('bb'))), sub(`(f64x2.neg ${g('q')})`, g('bb')))),
    set('l', sub(add(add(sub(add(add(g('e1'), g('e2')), g('pe')), g('qe')), g('wl')), mul(g('s'), g('ul'))), mul(g('t'), g('vl')))),
    // X = Σ (y + l)²: yₕ² exact, two-summed into hi + lo; the rest plainly into lo.
    set('c', mul(S, g('y'))),
    set('yh', sub(g('c'), sub(g('c'), g('y')))),
    set('p2', mul(g('yh'), g('yh'))),
    set('zz', add(g('hi'), g('p2'))),
    set('bb', sub(g('zz'), g('hi'))),
    set('lo', add(g('lo'), add(add(sub(g('hi'), sub(g('zz'), g('bb'))), sub(g('p2'), g('bb'))),
      add(mul(sub(g('y'), g('yh')), add(g('yh'), g('y'))), mul(g('l'), add(mul(splat(2), g('y')), g('l'))))))),
    set('hi', g('zz')),
    set('r', add(g('y'), g('l'))),
    set('g1', add(g('g1'), mul(g('r'), g('ui')))),
    set('g2', add(g('g2'), mul(g('r'), g('vi')))),
    '(v128.store (i32.add (local.get $ro) (local.get $i)) (local.get $r))',
  ].join('\n      ');
  const split = (x: string, h: string, l: string): string =>
    [set('c', mul(S, g(x))), set(h, sub(g('c'), sub(g('c'), g(x)))), set(l, sub(g(x), g(h)))].join('\n    ');
  const out = ['hi', 'lo', 'g1', 'g2'].map((n, k) => `(v128.store offset=${112 + 16 * k} (local.get $o) ${get(n)})`).join('\n    ');
  return `
  (func (export "resid") ${params(['m', 'a0', 'a1', 'au', 'b0', 'b1', 'bv', 'ro', 'o'])}
    (local $i i32) (local $end i32) ${locals([
      'S', 's', 't', 'sh', 'sl', 'th', 'tl', 'hi', 'lo', 'g1', 'g2', 'x0', 'x1', 'xu', 'y0', 'y1', 'yv', 'ui', 'ul', 'vi', 'vl', 'wi', 'wl',
      'bb', 'p', 'c', 'uh', 'ulo', 'pe', 'q', 'vh', 'vlo', 'qe', 'x', 'e1', 'y', 'e2', 'l', 'yh', 'p2', 'zz', 'r',
    ])}
    (local.set $S ${splat(SPLITTER)})
    (local.set $s (f64x2.splat (f64.load offset=96 (local.get $o))))
    (local.set $t (f64x2.splat (f64.load offset=104 (local.get $o))))
    ${split('s', 'sh', 'sl')}
    ${split('t', 'th', 'tl')}
    ${coordLoop(body)}
    ${out})`;
}

const wat = `(module
  (import "env" "memory" (memory 1))${gram()}${resid()})`;

/** The generated TypeScript module's text (the wasm bytes, base64). */
export async function generate(): Promise<string> {
  const wabt = await wabtInit();
  const module = wabt.parseWat('nd.wat', wat);
  module.validate();
  const bytes = Buffer.from(module.toBinary({}).buffer);
  return `// GENERATED by scripts/build-wasm-nd.ts — do not edit; edit the generator and rerun it.
// Pass 1 and pass 2 of the fused n-D path of src/closest/kernel-nd.ts as WebAssembly, f64x2 (${bytes.length} bytes).

/** The module's bytes, base64. */
export const ND_WASM = '${bytes.toString('base64')}';
`;
}

/** Where the generated module lives. */
export const TARGET = new URL('../src/closest/nd.generated.ts', import.meta.url);

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.writeFileSync(TARGET, await generate());
  console.log('wrote src/closest/nd.generated.ts');
}
