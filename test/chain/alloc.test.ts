/**
 * issue 16 (zero allocation on hot paths): the chain search's exact pair test, contactWithin
 * (src/chain/narrow.ts), allocates nothing for a pair within the thickness. It used to return the
 * pair's distance, a double that the compiler boxes when the call is not inlined (16 bytes a
 * contact: 4.75 MB a call of the 1e6-segment 3D chain search); it now returns a flag and writes the
 * distance to out[2]. Young-generation collections in a child process with a 1 MiB semi-space
 * (test/support/young-gc.ts), against an empty loop's plus a slack of 2 for warm-up.
 */
import { describe, expect, it } from 'vitest';
import { youngGcs } from '../support/young-gc.js';

const SLACK = 2;

describe('issue 16: zero allocation in the chain search', () => {
  it('issue 16: contactWithin allocates nothing for pairs within the thickness, 2D and 3D, in doubles and near τ', () => {
    const n = 4e6;
    const empty = youngGcs({ body: 'acc += i & 7;', iterations: n });
    const calls = youngGcs({
      imports: { contactWithin: 'src/chain/narrow.ts' },
      setup: `
        const out = new Float64Array(3);
        // Pairs clear of τ = 0.2, decided by the kernel in doubles (the exact fallback near τ
        // allocates BigInts by design, as does the faithful kernel for 3D segments that meet): 3D pairs
        // 0.1 and about 0.04 apart, 2D pairs 0.15 apart and crossing.
        const P = [
          [new Float64Array([0, 0, 0, 1, 0, 0, 0.5, -1, 0.1, 0.5, 1, 0.1]), 3],
          [new Float64Array([0, 0, 0, 1, 1, 1, 1, 0, 0.05, 0, 1, 1.05]), 3],
          [new Float64Array([0, 0, 3, 0, 1, 0.15, 1, 5, 0, 0, 0, 0]), 2],
          [new Float64Array([0, 0, 3, 1, 0, 3, 1, 0.05, 0, 0, 0, 0]), 2],
        ];
        for (const [Q, d] of P) if (!contactWithin(Q, d, 0.2, out)) throw new Error('case not within τ');`,
      body: 'const c = P[i & 3]; acc += contactWithin(c[0], c[1], 0.2, out) ? out[2] : 1;',
      iterations: n,
    });
    expect(calls, `young GCs: contactWithin ${calls}, empty loop ${empty}`).toBeLessThanOrEqual(empty + SLACK);
  });
});
