/**
 * Seeded folding problems for the fold tests and benchmark. Every chain is free of contacts at
 * the start (checked with chainContacts; a draw in contact is replaced by the next draw).
 *
 * Families:
 * - `random2d`, `random3d`: short random chains (turns of up to ±125°, lengths 0.3–1.5), a
 *   random joint, thickness 0 or up to 0.15, a random angle of either sign up to a full turn;
 * - `helix`: a 3D helix (8 segments a turn, turns 0.6 apart) folded about an axis across it,
 *   so that its upper turns swing onto the lower ones;
 * - `thin`: thickness 0 in 3D: a moving rod swung through a fixed rod that crosses its plane —
 *   they meet at one instant only, so a check of poses alone (at any step) tunnels through;
 * - `grazing`: the tip of the moving segment travels on a circle that touches a fixed segment
 *   tangentially at exactly the thickness (2D and 3D), reached after a random angle;
 * - `nearMiss`: the same with the fixed segment 1e-7 of the radius farther out: never a contact;
 * - `large`: random chains turned by ±350° whose final pose is free but whose path is not.
 */
import { chainContacts } from '../../src/chain/index.js';
import type { Rng } from './rng.js';

/** One folding problem. */
export interface FoldCase {
  flat: Float64Array;
  dim: number;
  joint: number;
  angle: number;
  axis: number[] | undefined;
  tau: number;
}

function free(flat: Float64Array, dim: number, tau: number): boolean {
  return chainContacts(flat, { dim, thickness: tau }).count === 0;
}

/** A random chain of n segments starting at the origin: turns of up to ±maxTurn radians. */
export function randomChain(rng: Rng, n: number, dim: number, maxTurn = 2.2): Float64Array {
  const P = new Float64Array((n + 1) * dim);
  let u = rng.unitVector(dim);
  for (let i = 1; i <= n; i++) {
    if (i > 1) {
      // turn by a random angle up to maxTurn in a random plane
      const w = rng.unitVector(dim);
      let dot = 0;
      for (let c = 0; c < dim; c++) dot += w[c] * u[c];
      let nn = 0;
      for (let c = 0; c < dim; c++) {
        w[c] -= dot * u[c];
        nn += w[c] * w[c];
      }
      nn = Math.sqrt(nn);
      const a = rng.uniform(-maxTurn, maxTurn);
      for (let c = 0; c < dim; c++) u[c] = Math.cos(a) * u[c] + Math.sin(a) * (w[c] / nn);
      const l = Math.hypot(...u);
      u = u.map((x) => x / l);
    }
    const len = rng.uniform(0.3, 1.5);
    for (let c = 0; c < dim; c++) P[i * dim + c] = P[(i - 1) * dim + c] + len * u[c];
  }
  return P;
}

function randomCase(rng: Rng, dim: number, maxAngle = 2 * Math.PI): FoldCase {
  for (;;) {
    const n = rng.int(3, 14);
    const flat = randomChain(rng, n, dim);
    const tau = rng.chance(0.4) ? 0 : rng.uniform(0, 0.15);
    if (!free(flat, dim, tau)) continue;
    const joint = rng.int(1, n - 1);
    const angle = rng.sign() * rng.uniform(0.05, maxAngle);
    const axis = dim === 3 ? (rng.chance(0.2) ? rng.pick([[1, 0, 0], [0, 1, 0], [0, 0, 1]]) : rng.unitVector(3)) : undefined;
    return { flat, dim, joint, angle, axis, tau };
  }
}

function helixCase(rng: Rng): FoldCase {
  for (;;) {
    const perTurn = 8;
    const turns = rng.int(2, 4);
    const n = perTurn * turns;
    const radius = rng.uniform(0.8, 1.5);
    const pitch = rng.uniform(0.4, 0.9);
    const flat = new Float64Array((n + 1) * 3);
    for (let i = 0; i <= n; i++) {
      const t = (i / perTurn) * 2 * Math.PI;
      flat[3 * i] = radius * Math.cos(t);
      flat[3 * i + 1] = radius * Math.sin(t);
      flat[3 * i + 2] = (pitch * t) / (2 * Math.PI);
    }
    const tau = rng.chance(0.3) ? 0 : rng.uniform(0, 0.2);
    if (!free(flat, 3, tau)) continue;
    const joint = rng.int(perTurn / 2, n - perTurn / 2);
    const a = rng.uniform(0, 2 * Math.PI);
    const axis = [Math.cos(a), Math.sin(a), rng.uniform(-0.3, 0.3)];
    return { flat, dim: 3, joint, angle: rng.sign() * rng.uniform(1, 2 * Math.PI), axis, tau };
  }
}

function thinCase(rng: Rng): FoldCase {
  for (;;) {
    // Fixed: a rod through the plane z ≈ 0 at (a, b), then up and back to the pivot at the origin
    // along the axis; moving: the rod from the origin along +x (length 3) and a short tail.
    const rr = rng.uniform(0.5, 2.5);
    const beta = rng.uniform(0.3, 2 * Math.PI - 0.3);
    const a = rr * Math.cos(beta), b = rr * Math.sin(beta);
    const lo = -rng.uniform(0.2, 2), hi = rng.uniform(0.2, 2);
    const tail = rng.unitVector(3);
    const pts = [
      [a + rng.uniform(-0.2, 0.2), b + rng.uniform(-0.2, 0.2), lo],
      [a, b, hi],
      [0, 0, hi + 1],
      [0, 0, 0],
      [3, 0, rng.uniform(-0.1, 0.1)],
      [3 + 0.5 * tail[0], 0.5 * tail[1], 0.5 * tail[2]],
    ];
    const flat = Float64Array.from(pts.flat());
    if (!free(flat, 3, 0)) continue;
    const tilt = rng.uniform(-0.05, 0.05);
    return { flat, dim: 3, joint: 3, angle: rng.sign() * 2 * Math.PI, axis: [tilt, rng.uniform(-0.05, 0.05), 1], tau: 0 };
  }
}

/**
 * The tip of the single moving segment (pivot → tip, length r) turns towards a fixed segment
 * tangent to the circle of radius r + τ, reached after a turn of Δ. `miss` moves the fixed
 * segment out by that fraction of the radius.
 */
function grazingCase(rng: Rng, dim: number, miss: number): FoldCase {
  for (;;) {
    const r = rng.uniform(0.5, 3);
    const tau = rng.chance(0.4) ? 0 : rng.uniform(0.01, 0.3);
    const rho = (r + tau) * (1 + miss);
    const beta = rng.uniform(-Math.PI, Math.PI);
    const delta = rng.uniform(0.2, 1.5);
    const s = rng.sign();
    const start = beta - s * delta; // the tip starts here and turns towards β
    const t = rng.uniform(0.2, 1);
    const dir = (x: number): number[] => [Math.cos(x), Math.sin(x)];
    const q = dir(beta).map((x) => rho * x);
    const d = [-Math.sin(beta), Math.cos(beta)];
    const A = [q[0] + t * d[0], q[1] + t * d[1]];
    const B = [q[0] - t * d[0], q[1] - t * d[1]];
    const [first, second] = s > 0 ? [A, B] : [B, A];
    // From `second` straight out to radius R3 ≥ 3(r + τ), round the far side in 30° steps or less
    // (chords there stay beyond 2.5(r + τ), out of the tip's reach), then in to the pivot from
    // β + π, which the tip's sweep (less than π from β) never points at.
    const R3 = 3 * Math.hypot(...first);
    const away = Math.atan2(second[1], second[0]);
    const pts: number[][] = [first, second, dir(away).map((x) => R3 * x)];
    let span = beta + Math.PI - away;
    while (span > Math.PI) span -= 2 * Math.PI;
    while (span < -Math.PI) span += 2 * Math.PI;
    for (let k = 1; k <= 6; k++) pts.push(dir(away + (span * k) / 6).map((x) => R3 * x));
    pts.push([0, 0]);
    pts.push(dir(start).map((x) => r * x));
    let flat = Float64Array.from(pts.flat());
    let axis: number[] | undefined;
    if (dim === 3) {
      // the same picture in a random plane: x, y ↦ x·e1 + y·e2, axis e1 × e2
      const e1 = rng.unitVector(3);
      let e2 = rng.unitVector(3);
      const dt = e1[0] * e2[0] + e1[1] * e2[1] + e1[2] * e2[2];
      e2 = e2.map((x, i) => x - dt * e1[i]);
      const l = Math.hypot(...e2);
      e2 = e2.map((x) => x / l);
      const out = new Float64Array((flat.length / 2) * 3);
      for (let k = 0; k < flat.length / 2; k++) {
        for (let c = 0; c < 3; c++) out[3 * k + c] = flat[2 * k] * e1[c] + flat[2 * k + 1] * e2[c];
      }
      flat = out;
      axis = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    }
    if (!free(flat, dim, tau)) continue;
    const n = flat.length / dim;
    return { flat, dim, joint: n - 2, angle: s * (delta + rng.uniform(0.05, 0.5)), axis, tau };
  }
}

/** A seeded case of the named family. */
export function foldCase(family: string, rng: Rng): FoldCase {
  switch (family) {
    case 'random2d':
      return randomCase(rng, 2);
    case 'random3d':
      return randomCase(rng, 3);
    case 'helix':
      return helixCase(rng);
    case 'thin':
      return thinCase(rng);
    case 'grazing2d':
      return grazingCase(rng, 2, 0);
    case 'grazing3d':
      return grazingCase(rng, 3, 0);
    case 'nearMiss':
      return grazingCase(rng, rng.chance(0.5) ? 2 : 3, 1e-7);
    case 'large': {
      const c = randomCase(rng, rng.chance(0.5) ? 2 : 3);
      return { ...c, angle: (c.angle < 0 ? -350 : 350) * (Math.PI / 180) };
    }
    default:
      throw new Error(`unknown fold family ${family}`);
  }
}

/** The fold families, in the order the tests run them. */
export const FOLD_FAMILIES = ['random2d', 'random3d', 'helix', 'thin', 'grazing2d', 'grazing3d', 'nearMiss', 'large'] as const;

/** One stretching problem. */
export interface StretchCase {
  flat: Float64Array;
  dim: number;
  joint: number;
  length: number;
  tau: number;
}

/**
 * Seeded stretches: `random2d`/`random3d` chains (as the folds), a random segment, a new length
 * from 0.05 to 4 times the old (shortening and lengthening); `long`: lengthening by up to 12
 * times, so the moving part is pushed through the rest of the chain and the segment itself runs
 * into it; `coil`: a loose 3D coil (a helix of 5 to 7 segments a turn, radius and pitch
 * jittered) whose middle segment is lengthened or shortened, pushing the upper turns through
 * the lower ones; `curl`: 2D chains turning the same way by 35° to 80° a vertex, so the part
 * after the stretched segment comes round behind it and is pushed into the part before.
 */
export function stretchCase(family: string, rng: Rng): StretchCase {
  if (family === 'coil') return coilCase(rng);
  if (family === 'curl') return curlCase(rng);
  const dim = family === 'random2d' ? 2 : family === 'random3d' ? 3 : rng.chance(0.5) ? 2 : 3;
  for (;;) {
    const n = rng.int(3, 14);
    const flat = randomChain(rng, n, dim);
    const tau = rng.chance(0.4) ? 0 : rng.uniform(0, 0.15);
    if (!free(flat, dim, tau)) continue;
    const joint = rng.int(0, n - 1);
    let l0 = 0;
    for (let c = 0; c < dim; c++) l0 += (flat[(joint + 1) * dim + c] - flat[joint * dim + c]) ** 2;
    l0 = Math.sqrt(l0);
    const factor = family === 'long' ? rng.uniform(1.5, 12) : rng.chance(0.5) ? rng.uniform(0.05, 1) : rng.uniform(1, 4);
    return { flat, dim, joint, length: l0 * factor, tau };
  }
}

function coilCase(rng: Rng): StretchCase {
  for (;;) {
    const perTurn = rng.int(5, 7);
    const n = perTurn * rng.int(2, 3) + 1;
    const pitch = rng.uniform(0.5, 1.2);
    const flat = new Float64Array((n + 1) * 3);
    for (let i = 0; i <= n; i++) {
      const t = (i / perTurn) * 2 * Math.PI;
      const r = rng.uniform(0.9, 1.1);
      flat[3 * i] = r * Math.cos(t);
      flat[3 * i + 1] = r * Math.sin(t);
      flat[3 * i + 2] = (pitch * t) / (2 * Math.PI) + rng.uniform(-0.05, 0.05);
    }
    const tau = rng.chance(0.3) ? 0 : rng.uniform(0, 0.15);
    if (!free(flat, 3, tau)) continue;
    const joint = rng.int(perTurn - 2, n - perTurn + 1);
    let l0 = 0;
    for (let c = 0; c < 3; c++) l0 += (flat[(joint + 1) * 3 + c] - flat[joint * 3 + c]) ** 2;
    l0 = Math.sqrt(l0);
    return { flat, dim: 3, joint, length: l0 * (rng.chance(0.7) ? rng.uniform(1.5, 8) : rng.uniform(0.05, 0.9)), tau };
  }
}

function curlCase(rng: Rng): StretchCase {
  for (;;) {
    const n = rng.int(4, 9);
    const flat = new Float64Array((n + 1) * 2);
    let a = rng.uniform(0, 2 * Math.PI);
    const side = rng.sign();
    for (let i = 1; i <= n; i++) {
      if (i > 1) a += side * rng.uniform(0.6, 1.4);
      const len = rng.uniform(0.4, 1.5);
      flat[2 * i] = flat[2 * i - 2] + len * Math.cos(a);
      flat[2 * i + 1] = flat[2 * i - 1] + len * Math.sin(a);
    }
    const tau = rng.chance(0.4) ? 0 : rng.uniform(0, 0.1);
    if (!free(flat, 2, tau)) continue;
    const joint = rng.int(0, n - 2);
    let l0 = Math.hypot(flat[2 * joint + 2] - flat[2 * joint], flat[2 * joint + 3] - flat[2 * joint + 1]);
    const factor = rng.chance(0.5) ? rng.uniform(1.2, 5) : rng.uniform(0.05, 0.9);
    l0 *= factor;
    return { flat, dim: 2, joint, length: l0, tau };
  }
}
