/**
 * Certified advancement on pairs whose distance stays nearly constant along the turn (issue 18:
 * the long foldChain-equivalence run stopped "blocked" far from contact). A fixed segment that
 * ends at the joint keeps its distance to a moving segment whose nearest point to it is the
 * joint; the one-point Lipschitz bound then steps by about the gap over the speed and the loop
 * gave up at its iteration cap. Both foldChain and the tree fold (ChainFolder.fold) must reach
 * the contact: checked against the dense exact reference (test/support/fold-oracle.ts) and by
 * the exact distance of the blocking pair in the returned pose.
 */
import { describe, expect, it } from 'vitest';
import { createChainFolder, foldChain } from '../../src/index.js';
import { SEGMENT, exactClosestFlat } from '../../src/core/exact.js';
import { referenceFold } from '../support/fold-oracle.js';
import { checkTreeFold } from '../support/tree-fold.js';

/** Exact distance of segments i and j of pose P (rounded once). */
function pairDistance(P: Float64Array, dim: number, i: number, j: number): number {
  const Q = new Float64Array(4 * dim);
  Q.set(P.subarray(i * dim, (i + 2) * dim), 0);
  Q.set(P.subarray(j * dim, (j + 2) * dim), 2 * dim);
  return exactClosestFlat(SEGMENT, SEGMENT, dim, Q, 0).distance;
}

function extent(P: Float64Array): number {
  let s = 1;
  for (const x of P) s = Math.max(s, Math.abs(x));
  return s;
}

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
    // 13 ends at the joint 14, and it was the nearest point to segment 15. (On this pose alone,
    // without the 1,944 folds before it, the old loop happened to get through: how far it crawled
    // depended on the search order the earlier folds left. The tangent-line tests below fail
    // without the frame step.)
    const pose = new Float64Array([0,0,0.48058949676517637,-0.19033199364176157,-0.4332098507922941,0.17156782476832688,-0.26146033714651856,0.6235271278940312,-0.19872211479744253,1.241207865430064,-0.7783585381260931,-0.28410692827748985,-1.5958037697417522,-1.2634440707566335,-0.6614517455844986,-0.3949371679155437,-1.4088434376825776,-1.9186439596417515,-0.7011059032679778,-0.8408487743528943,0.3206861074851486,-0.8180593923575656,1.0018980623777192,0.38785951750823544,0.29538999095662405,-1.293193539417546,-0.6407611765851853,-1.6447913086486519,0.3033728992045867,-2.3306536101093904,1.8662200047832151,-2.7198020397209195,0.8071958611775838,-2.2904260362200564,2.601757574104205,-2.7372714107167058,2.004741184548628,-2.8022703337884733,1.1501826838321403,-4.022379777923555,2.2565050512360276,-3.113473829729333,3.126215633690023,-2.629313505204994,2.700379520397437,-2.145141800547763,3.4567999285609328,-2.58410672164763,4.103254558450498,-3.078139564423732,4.302488454329334,-3.332637650547624,4.064053289605792,-4.096366856271773,3.7083470783436128,-4.022135269521226,4.30586342055837,-4.489766657916287,4.550467961240273,-4.885353435229117,5.548576700241096,-3.709360242572985,5.169674997365394,-4.155790381751813]);
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

  it('issue 18: the same in 3D, the fixed segment leaving the plane of the turn (axis z, 1e-9 beyond the thickness)', () => {
    // The fixed segment rises from the joint at (−1, 0, 0.3)·t; the moving line x = r, z = 0 keeps
    // the joint as A's nearest point while cos θ ≥ 0, and touches A some way past a quarter turn.
    const tau = 0.25, r = tau + 1e-9;
    const pose = new Float64Array([-1, 0, 0.3, 0, 0, 0, r, -1, 0, r, 1, 0]);
    bothReachContact(pose, 3, 1, 3, tau, 'tangent line 3D', [0, 0, 1]);
  });
});
