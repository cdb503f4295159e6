/**
 * Certified advancement on pairs whose distance stays nearly constant along the turn (issue 18:
 * the long foldChain-equivalence run stopped "blocked" far from contact). A fixed segment that
 * ends at the joint keeps its distance to a moving segment whose nearest point to it is the
 * joint; the one-point Lipschitz bound then steps by about the gap over the speed and the loop
 * gave up at its iteration cap. Both foldChain and the tree fold (ChainFolder.fold) must reach
 * the contact: checked against the dense exact reference (test/support/fold-oracle.ts) and by
 * the exact distance of the blocking pair in the returned pose. Seeds are in the test names;
 * SKEWLINE_LONG=1 runs 300 random hairpins per dimension instead of 12.
 */
import { describe, expect, it } from 'vitest';
import { createChainFolder, foldChain } from '../../src/index.js';
import { referenceFold } from '../support/fold-oracle.js';
import { checkTreeFold, extent, pairDistance } from '../support/tree-fold.js';
import { makeRng } from '../support/rng.js';

const LONG = process.env.SKEWLINE_LONG === '1';

/** The stop the tests ask of a blocked fold: the blocking pair within 2⁻³² of the size of contact. */
const NEAR = 2 ** -32;

/**
 * foldChain and the tree fold on one pose and move: both blocked by a pair of the reference's
 * first contacts, within 2e-6 rad of it and never past it, and the blocking pair within NEAR of
 * the thickness in the pose each returns.
 */
function bothReachContact(pose: Float64Array, dim: number, joint: number, angle: number, tau: number, where: string, axis?: number[]): void {
  const size = extent(pose);
  const ref = referenceFold(pose, dim, joint, angle, axis, tau, 512);
  expect(ref.first, `${where}: the reference finds a contact`).toBeLessThan(Math.abs(angle));
  const fc = foldChain(pose, { dim, joint, angle, axis, thickness: tau });
  expect(fc.blocked, `${where}: foldChain blocked`).toBe(true);
  const a = Math.abs(fc.angle);
  expect(a, `${where}: foldChain past the reference's first contact`).toBeLessThanOrEqual(ref.first + 1e-12 * (1 + ref.first));
  expect(ref.first - a, `${where}: foldChain's gap to the first contact, in radians`).toBeLessThanOrEqual(2e-6);
  const { i, j } = fc.contact!;
  expect(ref.contacts.some((p) => p.i === i && p.j === j && p.at <= ref.first + 2e-6), `${where}: foldChain's pair ${i}, ${j}`).toBe(true);
  expect((pairDistance(fc.points, dim, i, j) - tau) / size, `${where}: foldChain's stop, from contact (of the size)`).toBeLessThanOrEqual(NEAR);
  // the tree fold: the reference's checks (checkTreeFold), and its stop in distance
  const folder = createChainFolder(pose, { dim, thickness: tau });
  const { got } = checkTreeFold(folder, { joint, angle, ...(axis ? { axis } : {}) }, `${where} (tree fold)`);
  expect(got.blocked, `${where}: tree fold blocked`).toBe(true);
  const c = got.contact!;
  expect((pairDistance(folder.points(), dim, c.i, c.j) - tau) / size, `${where}: the tree fold's stop, from contact (of the size)`).toBeLessThanOrEqual(NEAR);
  expect(Math.abs(got.angle - fc.angle), `${where}: the tree fold and foldChain stop at the same angle`).toBeLessThanOrEqual(2e-6);
}

describe('certified advancement at a nearly constant distance (issue 18)', () => {
  it('issue 18: hairpin2d seed 1815000 fold 1944 (the pose replayed): foldChain and the tree fold stop within 2⁻³² of the size of contact', () => {
    // The pose before fold 1944 of folder.test.ts's LONG hairpin2d sequence (seed 1815000).
    // Pair (13, 15) stayed 2.94e-8 beyond the thickness for a whole radian of the turn: segment
    // 13 ends at the joint 14, and it was the nearest point to segment 15.
    const pose = new Float64Array([0,0,0.48058949676517637,-0.19033199364176157,1.104730672396387,-0.6946650101836689,0.13970368910751682,-0.43251444057223537,1.0096643800403018,-1.5060221060579257,-0.15820937807004637,-0.3664456547965108,-0.5660950608089959,-0.4079986388710211,-0.585632182441524,-0.8311578916127067,-2.3581003014252677,-1.2487375944837689,-1.771097139537205,-0.5437520853885186,-1.234378755776796,-0.7766757603291163,-1.6452744015088936,0.1350066230951961,-3.4229647241808294,0.541097932853487,-3.870338346204921,0.7975771058289958,-2.468773014806625,2.0793572396199647,-2.015212427213449,1.188131795136985,-2.3195904387906334,2.140683119435284,-1.5160518955400677,0.5617671647661328,-1.8669469804102685,1.702092577615655,-0.952107742588646,1.2501075699824618,-1.1654981571595076,1.6175016005252831,-1.7472231333651052,2.4891967446700156,-1.7957340392798735,1.8462307059948375,-2.1216168545559477,3.671387350076193,-1.2589767536224945,2.047203692372793,-0.6510773695477439,2.9013848118490957,0.7525742822339173,4.322484461929935,1.3096989267559311,3.561028048368623,1.6908466458383913,3.1270287004014836,0.691873333870925,3.172331258463419,2.1094200491788957,2.8749470211307133,2.6882169807447496,2.7862876639297713]);
    bothReachContact(pose, 2, 14, 4.647792356329488, 0.1607702803289032, 'hairpin2d seed 1815000 fold 1944');
  });

  for (const delta of [1e-8, 1e-10]) {
    it(`issue 18: a segment tangent to a circle about the joint ${delta} beyond the thickness keeps its distance for a quarter turn; foldChain and the tree fold go on to the contact`, () => {
      // 2D: the fixed segment runs from (−1, 0) to the joint (0, 0); the moving part goes down to
      // (r, −1) and up the line x = r (r = τ + δ), whose nearest point to the joint is (r, 0).
      // Turning counter-clockwise, the joint stays the fixed segment's nearest point for a
      // quarter turn; after it, the line swings onto the fixed segment.
      const tau = 0.25, r = tau + delta;
      const pose = new Float64Array([-1, 0, 0, 0, r, -1, r, 1]);
      bothReachContact(pose, 2, 1, 3, tau, `tangent line, delta ${delta}`);
    });
  }

  for (const dim of [2, 3]) {
    const seed = 1_870_000 + dim;
    const cases = LONG ? 300 : 12;
    it(`issue 18: random hairpins at the joint (${dim}D, seed ${seed}, ${cases} cases): foldChain and the tree fold against the dense exact reference`, () => {
      // A fixed segment leaving the joint c away from a moving segment whose line passes
      // τ + δ from c (δ from 1e-10 to 1e-3): the distance is constant until the turn swings the
      // moving segment towards the fixed one; a random angle of either sign (3D: a random axis).
      const rng = makeRng(seed);
      for (let t = 0; t < cases; t++) {
        const where = `${dim}D seed ${seed} case ${t}`;
        const c = Array.from({ length: dim }, () => rng.uniform(-2, 2));
        const d = rng.unitVector(dim);
        let m = rng.unitVector(dim);
        const dm = m.reduce((acc, x, k) => acc + x * d[k], 0);
        m = m.map((x, k) => x - dm * d[k]);
        const lm = Math.hypot(...m);
        m = m.map((x) => x / lm);
        const tau = rng.uniform(0.05, 0.3), delta = rng.logUniform(1e-10, 1e-3);
        const p = c.map((x, k) => x + (tau + delta) * m[k]);
        const a = rng.uniform(0.3, 1.5), b = rng.uniform(0.3, 1.5);
        let w = rng.unitVector(dim);
        const wm = w.reduce((acc, x, k) => acc + x * m[k], 0);
        if (wm > 0) w = w.map((x, k) => x - 2 * wm * m[k]); // away from the moving segment
        const l = rng.uniform(0.3, 1.5);
        const pose = new Float64Array([...c.map((x, k) => x + l * w[k]), ...c, ...p.map((x, k) => x - a * d[k]), ...p.map((x, k) => x + b * d[k])]);
        const angle = rng.sign() * rng.uniform(0.5, 2 * Math.PI);
        const axis = dim === 3 ? rng.unitVector(3) : undefined;
        const size = extent(pose);
        const ref = referenceFold(pose, dim, 1, angle, axis, tau, 512);
        const fc = foldChain(pose, { dim, joint: 1, angle, axis, thickness: tau });
        expect(Math.abs(fc.angle), `${where}: foldChain past the reference's first contact`).toBeLessThanOrEqual(ref.first + 1e-12 * (1 + ref.first));
        if (ref.first === Infinity) expect(fc.blocked, `${where}: foldChain blocked on a free path`).toBe(false);
        else {
          expect(fc.blocked, `${where}: foldChain not blocked`).toBe(true);
          expect(ref.first - Math.abs(fc.angle), `${where}: foldChain's gap to the first contact, in radians`).toBeLessThanOrEqual(2e-6);
          const { i, j } = fc.contact!;
          if (j !== i + 1) expect((pairDistance(fc.points, dim, i, j) - tau) / size, `${where}: foldChain's stop, from contact`).toBeLessThanOrEqual(NEAR);
        }
        checkTreeFold(createChainFolder(pose, { dim, thickness: tau }), { joint: 1, angle, ...(axis ? { axis } : {}) }, `${where} (tree fold)`);
      }
    });
  }

  it('issue 18: the same in 3D, the fixed segment leaving the plane of the turn (axis z, 1e-9 beyond the thickness)', () => {
    // The fixed segment rises from the joint at (−1, 0, 0.3)·t; the moving line x = r, z = 0 keeps
    // the joint as A's nearest point while cos θ ≥ 0, and touches A some way past a quarter turn.
    const tau = 0.25, r = tau + 1e-9;
    const pose = new Float64Array([-1, 0, 0.3, 0, 0, 0, r, -1, 0, r, 1, 0]);
    bothReachContact(pose, 3, 1, 3, tau, 'tangent line 3D', [0, 0, 1]);
  });
});
