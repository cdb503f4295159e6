/**
 * Tables for the bouncing ball: closed outlines (the ball must never leave them) and free
 * walls inside. Each table has `walls` ([[x0, y0], [x1, y1]] per wall), the closed `outline`
 * (a polygon, for the escape test) and its `width` (the bounding box's larger side).
 */
import { mulberry32 } from './rng.js';

export type Wall = [[number, number], [number, number]];

export interface Table {
  name: string;
  walls: Wall[];
  outline: [number, number][];
  width: number;
  radius: number;
  /** A starting direction (unit) for a seeded rng; defaults to a uniform angle. */
  direction?: (rng: () => number) => [number, number];
}

function closed(pts: [number, number][]): Wall[] {
  return pts.map((p, i) => [p, pts[(i + 1) % pts.length]] as Wall);
}

const R = 0.02;

const gon12: [number, number][] = Array.from({ length: 12 }, (_, i) => [Math.cos((i * Math.PI) / 6), Math.sin((i * Math.PI) / 6)]);

/** A triangle whose bottom edge carries a thin spike reaching into the table (tip angle about 1.8°). */
const spike: [number, number][] = [[-1, -1], [-0.02, -1], [0, 0.3], [0.02, -1], [1, -1], [0, 1.2]];

const corridorHalf = R * (1 + 1e-6); // barely wider than the ball: 2r(1 + 10⁻⁶)
const corridor: [number, number][] = [[-1, -corridorHalf], [1, -corridorHalf], [1, corridorHalf], [-1, corridorHalf]];

const box: [number, number][] = [[-1, -1], [1, -1], [1, 1], [-1, 1]];

/** The tables of the tests and the benchmark. */
export const TABLES: Table[] = [
  { name: '12-gon', walls: closed(gon12), outline: gon12, width: 2, radius: R },
  { name: 'triangle with a spike', walls: closed(spike), outline: spike, width: 2.2, radius: R },
  {
    name: 'narrow corridor',
    walls: closed(corridor),
    outline: corridor,
    width: 2,
    radius: R,
    // along the corridor, a tiny slant so it also bounces off the long sides
    direction: (rng) => {
      const a = (rng() * 2 - 1) * 2e-8;
      const s = rng() < 0.5 ? -1 : 1;
      return [s * Math.cos(a), Math.sin(a)];
    },
  },
  {
    name: 'box with free-standing walls',
    walls: [
      ...closed(box),
      [[-0.5, 0.3], [0.4, 0.3]], // a bar, hit on both faces and both ends
      [[-0.6, -0.7], [0.1, -0.1]], // a diagonal
      [[0.6, -0.4], [0.6, -0.4]], // a post (zero length)
      [[0.5, 0.6], [0.5, 0.9]], // a short stub
    ],
    outline: box,
    width: 2,
    radius: R,
  },
];

/** Whether (x, y) is inside the polygon (crossing number). */
export function inside(outline: [number, number][], x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    const [xi, yi] = outline[i];
    const [xj, yj] = outline[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

/** Float distance from a point to a wall (for choosing starts well clear of the walls). */
export function wallDistance(w: Wall, x: number, y: number): number {
  const [[ax, ay], [bx, by]] = w;
  const ex = bx - ax, ey = by - ay;
  const ee = ex * ex + ey * ey;
  const s = ee > 0 ? Math.max(0, Math.min(1, ((x - ax) * ex + (y - ay) * ey) / ee)) : 0;
  return Math.hypot(x - ax - s * ex, y - ay - s * ey);
}

/** A seeded start: a centre inside the outline at least 1.5 r from every wall, and a velocity of `speed` widths per second. */
export function start(t: Table, speed: number, seed: number): { position: [number, number]; velocity: [number, number] } {
  const rng = mulberry32(seed);
  const xs = t.outline.map((p) => p[0]);
  const ys = t.outline.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  for (;;) {
    const corridor = t.name === 'narrow corridor';
    const x = corridor ? 0.9 * (2 * rng() - 1) : x0 + (x1 - x0) * rng();
    const y = corridor ? 0 : y0 + (y1 - y0) * rng();
    if (!inside(t.outline, x, y) || (!corridor && t.walls.some((w) => wallDistance(w, x, y) < 1.5 * t.radius))) continue;
    const [dx, dy] = t.direction ? t.direction(rng) : ((a) => [Math.cos(a), Math.sin(a)] as [number, number])(rng() * 2 * Math.PI);
    return { position: [x, y], velocity: [dx * speed * t.width, dy * speed * t.width] };
  }
}
