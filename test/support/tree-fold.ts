/**
 * Checks one ChainFolder.fold (the tree-driven fold, src/fold/folder-fold.ts) against the
 * references: the dense exact reference of test/support/fold-oracle.ts (independent of the
 * library's fold code), foldChain on the same pose, and the pose the folder reports.
 *
 * What must hold, each with the seed's `where` in the message:
 * - the pose read back has no contact (brute force, exact rationals) and is the rotation of the
 *   pose before by the returned angle (within 1e-12 of the chain's size; the vertices up to the
 *   joint bit for bit);
 * - never through a contact: the returned angle is at most the reference's first contact;
 * - blocked when and where the reference says: within foldChain's tested bound of its first
 *   contact (2e-6 rad, grazing contacts included; the pair among its first contacts), and the
 *   blocked pose within NEAR of contact (foldChain's stated bound, in distance: a few pose-error
 *   bounds; see NEAR) —
 *   or else a floor block: the pair named was
 *   within 2⁻³⁰ of the chain's size of the thickness before the fold (a pair an earlier blocked
 *   fold left at the thickness plus rounding, which a certification may not move past; foldChain
 *   stops at them too, at a different place, by its smaller rounding bound).
 * Returns how the fold compared with foldChain, for the caller's tallies.
 */
import { expect } from 'vitest';
import { chainContacts, foldChain } from '../../src/index.js';
import type { ChainFolder, FolderFoldResult, PivotMove } from '../../src/index.js';
import { SEGMENT, exactClosestFlat } from '../../src/core/exact.js';
import { bruteContacts } from './chain-oracle.js';
import { referenceFold } from './fold-oracle.js';
import type { Rng } from './rng.js';

/**
 * How a checked fold compared with foldChain: 'same' (blocked by the same pair, the angle within
 * 1e-9 rad), 'close' (the same pair, the angle within the grazing bound), 'tie' (another pair of
 * the reference's first contacts), 'free' (both free), 'floor' (a floor block by either).
 */
export type Agreement = 'same' | 'close' | 'tie' | 'free' | 'floor' | 'reference';

/**
 * How close to contact a blocked pose must be, relative to the chain's size: the fold backs a
 * blocked pair off to just beyond 4·ecert (ecert = 2⁻⁴⁰ of the folder's extent, itself up to a
 * few times the largest coordinate) in doubling steps, so 2⁻³²; foldChain's tests allow 2⁻³⁰.
 */
const NEAR = 2 ** -32;

/** The gap allowed to the reference's first contact, as foldChain's grazing families (test/fold/fold.test.ts). */
const GRAZE = 2e-6;

/** A seeded random move: a uniform joint, an angle of either sign up to a full turn, in 3D a uniform axis. */
export function randomMove(rng: Rng, n: number, dim: number): PivotMove & { axis?: number[] } {
  const m: PivotMove & { axis?: number[] } = { joint: rng.int(0, n - 2), angle: rng.sign() * rng.uniform(0.01, 2 * Math.PI) };
  if (dim === 3) m.axis = rng.unitVector(3);
  return m;
}

/** The move applied to a pose independently of the library: Rodrigues per vertex, about the joint. */
export function rotatePose(P: Float64Array, dim: number, m: PivotMove, angle: number): Float64Array {
  const out = P.slice();
  const n = P.length / dim, o = m.joint * dim;
  const c = Math.cos(angle), s = Math.sin(angle);
  let [kx, ky, kz] = [0, 0, 1];
  if (dim === 3) {
    const a = m.axis as number[];
    const l = Math.hypot(a[0], a[1], a[2]);
    [kx, ky, kz] = [a[0] / l, a[1] / l, a[2] / l];
  }
  for (let v = m.joint + 1; v < n; v++) {
    const x = P[v * dim] - P[o], y = P[v * dim + 1] - P[o + 1], z = dim === 3 ? P[v * dim + 2] - P[o + 2] : 0;
    const d = (kx * x + ky * y + kz * z) * (1 - c);
    out[v * dim] = P[o] + x * c + (ky * z - kz * y) * s + kx * d;
    out[v * dim + 1] = P[o + 1] + y * c + (kz * x - kx * z) * s + ky * d;
    if (dim === 3) out[v * dim + 2] = P[o + 2] + z * c + (kx * y - ky * x) * s + kz * d;
  }
  return out;
}

/** Exact distance of segments i and j of pose P (rounded once). */
export function pairDistance(P: Float64Array, dim: number, i: number, j: number): number {
  const Q = new Float64Array(4 * dim);
  Q.set(P.subarray(i * dim, (i + 2) * dim), 0);
  Q.set(P.subarray(j * dim, (j + 2) * dim), 2 * dim);
  return exactClosestFlat(SEGMENT, SEGMENT, dim, Q, 0).distance;
}

/** The pose's size for relative bounds: the largest |coordinate|, at least 1. */
export function extent(P: Float64Array): number {
  let s = 1;
  for (const x of P) s = Math.max(s, Math.abs(x));
  return s;
}

/** Is pair (i, j) at the floor in pose P: within 2⁻³⁰ of the size of the thickness (left there by an earlier blocked fold)? Pairs at the joint never are. */
function atFloor(P: Float64Array, dim: number, tau: number, i: number, j: number): boolean {
  return j !== i + 1 && pairDistance(P, dim, i, j) - tau <= 2 ** -30 * extent(P);
}

/** Is the result blocked by a pair at the floor in the pose before the fold? */
function floorBlock(before: Float64Array, dim: number, tau: number, r: { blocked: boolean; contact: { i: number; j: number } | null }): boolean {
  return r.blocked && r.contact !== null && atFloor(before, dim, tau, r.contact.i, r.contact.j);
}

/**
 * Do two blocking pairs tie: they share a vertex (a vertex meeting a segment is a contact of
 * both segments at it), or the second is also within NEAR of contact in P?
 */
function tied(P: Float64Array, dim: number, tau: number, size: number, p: { i: number; j: number }, q: { i: number; j: number }): boolean {
  if ((p.i === q.i && Math.abs(p.j - q.j) === 1) || (p.j === q.j && Math.abs(p.i - q.i) === 1)) return true;
  return q.j !== q.i + 1 && pairDistance(P, dim, q.i, q.j) - tau <= NEAR * size;
}

/**
 * The fold against the dense exact reference (pairs at the floor before the fold left out: within
 * its η of the thickness the reference calls a pair in contact, which a pair held there by
 * rounding is not): never through its first contact; when it touches, blocked within 2e-6 rad
 * of it by one of its first pairs, the blocked pose within NEAR of contact; a floor block passes.
 */
function againstReference(before: Float64Array, dim: number, tau: number, m: PivotMove, got: FolderFoldResult, after: Float64Array, size: number, where: string, samples: number): void {
  const full = referenceFold(before, dim, m.joint, m.angle, m.axis as number[] | undefined, tau, samples);
  const contacts = full.contacts.filter((p) => !atFloor(before, dim, tau, p.i, p.j));
  const ref = { contacts, first: contacts.length > 0 ? contacts[0].at : Infinity };
  const floor = floorBlock(before, dim, tau, got);
  const a = Math.abs(got.angle);
  expect(a, `${where}: through the reference's first contact at ${ref.first}`).toBeLessThanOrEqual(ref.first + 1e-12 * (1 + ref.first));
  if (ref.first === Infinity) {
    if (!floor) {
      expect(got.blocked, `${where}: blocked at ${got.angle} by ${JSON.stringify(got.contact)}; the reference finds the path free`).toBe(false);
      expect(got.angle, `${where}: a free fold returns the whole angle`).toBe(m.angle);
    }
  } else if (!floor) {
    expect(got.blocked, `${where}: not blocked; the reference touches at ${ref.first}`).toBe(true);
    expect(ref.first - a, `${where}: gap to the reference's first contact`).toBeLessThanOrEqual(GRAZE);
    const pair = ref.contacts.find((p) => p.i === got.contact!.i && p.j === got.contact!.j);
    expect(pair !== undefined && pair.at <= ref.first + GRAZE, `${where}: pair ${JSON.stringify(got.contact)}; the reference: ${JSON.stringify(ref.contacts.slice(0, 3))}`).toBe(true);
    // foldChain's stated bound, in distance: the pose within a few pose-error bounds of contact
    const { i, j } = got.contact!;
    if (j !== i + 1) expect(pairDistance(after, dim, i, j) - tau, `${where}: the blocked pose is not within NEAR of contact`).toBeLessThanOrEqual(NEAR * size);
  }
}

/** Folds `folder` by `m` and checks the result (see the module notes); `samples` for the reference. */
export function checkTreeFold(folder: ChainFolder, m: PivotMove, where: string, samples = 512): { got: FolderFoldResult; agreement: Agreement } {
  const dim = folder.dim, tau = folder.thickness;
  const before = folder.points();
  const fc = foldChain(before, { dim, joint: m.joint, angle: m.angle, axis: m.axis, thickness: tau });
  const got = folder.fold(m);
  const after = folder.points();
  const size = extent(before);
  // the pose read back
  expect(bruteContacts(after, dim, { thickness: tau }), `${where}: the pose read back is in contact`).toEqual([]);
  expect(Array.from(after.subarray(0, (m.joint + 1) * dim)), `${where}: vertices up to the joint moved`).toEqual(Array.from(before.subarray(0, (m.joint + 1) * dim)));
  const indep = rotatePose(before, dim, m, got.angle);
  let off = 0;
  for (let k = 0; k < after.length; k++) off = Math.max(off, Math.abs(after[k] - indep[k]));
  expect(off, `${where}: the pose is not the rotation by the returned angle`).toBeLessThanOrEqual(1e-12 * size);
  expect(Math.sign(got.angle) === Math.sign(m.angle) || got.angle === 0, `${where}: sign`).toBe(true);
  againstReference(before, dim, tau, m, got, after, size, where, samples);
  // against foldChain (the reference has decided already; this only classifies)
  let agreement: Agreement;
  const d = Math.abs(got.angle - fc.angle), scale = Math.max(1, Math.abs(fc.angle));
  const same = got.blocked && fc.blocked && got.contact!.i === fc.contact!.i && got.contact!.j === fc.contact!.j;
  if (!got.blocked && !fc.blocked) agreement = 'free';
  else if (floorBlock(before, dim, tau, got) || floorBlock(before, dim, tau, fc)) agreement = 'floor';
  else if (same) agreement = d <= 1e-9 * scale ? 'same' : d <= GRAZE * scale ? 'close' : 'reference';
  else if (got.blocked && fc.blocked && d <= GRAZE * scale && tied(after, dim, tau, size, got.contact!, fc.contact!)) agreement = 'tie';
  else agreement = 'reference';
  return { got, agreement };
}

/**
 * Folds `folder` by `m` and compares with foldChain on the same pose (no dense reference: for
 * long sequences and large chains): the pose read back has no contact (chainContacts) and is
 * the rotation by the returned angle (within 2⁻⁴⁰ of the size, the vertices up to the joint bit
 * for bit); a blocked fold names a pair within NEAR of contact in the pose it
 * returns; and the result is foldChain's — the same pair within 1e-9 rad ('same') or 2e-6 rad
 * ('close', grazing), another pair within 2e-6 rad that ties with it (sharing a vertex, or also
 * at contact: 'tie'), both free — or they differ at a floor pair (within 2⁻³⁰ of the size of the
 * thickness before the fold: 'floor'), or else the dense reference decides and the fold must
 * pass it ('reference').
 */
export function compareTreeFold(folder: ChainFolder, m: PivotMove, where: string): Agreement {
  const dim = folder.dim, tau = folder.thickness;
  const before = folder.points();
  const fc = foldChain(before, { dim, joint: m.joint, angle: m.angle, axis: m.axis, thickness: tau });
  const got = folder.fold(m);
  const after = folder.points();
  const size = extent(before);
  expect(chainContacts(after, { dim, thickness: tau }).count, `${where}: the pose read back is in contact`).toBe(0);
  expect(Array.from(after.subarray(0, (m.joint + 1) * dim)), `${where}: vertices up to the joint moved`).toEqual(Array.from(before.subarray(0, (m.joint + 1) * dim)));
  const indep = rotatePose(before, dim, m, got.angle);
  let off = 0;
  for (let k = 0; k < after.length; k++) off = Math.max(off, Math.abs(after[k] - indep[k]));
  expect(off, `${where}: the pose is not the rotation by the returned angle`).toBeLessThanOrEqual(2 ** -40 * size);
  const floor = (r: { blocked: boolean; contact: { i: number; j: number } | null }): boolean => floorBlock(before, dim, tau, r);
  if (got.blocked && got.contact!.j !== got.contact!.i + 1) {
    const gap = (pairDistance(after, dim, got.contact!.i, got.contact!.j) - tau) / size;
    expect(gap <= NEAR || floor(got), `${where}: blocked by ${JSON.stringify(got.contact)}, ${gap} of the size from contact`).toBe(true);
  }
  const d = Math.abs(got.angle - fc.angle), scale = Math.max(1, Math.abs(fc.angle));
  const same = got.blocked && fc.blocked && got.contact!.i === fc.contact!.i && got.contact!.j === fc.contact!.j;
  if (!got.blocked && !fc.blocked) {
    expect(got.angle, `${where}: a free fold returns the whole angle`).toBe(m.angle);
    return 'free';
  }
  if (same && d <= 1e-9 * scale) return 'same';
  if (same && d <= GRAZE * scale) return 'close';
  if (got.blocked && fc.blocked && d <= GRAZE * scale && tied(after, dim, tau, size, got.contact!, fc.contact!)) return 'tie';
  if (floor(got) || floor(fc)) return 'floor';
  // otherwise the dense reference decides (foldChain may stop early at a pair it cannot certify
  // near a grazing contact; the fold must then be right by the reference)
  againstReference(before, dim, tau, m, got, after, size, `${where} (foldChain: ${fc.angle} by ${JSON.stringify(fc.contact)})`, 512);
  return 'reference';
}
