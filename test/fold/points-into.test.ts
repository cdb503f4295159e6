/**
 * ChainFolder.pointsInto: points() written into a caller's array, from a vertex on. Checked
 * against points() (the reference) after seeded pivots and folds, and the claim a view relies
 * on — a move at joint j leaves vertices 0 … j bit for bit — checked against the pose before.
 */
import { describe, expect, it } from 'vitest';
import { createChainFolder, SkewlineInputError } from '../../src/index.js';
import { randomMove } from '../support/tree-fold.js';
import { makeRng } from '../support/rng.js';
import { folderChain } from '../support/fold-chains.js';

describe('ChainFolder.pointsInto', () => {
  for (const family of ['random2d', 'walk3d']) {
    it(`issue 18 (explorer redraw): a tail read after each move equals points(), ${family}, seed 18`, () => {
      const rng = makeRng(18);
      const c = folderChain(family, rng, family === 'random2d' ? 60 : 400);
      const dim = c.dim, n = c.flat.length / dim;
      const f = createChainFolder(c.flat, { dim, thickness: c.tau });
      const held = f.pointsInto(new Float64Array(n * dim));
      expect(held).toEqual(f.points());
      const f32 = f.pointsInto(new Float32Array(n * dim));
      expect(f32).toEqual(Float32Array.from(f.points()));
      let moved = 0;
      for (let k = 0; k < 60; k++) {
        const m = randomMove(rng, n, dim);
        const before = f.points();
        const ok = k % 2 === 0 ? f.pivot(m) : f.fold(m).angle !== 0;
        const after = f.points();
        // the head, vertices 0 … joint, is the pose before bit for bit
        expect(after.subarray(0, (m.joint + 1) * dim)).toEqual(before.subarray(0, (m.joint + 1) * dim));
        // so the tail is all a view must read
        f.pointsInto(held, m.joint + 1);
        f.pointsInto(f32, m.joint + 1);
        expect(held).toEqual(after);
        expect(f32).toEqual(Float32Array.from(after));
        if (ok) moved++;
      }
      expect(moved).toBeGreaterThan(10); // the moves did move the chain
    });
  }

  it('writes nothing before `from`, and nothing at from = count', () => {
    const f = createChainFolder([0, 0, 0, 1, 0, 0, 1, 1, 0, 2, 1, 0], { dim: 3 });
    const out = new Float64Array(12).fill(-7);
    f.pointsInto(out, 2);
    expect(Array.from(out)).toEqual([-7, -7, -7, -7, -7, -7, 1, 1, 0, 2, 1, 0]);
    f.pointsInto(out, 4);
    expect(out[0]).toBe(-7);
    expect(f.pointsInto(new Float64Array(20))).toBeInstanceOf(Float64Array); // longer is fine
  });

  it('rejects a short or untyped array and a bad `from` with SkewlineInputError', () => {
    const f = createChainFolder([0, 0, 0, 1, 0, 0, 1, 1, 0], { dim: 3 });
    expect(() => f.pointsInto(new Float64Array(8))).toThrow(SkewlineInputError);
    expect(() => f.pointsInto(new Float64Array(8))).toThrow(/at least 9 numbers/);
    expect(() => f.pointsInto([0, 0, 0, 0, 0, 0, 0, 0, 0] as unknown as Float64Array)).toThrow(SkewlineInputError);
    for (const from of [-1, 4, 1.5, NaN]) expect(() => f.pointsInto(new Float64Array(9), from)).toThrow(/from must be an integer in \[0, 3\]/);
  });
});
