/**
 * bounceBall on closed tables, checked against exact arithmetic: after every step the ball is
 * inside the table and its exact distance to every wall is ≥ r (BigInt rationals from
 * test/support/oracle.ts wherever a float distance is within 10⁻⁶·r of r), its speed is
 * conserved with restitution 1, and its path between hits is straight (each bounce is where
 * the previous flight leads, and reflects the velocity off the reported normal).
 */
import { describe, expect, it } from 'vitest';
import { bounceBall, bounceBallFlat, HIT_STRIDE, segment, SkewlineInputError } from '../../src/index.js';
import { exactPointPrimitiveDistSq, ratCmp, ratFromDouble, ratMul } from '../support/oracle.js';
import { TABLES, inside, start, wallDistance, type Table } from '../support/tables.js';

const LONG = process.env.SKEWLINE_LONG === '1';
const STEPS = LONG ? 100_000 : 1_500;
const SPEEDS = [1, 10, 100, 1000];
const DT = 1 / 60;

/** The exact sign of dist(p, wall) − r. */
function gapSign(t: Table, k: number, x: number, y: number): number {
  const d = wallDistance(t.walls[k], x, y);
  if (Math.abs(d - t.radius) > 1e-6 * t.radius) return Math.sign(d - t.radius);
  const [a, b] = t.walls[k];
  const r = ratFromDouble(t.radius);
  return ratCmp(exactPointPrimitiveDistSq([x, y], segment(a, b)), ratMul(r, r));
}

interface RunStats {
  escapes: number;
  overlaps: number;
  drift: number;
  bent: number;
  hits: number;
  capped: number;
}

function runTable(t: Table, speed: number, steps: number, seed: number): RunStats {
  const s = start(t, speed, seed);
  const ball = { position: s.position as number[], velocity: s.velocity as number[], radius: t.radius };
  const v0 = Math.hypot(...ball.velocity);
  const flat = new Float64Array(t.walls.flat(2));
  const st: RunStats = { escapes: 0, overlaps: 0, drift: 0, bent: 0, hits: 0, capped: 0 };
  for (let i = 0; i < steps; i++) {
    const r = bounceBall(ball, i % 2 === 0 ? flat : t.walls, DT);
    // straight flights: each bounce where the previous flight leads, each velocity the reflection
    let p = ball.position;
    let v = ball.velocity;
    let t0 = 0;
    const scale = t.width + Math.hypot(...v) * DT;
    for (const h of r.hits) {
      const want = [p[0] + (h.time - t0) * v[0], p[1] + (h.time - t0) * v[1]];
      if (Math.hypot(want[0] - h.position[0], want[1] - h.position[1]) > 1e-9 * scale) st.bent++;
      const vn = v[0] * h.normal[0] + v[1] * h.normal[1];
      const refl = vn < 0 ? [v[0] - 2 * vn * h.normal[0], v[1] - 2 * vn * h.normal[1]] : v;
      if (Math.hypot(refl[0] - h.velocity[0], refl[1] - h.velocity[1]) > 1e-9 * v0) st.bent++;
      p = h.position;
      v = h.velocity;
      t0 = h.time;
      // every bounce position is itself outside every wall
      for (let k = 0; k < t.walls.length; k++) if (gapSign(t, k, p[0], p[1]) < 0) st.overlaps++;
    }
    const capped = r.hits.length >= 1024;
    if (capped) st.capped++;
    else {
      const want = [p[0] + (DT - t0) * v[0], p[1] + (DT - t0) * v[1]];
      if (Math.hypot(want[0] - r.position[0], want[1] - r.position[1]) > 1e-9 * scale) st.bent++;
    }
    st.hits += r.hits.length;
    ball.position = r.position;
    ball.velocity = r.velocity;
    const [x, y] = r.position;
    if (!inside(t.outline, x, y)) st.escapes++;
    for (let k = 0; k < t.walls.length; k++) if (gapSign(t, k, x, y) < 0) st.overlaps++;
    st.drift = Math.max(st.drift, Math.abs(Math.hypot(...r.velocity) / v0 - 1));
    if (st.escapes > 0) break;
  }
  return st;
}

describe('bounceBall on closed tables (exact checks)', () => {
  for (const [ti, t] of TABLES.entries()) {
    for (const speed of SPEEDS) {
      const seed = 9700 + 10 * ti + SPEEDS.indexOf(speed);
      it(`${t.name}, ${speed} widths/s, ${STEPS} steps of 1/60 s (seed ${seed}): no escape, no overlap, speed kept, straight flights`, () => {
        const st = runTable(t, speed, STEPS, seed);
        console.log(`bounceBall ${t.name} @ ${speed} widths/s, ${STEPS} steps (seed ${seed}): ${st.hits} hits, escapes ${st.escapes}, overlaps ${st.overlaps}, speed drift ${st.drift.toExponential(2)}, bent flights ${st.bent}, capped steps ${st.capped}`);
        expect(st.escapes, `seed ${seed}`).toBe(0);
        expect(st.overlaps, `seed ${seed}`).toBe(0);
        expect(st.drift, `seed ${seed}`).toBeLessThanOrEqual(1e-9);
        expect(st.bent, `seed ${seed}`).toBe(0);
        expect(st.capped, `seed ${seed}`).toBe(0);
      }, LONG ? 3_600_000 : 120_000);
    }
  }

  it('a face bounce, an end bounce, a corner, restitution and touching at the start', () => {
    // straight down onto a horizontal wall: hits when the centre is r above it, at t = 0.4 s
    const f = bounceBall({ position: [0, 1], velocity: [0, -2], radius: 0.2 }, [[[-1, 0], [1, 0]]], 1);
    expect(f.hits).toHaveLength(1);
    expect(f.hits[0]).toMatchObject({ wall: 0, point: [0, 0], normal: [0, 1] });
    expect(f.hits[0].time).toBeCloseTo(0.4, 14);
    expect(f.velocity).toEqual([0, 2]);
    expect(f.position[1]).toBeCloseTo(1.4, 12); // down 0.6 in 0.4 s (stopping a hair short), up 1.2 in 0.6 s
    // end of a free-standing wall: the ball reflects off the direction from the end
    const g = bounceBall({ position: [-1, 0], velocity: [1, 0], radius: 0.5 }, [[[0, 0], [0, 0]]], 1);
    expect(g.hits[0]).toMatchObject({ wall: 0, point: [0, 0], normal: [-1, 0] });
    expect(g.velocity).toEqual([-1, 0]);
    // restitution 0.5 halves the normal speed
    const h = bounceBall({ position: [0, 1], velocity: [1, -2], radius: 0.2 }, [[[-5, 0], [5, 0]]], 1, { restitution: 0.5 });
    expect(h.hits[0].velocity[0]).toBe(1);
    expect(h.hits[0].velocity[1]).toBeCloseTo(1, 12);
    // touching at the start and moving away: no bounce
    const k = bounceBall({ position: [0, 0.5], velocity: [0, 1], radius: 0.5 }, new Float64Array([-1, 0, 1, 0]), 1);
    expect(k.hits).toHaveLength(0);
    expect(k.position).toEqual([0, 1.5]);
    // into a 90° corner: two bounces, back the way it came
    const c = bounceBall({ position: [0.5, 0.5], velocity: [-1, -1], radius: 0.1 }, [[[0, 0], [2, 0]], [[0, 0], [0, 2]]], 1);
    expect(c.hits).toHaveLength(2);
    expect(c.velocity[0]).toBeCloseTo(1, 12);
    expect(c.velocity[1]).toBeCloseTo(1, 12);
  });

  it('a point ball (radius 0) stays in a box with a free wall, at its speed (2,000 steps)', () => {
    const walls = new Float64Array([-1, -1, 1, -1, 1, -1, 1, 1, 1, 1, -1, 1, -1, 1, -1, -1, 0, -0.5, 0, 0.5]);
    let ball = { position: [0.3, 0.1], velocity: [37, 11.3], radius: 0 };
    let hits = 0;
    for (let i = 0; i < 2000; i++) {
      const r = bounceBall(ball, walls, DT);
      hits += r.hits.length;
      ball = { ...ball, position: r.position, velocity: r.velocity };
      expect(Math.max(Math.abs(r.position[0]), Math.abs(r.position[1]))).toBeLessThanOrEqual(1);
    }
    expect(hits).toBeGreaterThan(1000);
    expect(Math.abs(Math.hypot(ball.velocity[0], ball.velocity[1]) / Math.hypot(37, 11.3) - 1)).toBeLessThan(1e-12);
  });

  it('a ball wedged in a corridor exactly its width stops at the cap, outside the walls', () => {
    const walls: [[number, number], [number, number]][] = [[[-10, -0.5], [10, -0.5]], [[-10, 0.5], [10, 0.5]]];
    const r = bounceBall({ position: [0, 0], velocity: [1e-3, 100], radius: 0.5 }, walls, 1, { maxHits: 10 });
    expect(r.hits.length).toBe(10);
    for (const w of walls) expect(wallDistance(w, r.position[0], r.position[1])).toBeGreaterThanOrEqual(0.5);
  });

  it('bounceBallFlat (no allocation) gives bitwise the same steps as bounceBall (seed 9741)', () => {
    const t = TABLES[1];
    const s = start(t, 300, 9741);
    const walls = new Float64Array(t.walls.flat(2));
    const state = new Float64Array([...s.position, ...s.velocity]);
    const hits = new Float64Array(HIT_STRIDE * 1024);
    let ball = { position: s.position as number[], velocity: s.velocity as number[], radius: t.radius };
    for (let i = 0; i < 300; i++) {
      const r = bounceBall(ball, walls, DT);
      const n = bounceBallFlat(state, walls, t.radius, DT, 1, 1024, hits);
      expect(n).toBe(r.hits.length);
      expect([...state]).toEqual([...r.position, ...r.velocity]);
      r.hits.forEach((h, k) => expect([...hits.subarray(HIT_STRIDE * k, HIT_STRIDE * (k + 1))]).toEqual([h.time, h.wall, ...h.point, ...h.normal, ...h.position, ...h.velocity]));
      ball = { ...ball, position: r.position, velocity: r.velocity };
    }
  });

  it('errors: a ball overlapping a wall at the start names the wall; bad input', () => {
    expect(() => bounceBall({ position: [0, 0.1], velocity: [1, 0], radius: 0.2 }, [[[5, 5], [6, 6]], [[-1, 0], [1, 0]]], 1)).toThrow(/wall 1/);
    expect(() => bounceBall({ position: [0, 0.1], velocity: [1, 0], radius: 0.2 }, [[[-1, 0], [1, 0]]], 1)).toThrow(SkewlineInputError);
    expect(() => bounceBall({ position: [0, 0], velocity: [1, 0], radius: -1 }, [], 1)).toThrow(/radius/);
    expect(() => bounceBall({ position: [0, 0], velocity: [1, 0], radius: 1 }, new Float64Array(3), 1)).toThrow(/4 numbers/);
    expect(() => bounceBall({ position: [0, 0], velocity: [1, 0], radius: 1 }, [], -1)).toThrow(/dt/);
  });
});
