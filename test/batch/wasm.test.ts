import { describe, expect, it } from 'vitest';
import { allocPairs3, closestSegSeg3, SkewlineInputError, segmentDistances } from '../../src/index.js';
import fs from 'node:fs';
import { nearlyParallelPairs3, uniformPairs3, FAMILIES } from '../support/families.js';
import { TARGET, generate } from '../../scripts/build-wasm.js';
import { SEG3_WASM } from '../../src/batch/seg3.generated.js';
import { FAITHFUL_FAMILIES, faithfulPairs } from '../support/faithful-families.js';

/** Copies pairs into WebAssembly memory; both paths must give the same bits. */
function bothPaths(data: Float64Array): [Float64Array, Float64Array] {
  const n = data.length / 12;
  const resident = allocPairs3(n);
  resident.set(data);
  const js = new Float64Array(n);
  for (let i = 0; i < n; i++) js[i] = closestSegSeg3(data, 12 * i, null, 0);
  return [segmentDistances(resident, 3), js];
}

function firstDifference(a: Float64Array, b: Float64Array): number {
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

describe('the WebAssembly kernel gives the JavaScript kernel’s bits', () => {
  it('uniform random pairs, an odd count (SIMD pairs and a scalar tail), seed 5', () => {
    const [w, j] = bothPaths(uniformPairs3(20001, 5));
    expect(firstDifference(w, j)).toBe(-1);
  });
  it('nearly parallel pairs (all three tiers), seed 6', () => {
    const [w, j] = bothPaths(nearlyParallelPairs3(20000, 6));
    expect(firstDifference(w, j)).toBe(-1);
  });
  it('every oracle family, 3D segments (touching, tiny, far, zero-length…), seed 7', () => {
    const cases = FAMILIES.flatMap((f, i) => f.make(7 + i, 300, { dims: [3], segmentsOnly: true }));
    const data = new Float64Array(cases.length * 12);
    cases.forEach((c, i) => {
      data.set(c.a.p0, 12 * i);
      data.set(c.a.p1, 12 * i + 3);
      data.set(c.b.p0, 12 * i + 6);
      data.set(c.b.p1, 12 * i + 9);
    });
    const [w, j] = bothPaths(data);
    const i = firstDifference(w, j);
    expect(i, i < 0 ? '' : `seed 7, pair ${i}: ${Array.from(data.subarray(12 * i, 12 * i + 12))}`).toBe(-1);
  });
});

describe('ordinary arrays of ≥ 4096 pairs go through WebAssembly in chunks, with the same bits', () => {
  for (const [name, data] of [
    ['uniform, seed 21', uniformPairs3(30000, 21)],
    ['nearly parallel, seed 22', nearlyParallelPairs3(30000, 22)],
  ] as const) {
    it(name, () => {
      const js = new Float64Array(data.length / 12);
      for (let i = 0; i < js.length; i++) js[i] = closestSegSeg3(data, 12 * i, null, 0);
      expect(firstDifference(segmentDistances(data, 3), js)).toBe(-1);
    });
  }
  it('reports a non-finite coordinate in a large ordinary array', () => {
    const data = uniformPairs3(5000, 23);
    data[12 * 4321 + 11] = -Infinity;
    expect(() => segmentDistances(data, 3)).toThrow(/pair starting at index 51852: b1\[2\] is not finite/);
  });
});

describe('allocPairs3', () => {
  it('returns zeroed, independent arrays that stay valid', () => {
    const a = allocPairs3(3);
    const b = allocPairs3(5);
    expect(a.length).toBe(36);
    expect(b.length).toBe(60);
    a.set([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0], 0);
    expect(Array.from(segmentDistances(a, 3))).toEqual([1, 0, 0]);
    expect(b.every((x) => x === 0)).toBe(true);
  });
  it('reports a non-finite coordinate like the JavaScript path', () => {
    const a = allocPairs3(2);
    a[12 + 7] = NaN;
    expect(() => segmentDistances(a, 3)).toThrow(/b0\[1\] is not finite/);
  });
  it('rejects a bad size', () => {
    expect(() => allocPairs3(-1)).toThrow(SkewlineInputError);
    expect(() => allocPairs3(1.5)).toThrow(/integer/);
  });
});

describe('the committed module is what its generator makes', () => {
  it('src/batch/seg3.generated.ts is up to date (else run npx tsx scripts/build-wasm.ts)', async () => {
    expect(fs.readFileSync(TARGET, 'utf8')).toBe(await generate());
  });
});

/** The module's raw results for pairs copied into a memory of its own: (s or −d, t) per pair. */
function moduleResults(data: Float64Array): Float64Array {
  const n = data.length / 12;
  const pages = Math.max(1, Math.ceil((n * 112) / 65536));
  const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
  const bytes = Uint8Array.from(Buffer.from(SEG3_WASM, 'base64'));
  const exports = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } }).exports;
  new Float64Array(memory.buffer, 0, 12 * n).set(data);
  const even = n & ~1;
  (exports.seg3x2 as (p: number, n: number, o: number) => void)(0, even, 96 * n);
  if (even < n) (exports.seg3 as (p: number, n: number, o: number) => void)(96 * even, 1, 96 * n + 16 * even);
  return new Float64Array(memory.buffer, 96 * n, 2 * n).slice();
}

describe('issue 19: the module makes the common case’s distance faithful itself', () => {
  const sets: [string, Float64Array, number][] = [
    ['uniform, seed 31', uniformPairs3(4001, 31), 0.99],
    ['nearly parallel, seed 32', nearlyParallelPairs3(4000, 32), 0],
    ...([1, 1e300, 1e-300] as const).flatMap((scale) =>
      FAITHFUL_FAMILIES.map((f, i): [string, Float64Array, number] => [`${f} at scale ${scale}, seed ${33 + i}`, faithfulPairs(f, 3, 300, 33 + i, { scale }), 0]),
    ),
  ];
  for (const [name, data, least] of sets) {
    it(`${name}: every distance the module certifies is closestSegSeg3’s, bit for bit`, () => {
      const out = moduleResults(data);
      let certified = 0;
      for (let i = 0; i < data.length / 12; i++) {
        if (!(out[2 * i] < 0)) continue;
        certified++;
        expect(Object.is(-out[2 * i], closestSegSeg3(data, 12 * i, null, 0)), `${name}, pair ${i}`).toBe(true);
      }
      expect(certified).toBeGreaterThanOrEqual(least * (data.length / 12));
    });
  }
});
