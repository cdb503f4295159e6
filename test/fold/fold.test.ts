/**
 * foldChain against the dense exact reference (test/support/fold-oracle.ts), on seeded families
 * (test/support/fold-families.ts). For every case:
 * - the returned pose has no contact (chainContacts on the returned points, exact);
 * - never through: the returned angle is not beyond the reference's first contact;
 * - blocked exactly when the reference finds a contact on the path, and then within the stated
 *   bound of it: 1e-9 rad for contacts approached at a nonzero rate, 2e-6 rad for exactly
 *   tangential (grazing) contacts, whose angle doubles cannot resolve better than √(rounding);
 *   and in distance, the reported pair at the returned pose is within 2⁻³⁰ of the chain's size
 *   of the thickness;
 * - the reported pair is one the reference finds touching at the first contact.
 * Seeds are in the test names and in every failure message. SKEWLINE_LONG=1 runs ten times more.
 */
import { describe, expect, it } from 'vitest';
import { chainContacts, foldChain, stretchChain, SkewlineInputError } from '../../src/index.js';
import { foldStats } from '../../src/fold/fold.js';
import { SEGMENT, exactClosestFlat } from '../../src/core/exact.js';
import { makeRng } from '../support/rng.js';
import { foldCase, type FoldCase } from '../support/fold-families.js';
import { referenceFold } from '../support/fold-oracle.js';

const LONG = process.env.SKEWLINE_LONG === '1';
const GRAZING = new Set(['grazing2d', 'grazing3d']);

interface Outcome {
  gap: number;
  blocked: boolean;
  distGap: number;
}

function runCase(c: FoldCase, where: string): Outcome {
  const input = c.flat.slice();
  const r = foldChain(c.flat, { dim: c.dim, joint: c.joint, angle: c.angle, axis: c.axis, thickness: c.tau });
  expect(c.flat, `${where}: input modified`).toEqual(input);
  expect(r.points).toBeInstanceOf(Float64Array);
  expect(chainContacts(r.points, { dim: c.dim, thickness: c.tau }).count, `${where}: returned pose in contact`).toBe(0);
  expect(Math.sign(r.angle) === Math.sign(c.angle) || r.angle === 0, `${where}: sign`).toBe(true);
  const ref = referenceFold(c.flat, c.dim, c.joint, c.angle, c.axis, c.tau);
  const got = Math.abs(r.angle);
  if (ref.first === Infinity) {
    expect(r.blocked, `${where}: blocked at ${r.angle} by ${JSON.stringify(r.contact)} but the reference finds the path free`).toBe(false);
    expect(r.angle).toBe(c.angle);
    return { gap: 0, blocked: false, distGap: 0 };
  }
  expect(r.blocked, `${where}: not blocked, the reference touches at ${ref.first} (${JSON.stringify(ref.contacts[0])})`).toBe(true);
  expect(got, `${where}: through the first contact at ${ref.first}`).toBeLessThanOrEqual(ref.first + 1e-12 * (1 + ref.first));
  const gap = ref.first - got;
  const tol = GRAZING.has(where.split(' ')[0]) ? 2e-6 : 1e-9;
  expect(gap, `${where}: gap to the reference's first contact`).toBeLessThanOrEqual(tol);
  const pair = ref.contacts.find((p) => p.i === r.contact!.i && p.j === r.contact!.j);
  expect(pair !== undefined && pair.at <= ref.first + tol, `${where}: pair ${JSON.stringify(r.contact)}; the reference: ${JSON.stringify(ref.contacts.slice(0, 3))}`).toBe(true);
  // distance of the reported pair at the returned pose (exact, rounded once) minus the thickness
  const { i, j } = r.contact!;
  const Q = new Float64Array(4 * c.dim);
  Q.set(r.points.subarray(i * c.dim, (i + 2) * c.dim), 0);
  Q.set(r.points.subarray(j * c.dim, (j + 2) * c.dim), 2 * c.dim);
  const distGap = i + 1 === j ? 0 : (exactClosestFlat(SEGMENT, SEGMENT, c.dim, Q, 0).distance - c.tau) / ref.size;
  expect(distGap, `${where}: the returned pose is not close to contact`).toBeLessThanOrEqual(2 ** -30);
  return { gap, blocked: true, distGap };
}

const FAMILIES: [string, number, number][] = [
  ['random2d', 40, 910_000],
  ['random3d', 40, 920_000],
  ['helix', 16, 930_000],
  ['thin', 30, 940_000],
  ['grazing2d', 20, 950_000],
  ['grazing3d', 20, 960_000],
  ['nearMiss', 20, 970_000],
  ['large', 40, 980_000],
];

describe('foldChain against the dense exact reference', () => {
  for (const [family, count, base] of FAMILIES) {
    it(`${family}, seeds ${base}…${base + (LONG ? 10 : 1) * count - 1}`, () => {
      let worst = 0, worstDist = 0, blocked = 0;
      const n = (LONG ? 10 : 1) * count;
      for (let k = 0; k < n; k++) {
        const seed = base + k;
        const o = runCase(foldCase(family, makeRng(seed)), `${family} seed ${seed}`);
        worst = Math.max(worst, o.gap);
        worstDist = Math.max(worstDist, o.distGap);
        if (o.blocked) blocked++;
      }
      console.log(`${family}: ${n} folds, ${blocked} blocked; worst angle gap to the reference ${worst.toExponential(2)} rad, worst distance gap ${worstDist.toExponential(2)}·size`);
      if (family === 'nearMiss') expect(blocked).toBe(0);
      if (family.startsWith('grazing') || family === 'thin') expect(blocked).toBe(n);
    });
  }

  it('large angles: folds of ±350° whose final pose is free but whose path is not stop at the first contact (seeds 980000…)', () => {
    let tunnels = 0;
    for (let k = 0; k < (LONG ? 400 : 60); k++) {
      const seed = 980_000 + k;
      const c = foldCase('large', makeRng(seed));
      const ref = referenceFold(c.flat, c.dim, c.joint, c.angle, c.axis, c.tau);
      const end = foldChain(c.flat, { dim: c.dim, joint: c.joint, angle: c.angle, axis: c.axis, thickness: c.tau });
      if (ref.first === Infinity) continue;
      // the original's check: the final pose only
      const naive = rotateNaive(c, c.angle);
      if (chainContacts(naive, { dim: c.dim, thickness: c.tau }).count === 0) {
        tunnels++;
        expect(end.blocked, `seed ${seed}`).toBe(true);
        expect(Math.abs(end.angle), `seed ${seed}`).toBeLessThanOrEqual(ref.first + 1e-12);
      }
    }
    expect(tunnels).toBeGreaterThan(3);
  });

  it('made no exact-check fallback (the certification never let a pose in contact through)', () => {
    expect(foldStats.fallbacks).toBe(0);
  });
});

/** The pose at `angle` by plain rotation (for the naive final-pose check). */
function rotateNaive(c: FoldCase, angle: number): Float64Array {
  const out = c.flat.slice();
  const d = c.dim;
  const o = c.flat.subarray(c.joint * d, c.joint * d + d);
  const k = c.axis ? c.axis.map((x) => x / Math.hypot(...c.axis!)) : [0, 0, 1];
  const cs = Math.cos(angle), sn = Math.sin(angle);
  for (let v = c.joint + 1; v < c.flat.length / d; v++) {
    const x = c.flat[v * d] - o[0], y = c.flat[v * d + 1] - o[1], z = d === 3 ? c.flat[v * d + 2] - o[2] : 0;
    const kv = k[0] * x + k[1] * y + k[2] * z;
    const r = [
      x * cs + (k[1] * z - k[2] * y) * sn + k[0] * kv * (1 - cs),
      y * cs + (k[2] * x - k[0] * z) * sn + k[1] * kv * (1 - cs),
      z * cs + (k[0] * y - k[1] * x) * sn + k[2] * kv * (1 - cs),
    ];
    for (let a = 0; a < d; a++) out[v * d + a] = o[a] + r[a];
  }
  return out;
}

describe('foldChain: named cases', () => {
  it('a 350° fold in 2D stops where the moving segment folds back onto the one before the joint', () => {
    // (0.5, 1) → (0, 0) → (2, 0): the moving segment meets the fixed one's direction at atan2(1, 0.5)
    const r = foldChain([[0.5, 1], [0, 0], [2, 0]], { joint: 1, angle: (350 * Math.PI) / 180 });
    expect(r.blocked).toBe(true);
    expect(r.contact).toEqual({ i: 0, j: 1 });
    expect(Math.atan2(1, 0.5) - r.angle).toBeGreaterThanOrEqual(0);
    expect(Math.atan2(1, 0.5) - r.angle).toBeLessThan(1e-10);
    expect(Array.isArray(r.points) && Array.isArray(r.points[0])).toBe(true);
    // the original's 5° steps with a final-pose check only would have been content at 350°
    const end = rotateNaive({ flat: Float64Array.from([0.5, 1, 0, 0, 2, 0]), dim: 2, joint: 1, angle: 0, axis: undefined, tau: 0 }, (350 * Math.PI) / 180);
    expect(chainContacts(end, { dim: 2 }).count).toBe(0);
  });

  it('the tip stops at a bar in its way: the first contact is atan2(0.5, 1), either way round', () => {
    const chain = [[-1, 0.5], [1, 0.5], [0, 0], [2, 0]];
    const ccw = foldChain(chain, { joint: 2, angle: 6 });
    expect(ccw.contact).toEqual({ i: 0, j: 2 });
    expect(Math.atan2(0.5, 1) - ccw.angle).toBeGreaterThanOrEqual(0);
    expect(Math.atan2(0.5, 1) - ccw.angle).toBeLessThan(1e-10);
    const cw = foldChain(chain, { joint: 2, angle: -6 });
    expect(-cw.angle - (Math.PI + Math.atan2(0.5, 1))).toBeLessThanOrEqual(0);
    expect(-cw.angle - (Math.PI + Math.atan2(0.5, 1))).toBeGreaterThan(-1e-10);
  });

  it('thin rods (thickness 0) in 3D meet for one instant only: 5° pose checks tunnel, the fold stops', () => {
    // the moving rod along +x turns about z through the fixed vertical rod at (1, 1)
    const chain = [[1, 1, -1], [1, 1, 1], [0, 0, 2], [0, 0, 0], [2, 0, 0]];
    const flat = Float64Array.from(chain.flat());
    let tunnelled = false;
    for (let deg = 5; deg <= 90; deg += 5) {
      const pose = rotateNaive({ flat, dim: 3, joint: 3, angle: 0, axis: [0, 0, 1], tau: 0 }, (deg * Math.PI) / 180);
      if (chainContacts(pose, { dim: 3 }).count > 0) tunnelled = true;
    }
    expect(tunnelled).toBe(false); // no pose of the original's steps shows the crossing
    const r = foldChain(chain, { joint: 3, angle: Math.PI / 2, axis: [0, 0, 1] });
    expect(r.blocked).toBe(true);
    expect(r.contact).toEqual({ i: 0, j: 3 });
    expect(Math.PI / 4 - r.angle).toBeGreaterThanOrEqual(0);
    expect(Math.PI / 4 - r.angle).toBeLessThan(1e-10);
  });

  it('several turns: a fold free for a whole turn returns the whole angle', () => {
    // (in 2D every full turn meets the fold-back at the joint; in 3D it need not)
    const r = foldChain([[0, 0, 5], [0, 0, 0], [1, 0, 0], [1, 1, 0]], { joint: 1, angle: 5 * Math.PI, axis: [0, 0, 1] });
    expect(r).toMatchObject({ angle: 5 * Math.PI, blocked: false, contact: null });
    expect(r.points[2][0]).toBeCloseTo(-1, 12);
  });

  it('repeated vertices at the joint: the joint is the repeated vertex, zero-length segments never touch', () => {
    const r = foldChain([[0, 1], [0, 0], [0, 0], [1, 0], [1, 0], [2, 0]], { joint: 2, angle: 3 });
    expect(r.blocked).toBe(true);
    // at π/2 segment 2 folds back onto 0 (segment 1 has zero length) and segment 4 reaches (0, 1)
    expect([{ i: 0, j: 2 }, { i: 0, j: 4 }]).toContainEqual(r.contact);
    expect(Math.PI / 2 - r.angle).toBeLessThan(1e-10);
    expect(r.points[4]).toEqual(r.points[3]);
  });

  it('a pair inside the moving part one ulp beyond the thickness: rounded rotations never return it in contact', () => {
    // segments 1 and 3 are exactly 1 apart; the thickness is the double just below 1
    const chain = [[0, 5], [0, 0], [2, 0], [2, -1], [1, -1]];
    const tau = 1 - 2 ** -53;
    const rng = makeRng(4711);
    let stopped = 0;
    for (let k = 0; k < 300; k++) {
      const angle = rng.uniform(-1, 1);
      const r = foldChain(chain, { joint: 1, angle, thickness: tau });
      expect(chainContacts(r.points, { dim: 2, thickness: tau }).count, `angle ${angle} (seed 4711, draw ${k})`).toBe(0);
      if (r.blocked) {
        stopped++;
        expect(r.contact).toEqual({ i: 1, j: 3 });
      } else expect(r.angle).toBe(angle);
    }
    console.log(`near pair one ulp beyond the thickness: ${stopped} of 300 rotations would have rounded it into contact and backed off`);
  });

  it('flat 3D input with an {x, y, z} axis gives a Float64Array; the axis\'s length does not matter', () => {
    const flat = Float64Array.from([-1, 0.5, 0, 1, 0.5, 0, 0, 0, 0, 2, 0, 0]);
    const a = foldChain(flat, { dim: 3, joint: 2, angle: 6, axis: { x: 0, y: 0, z: 1 } });
    const b = foldChain(flat, { dim: 3, joint: 2, angle: 6, axis: [0, 0, 1e-200] });
    expect(a.points).toBeInstanceOf(Float64Array);
    expect(a.contact).toEqual({ i: 0, j: 2 });
    expect(b.angle).toBe(a.angle);
    expect(Math.atan2(0.5, 1) - a.angle).toBeLessThan(1e-10);
  });

  it('angle 0, or the joint at the first vertex: nothing can touch (the last vertex is an error: see issue 17 below)', () => {
    const chain = [[0, 0], [1, 0], [1, 1]];
    expect(foldChain(chain, { joint: 1, angle: 0 })).toMatchObject({ angle: 0, blocked: false });
    expect(foldChain(chain, { joint: 0, angle: 7 })).toMatchObject({ angle: 7, blocked: false });
  });

  it('a chain in contact at the start is an error naming the pair', () => {
    expect(() => foldChain([[0, 0], [2, 0], [1, 1], [1, -1]], { joint: 1, angle: 1 })).toThrow(/segments 0 and 2/);
    expect(() => foldChain([[0, 0], [2, 0], [2, 1], [0, 0.1]], { joint: 2, angle: 1, thickness: 0.2 })).toThrow(SkewlineInputError);
  });

  it('rejects bad input with a SkewlineInputError naming it', () => {
    const c2 = [[0, 0], [1, 0], [1, 1]];
    const c3 = [[0, 0, 0], [1, 0, 0], [1, 1, 0]];
    const bad: [() => unknown, RegExp][] = [
      [() => foldChain(c2, { joint: 3, angle: 1 }), /joint/],
      [() => foldChain(c2, { joint: 0.5, angle: 1 }), /joint/],
      [() => foldChain(c2, { joint: 1, angle: NaN }), /angle/],
      [() => foldChain(c2, { joint: 1, angle: 1, axis: [0, 0, 1] }), /axis is for 3D/],
      [() => foldChain(c3, { joint: 1, angle: 1 }), /needs options.axis/],
      [() => foldChain(c3, { joint: 1, angle: 1, axis: [0, 0, 0] }), /nonzero/],
      [() => foldChain(c2, { joint: 1, angle: 1, thickness: -1 }), /thickness/],
      [() => foldChain([[0, 0, 0, 0], [1, 0, 0, 0]], { joint: 0, angle: 1 }), /2D and 3D/],
      [() => foldChain([[0, 0], [1, 0], [1, 1], [0, 0]], { joint: 1, angle: 1 }), /ring/],
      [() => foldChain([0, 0, 1, 0], { joint: 1, angle: 1 }), /dim/],
    ];
    for (const [f, msg] of bad) {
      expect(f).toThrow(SkewlineInputError);
      expect(f).toThrow(msg);
    }
  });
});

describe('a blocked fold leaves a pose the next fold can start from', () => {
  it('folding back halfway from a stop retraces the certified path and reaches the whole angle (random, helix, thin, large; seeds 990000…)', () => {
    let checked = 0;
    for (const family of ['random2d', 'random3d', 'helix', 'thin', 'large']) {
      for (let k = 0; k < 30; k++) {
        const seed = 990_000 + k;
        const c = foldCase(family, makeRng(seed));
        const first = foldChain(c.flat, { dim: c.dim, joint: c.joint, angle: c.angle, axis: c.axis, thickness: c.tau });
        if (!first.blocked || first.angle === 0 || first.contact === null || Math.abs(first.contact.i - first.contact.j) === 1) continue;
        const back = foldChain(first.points, { dim: c.dim, joint: c.joint, angle: -first.angle / 2, axis: c.axis, thickness: c.tau });
        expect(back.blocked, `${family} seed ${seed}: stuck at ${back.angle} after a stop at ${first.angle}`).toBe(false);
        expect(back.angle).toBe(-first.angle / 2);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe('foldChain: options and edge cases (issues 17 and 19)', () => {
  it('issue 17 item 7: an unknown option (closed: true) is an error naming it', () => {
    const pts = [[0, 0], [1, 0], [2, 0]];
    expect(() => foldChain(pts, { joint: 1, angle: 1, closed: true } as never)).toThrow(/unknown option "closed"/);
    expect(() => stretchChain(pts, { joint: 1, length: 2, closed: true } as never)).toThrow(/unknown option "closed"/);
  });

  it('issue 17 item 7: joint equal to the last vertex is an error, not a silent success', () => {
    const pts = [[0, 0], [1, 0], [2, 0]];
    expect(() => foldChain(pts, { joint: 2, angle: 1 })).toThrow(/last vertex/);
    expect(() => foldChain(pts, { joint: 2, angle: 1 })).toThrow(SkewlineInputError);
    expect(foldChain(pts, { joint: 1, angle: Math.PI / 2 }).points[2]).toEqual([1, 1]);
  });

  it('issue 17 item 7: a contact on one side of the joint is ignored (the fold cannot change it); across the joint it is an error', () => {
    // segments 0 and 2 cross (before the joint at vertex 4); the tail beyond vertex 4 is free
    const before = [[0, 0], [2, 0], [2, 1], [1, -1], [1, -2], [1, -3], [1, -4]];
    expect(chainContacts(before, { thickness: 0 }).count).toBeGreaterThan(0);
    const r = foldChain(before, { joint: 4, angle: 0.5 });
    expect(r.blocked).toBe(false);
    expect(r.angle).toBe(0.5);
    // the same crossing beyond the joint (joint 0 moves everything; joint 1: segments 1… move)
    const beyond = [[0, -3], [0, -2], [0, 0], [2, 0], [2, 1], [1, -1]];
    expect(foldChain(beyond, { joint: 1, angle: 0.3 }).blocked).toBe(false);
    // across: segment 0 (before the joint at 2) crosses segment 3 (beyond it)
    const across = [[0, 0], [2, 0], [2, 1], [1, 1], [1, -1]];
    expect(() => foldChain(across, { joint: 2, angle: 0.1 })).toThrow(/already in contact.*segments 0 and 3/);
    const st = stretchChain(before, { joint: 4, length: 1.5 });
    expect(st.blocked).toBe(false);
  });

  it('issue 19: foldChain on a chain spanning ±1.7e308 folds (no "thickness … Infinity"); the result is the scaled fold', () => {
    const huge = [[-1.7e308, 0], [0, 0], [1.7e308, 1e300]];
    const r = foldChain(huge, { joint: 1, angle: 1 });
    const small = foldChain([[-1.7, 0], [0, 0], [1.7, 1e-8]], { joint: 1, angle: 1 });
    expect(r.blocked).toBe(false);
    for (const p of r.points) for (const x of p) expect(Number.isFinite(x)).toBe(true);
    expect(r.points[2][0] / 1e308).toBeCloseTo(small.points[2][0], 12);
    expect(r.points[2][1] / 1e308).toBeCloseTo(small.points[2][1], 12);
    // a turn that would carry a vertex past the largest double is a clear error
    expect(() => foldChain([[0, 0], [1.7e308, 1.7e308]], { joint: 0, angle: Math.PI / 4 })).toThrow(/range of doubles/);
    const s = stretchChain(huge, { joint: 0, length: 1e308 });
    expect(s.length).toBe(1e308);
    expect(s.points[1][0]).toBe(-1.7e308 + 1e308);
  });
});
