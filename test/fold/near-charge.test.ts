/**
 * The near-pair cache's distance bounds, issue 18: a bound taken for a listed leaf pair holds only
 * less the displacement charged (dtot) since it was taken. A search that read the bound as taken
 * (the mutant named in the sixth session's note: no fold test caught it, only the bookkeeping
 * check of the bounds' decay) opens the pair late in the fold that meets its contact; here it
 * stopped short of foldChain's angle, its pair 7.7e-7 of the chain's size from contact (gap 0.2920). Fixed moves, no seed: the hinge of `folder-fold.test.ts` (two parallel
 * rods 3 apart, the second turning about the corner), opened, folded shut in one large fold to a
 * tip gap of τ + g, then closed by folds of 2⁻¹⁰ rad (the tip moves about 0.1 a fold, absorbed
 * into dtot) until its tip touches; g spans the last fold's contact angle over the first 3e-5 rad
 * of that fold, where the charge matters. Each fold is checked against foldChain on the same
 * pose (test/support/tree-fold.ts).
 */
import { describe, expect, it } from 'vitest';
import { createChainFolder } from '../../src/index.js';
import { compareTreeFold } from '../support/tree-fold.js';

describe('issue 18: the near-pair cache charges its distance bounds', () => {
  it('issue 18: a hinge shut in one large fold, then closed by small folds: the fold that meets the tips stops where foldChain does, at a bound less the charge since it was taken (gaps 0.2920…0.2950)', () => {
    const tau = 0.2, j = 100, axis = [0, 0, 1];
    for (let g = 0.292; g <= 0.2950001; g += 0.0005) {
      const pts: number[] = [];
      for (let x = -100; x <= 0; x++) pts.push(x, 0, 0);
      for (let y = 1; y <= 3; y++) pts.push(0, y, 0);
      for (let x = -1; x >= -100; x--) pts.push(x, 3, 0);
      const folder = createChainFolder(new Float64Array(pts), { dim: 3, thickness: tau });
      expect(folder.pivot({ joint: j, angle: -0.5, axis })).toBe(true);
      // θ with the tip's height −100 sin θ + 3 cos θ = τ + g (bisection), from the opened pose
      let lo = 0, hi = 0.1;
      for (let k = 0; k < 100; k++) {
        const m = (lo + hi) / 2;
        if (-100 * Math.sin(m) + 3 * Math.cos(m) > tau + g) lo = m;
        else hi = m;
      }
      const where = `hinge, gap ${g.toFixed(4)}`;
      expect(compareTreeFold(folder, { joint: j, angle: lo + 0.5, axis }, `${where}, large fold`)).toBe('free');
      let folds = 0, last = 'free';
      for (; folds < 10 && last === 'free'; folds++) last = compareTreeFold(folder, { joint: j, angle: 2 ** -10, axis }, `${where}, small fold ${folds}`);
      expect(last, where).toBe('same');
      expect(folds, where).toBe(4);
    }
  });
});
