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
  it('arc merge: sibling nodes whose sectors start at the same angle are covered (the 2,000-fold folder sequences of seeds 1810000 and 1813000 passed through contacts)', () => {
    // Poses met in those sequences (test/fold/folder.test.ts under SKEWLINE_LONG=1): two
    // sibling nodes' sectors began at one double, and their parent's sector took the narrower
    // child's width, so the search missed a pair and the returned pose touched.
    const cases: FoldCase[] = [
      { flat: Float64Array.from([0, 0, -1.030682470650629, 0.7812889382241188, -1.2318667568005959, 0.14119482661332827, -0.5095582069590329, 0.3698695274576163, -0.6557504029963284, -1.3905337113445628, -1.975992525695736, -0.8429425819460147, -2.6427469729404054, -0.605967808532151, -2.0261741133130986, -1.0328999097953306, -3.4947747016512434, -0.9906701045748019, -4.371984189874845, -0.16158926764153758, -3.1649256667132173, -0.15020560343950962, -2.3809113823988697, -0.08165823326757349, -1.1334991100071075, -0.7629338726720248, -1.6653787055273073, 0.46354579505700366, -0.6414118627613496, 0.9999569359478935, 0.05476056909048821, 2.0267199793803514, 0.43898761926050023, 3.0825926256262517, 0.032773617576637326, 4.612914559889385, -0.20259857117443736, 6.085461585703598, 0.9939001569389616, 6.9675998697255785, 0.061786972434091814, 7.22326390212401, -1.0218870020706976, 6.203957036029804, -0.2959666464647033, 6.999406506916792, -1.281967051632756, 5.944943656275763, -1.3417617524477012, 5.4632982229270155, -1.441112838155558, 5.018867747859, -2.292525565076879, 4.318015365497358, -2.4018553228230255, 4.752239269528808, -3.8060465452345147, 4.24568977183732, -3.449527460534889, 2.9770120885789635, -3.602024921950858, 1.5314891740254541, -4.612422137834206, 2.1582672076598706, -4.22215333532704, 1.872366562502696, -3.5908312878883057, 1.5100030639315412, -4.438640506594968, 1.1093732062870925, -3.0270696797785757, 0.8653635409457929, -2.6719733461905477, 0.9558482402940429, -1.94452812663443, 0.39872365740745286, -2.9814755279815204, 0.6796012156805955, -2.1990726309665916, 0.27064980359719204, -1.2638125351570113, 0.6886548965545134]), dim: 2, joint: 24, angle: 6.066182888099315, axis: undefined, tau: 0.013062458868009537 },
      { flat: Float64Array.from([0.8454814439873509, 0, 0, 1.1266202892488903, 0.4699178198493953, 0.3519833191287005, 1.11694948570494, 0.7461301701375518, -0.23739540272929505, 2.173332934742474, -0.754744887961957, 0.18203605370810927, 2.6253351318599534, -0.34332601693667597, 0.4060507653614103, 2.160273388422897, -0.7832268696937997, 0.2879030645513667, 2.071910403164678, -1.389477410735005, 0.06788868094120504, 2.1169761116372574, -1.9507297848364833, 0.3945672984801787, 1.9849343414372282, -1.4361239202356146, 0.018402654058760348, 2.1296074827557714, -1.0534724982909567, -0.4879585175733202, 2.5427989513248326, -0.7636647707920158, -0.8991012617091014, 2.455723523748194, -0.10745986543879182, -1.651646264376077, 2.0726835804321846, 0.30392972487625874, -1.9799648162075916, 1.5459512481281148, 0.5666680647555995, -1.7019797814758215, 1.1171345613498338, 0.37580177020012284, -1.25093613456899, 1.05725380628944, -0.14022235161683883, -0.8586512055336173, 1.421211604062937, -0.6624844481510784, -0.7225222643220464, 1.7045488946187497, -0.9537683788516879, -1.231076800402447, 2.0742835275832423, -0.8668460443267997, -0.7024040532145364, 2.082968107281152, -0.2172153352288323, -0.6616783298422315, 2.03474521673761, 0.2735727474473536, -1.0865967636651448, 1.9886622208127476, 0.8611088831655243, -0.8101339065146613, 2.3331392109831297, 1.0210493964504543, -0.6614623285571685, 2.5242570042053893, 1.4937687901145376, -0.25678414945731776, 2.793030350275213, 2.0234285882559453, -0.5231963326379927, 3.0523031184646197, 2.169092052444047, -1.1022592407472758, 3.11533530376884, 1.8601217019747058, -1.6717487760492706, 3.2603565843418596, 1.267984014792126, -1.899993934313113, 3.41996252017101, 0.6945533259573008, -1.6364464907239653, 3.480770570041847, 0.5445334778113865, -1.005930439457193, 3.4551262736911137, 0.8769263537503214, -0.44681380514770286, 3.3176643382492665, 1.4908305175815455, -0.27954169567596665, 3.1085207273138122, 2.020439038626319, -0.5950220106141675, 3.10311469960268, 1.6804406629910416, -1.150112943796848, 2.6526323330890027, 1.354264432986445, -1.4883861604606654, 2.4267026135525724, 1.108460949785126, -2.057973148669712, 2.671997494829893, 0.7319305573899273, -2.528939548207642, 3.2695595916727718, 0.7116194034191221, -2.271527306632054, 3.6914525527774447, 0.3679377141438216, -1.3409885023965193, 3.16192952034608, 0.5944684601712344, -1.03760220754981, 2.768020863080645, 1.954789755469097, -0.3208307219246451]), dim: 3, joint: 14, angle: -1.1701389908451019, axis: [0.44795961272271745, 0.8939743758107304, -0.01191640730790486], tau: 0.11000881014834173 },
    ];
    for (const [k, c] of cases.entries()) {
      const before = foldStats.fallbacks;
      const o = runCase(c, `arc-merge case ${k}`);
      expect(o.blocked).toBe(true);
      expect(foldStats.fallbacks - before, `arc-merge case ${k}: the search itself finds the contact (no fallback at the pose check)`).toBe(0);
    }
  });

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
