/**
 * The parameter square of Boes' "Segment Distance": f(s, t) = |a(s) − b(t)|² drawn as a heat
 * map, with the parameter domain (the square [0, 1]² for two segments) lit and the rest dimmed,
 * the unconstrained minimum of the quadratic (the lines' answer, or the whole valley when the
 * lines are parallel) and the constrained minimum (the answer) marked.
 */
import { fitCanvas, fmt } from './common.js';

/** What to draw. a(s) − b(t) = w + s·u − t·v. */
export interface SquareInput {
  w: ArrayLike<number>;
  u: ArrayLike<number>;
  v: ArrayLike<number>;
  /** Parameter domain of a and b (±Infinity for rays and lines; [0, 0] for a point). */
  domA: readonly [number, number];
  domB: readonly [number, number];
  /** The constrained minimum (closestPoints' s, t). */
  answer: { s: number; t: number };
  /** The locus of nearest pairs when it is not unique: its two ends in (s, t). */
  locus: readonly [readonly [number, number], readonly [number, number]] | null;
  /** The unconstrained minimum (the infinite lines' answer), if any. */
  lines: { s: number; t: number } | null;
  /** When the unconstrained minimum is not unique: two points of the valley line in (s, t). */
  valley: readonly [readonly [number, number], readonly [number, number]] | null;
  /** The stable answer, if shown. */
  stable: { s: number; t: number } | null;
  /** The pair under the mouse, if any. */
  hover: { s: number; t: number } | null;
}

/** The window drawn: parameter ranges and the canvas size in CSS pixels (for mapping the mouse). */
export interface SquareView {
  s0: number;
  s1: number;
  t0: number;
  t1: number;
  size: number;
}

// viridis, six stops
const STOPS = [
  [68, 1, 84], [65, 68, 135], [42, 120, 142], [34, 168, 132], [122, 209, 81], [253, 231, 37],
];

function color(x: number, out: number[]): void {
  const y = Math.min(Math.max(x, 0), 1) * (STOPS.length - 1);
  const i = Math.min(Math.floor(y), STOPS.length - 2);
  const f = y - i;
  for (let k = 0; k < 3; k++) out[k] = STOPS[i][k] + f * (STOPS[i + 1][k] - STOPS[i][k]);
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** A range [lo, hi] covering [0, 1] and the given values (finite ones within reach), padded, capped. */
function range(values: number[]): [number, number] {
  let lo = 0, hi = 1;
  for (const x of values) {
    if (!Number.isFinite(x)) continue;
    lo = Math.min(lo, Math.max(x, -3));
    hi = Math.max(hi, Math.min(x, 4));
  }
  const pad = 0.22 * (hi - lo);
  return [lo - pad, hi + pad];
}

/** Draws the square into `canvas` (its width sets the size; it is made square). */
export function drawSquare(canvas: HTMLCanvasElement, q: SquareInput): SquareView {
  const ctx = fitCanvas(canvas, 1);
  const size = canvas.clientWidth;
  const W = canvas.width, H = canvas.height;
  const ss = [q.answer.s, q.lines?.s ?? NaN, q.stable?.s ?? NaN];
  const tt = [q.answer.t, q.lines?.t ?? NaN, q.stable?.t ?? NaN];
  const [s0, s1] = range(ss);
  const [t0, t1] = range(tt);
  const view: SquareView = { s0, s1, t0, t1, size };
  const A = dot(q.u, q.u), C = dot(q.v, q.v), B = dot(q.u, q.v), D = dot(q.w, q.u), E = dot(q.w, q.v), F = dot(q.w, q.w);

  const g = new Float32Array(W * H);
  let gmin = Infinity, gmax = 0;
  for (let y = 0; y < H; y++) {
    const t = t1 - ((y + 0.5) / H) * (t1 - t0);
    for (let x = 0; x < W; x++) {
      const s = s0 + ((x + 0.5) / W) * (s1 - s0);
      const f = A * s * s + C * t * t - 2 * B * s * t + 2 * D * s - 2 * E * t + F;
      const d = Math.sqrt(Math.max(f, 0));
      g[y * W + x] = d;
      if (d < gmin) gmin = d;
      if (d > gmax) gmax = d;
    }
  }
  const span = gmax - gmin || 1;
  const step = niceStep(span / 9);
  const img = ctx.createImageData(W, H);
  const px = img.data;
  const rgb = [0, 0, 0];
  for (let y = 0; y < H; y++) {
    const t = t1 - ((y + 0.5) / H) * (t1 - t0);
    const inB = t >= q.domB[0] - (t1 - t0) / H / 2 && t <= q.domB[1] + (t1 - t0) / H / 2;
    for (let x = 0; x < W; x++) {
      const k = y * W + x;
      const s = s0 + ((x + 0.5) / W) * (s1 - s0);
      const inA = s >= q.domA[0] - (s1 - s0) / W / 2 && s <= q.domA[1] + (s1 - s0) / W / 2;
      color(Math.pow(Math.max(0, (g[k] - gmin) / span), 0.6), rgb); // float32 g may dip below gmin
      const band = Math.floor(g[k] / step);
      const edge = (x + 1 < W && Math.floor(g[k + 1] / step) !== band) || (y + 1 < H && Math.floor(g[k + W] / step) !== band);
      const dim = inA && inB ? 1 : 0.38;
      const shade = edge ? 0.62 : 1;
      px[4 * k] = rgb[0] * dim * shade;
      px[4 * k + 1] = rgb[1] * dim * shade;
      px[4 * k + 2] = rgb[2] * dim * shade;
      px[4 * k + 3] = 255;
    }
  }
  ctx.putImageData(img, 0, 0);

  const X = (s: number): number => ((s - s0) / (s1 - s0)) * size;
  const Y = (t: number): number => ((t1 - t) / (t1 - t0)) * size;
  // the domain's border (finite sides only)
  ctx.strokeStyle = 'rgba(255,255,255,0.85)';
  ctx.lineWidth = 1.5;
  const clampS = (s: number): number => Math.min(Math.max(s, s0 - 1), s1 + 1);
  const clampT = (t: number): number => Math.min(Math.max(t, t0 - 1), t1 + 1);
  const [a0, a1] = [clampS(q.domA[0]), clampS(q.domA[1])];
  const [b0, b1] = [clampT(q.domB[0]), clampT(q.domB[1])];
  ctx.beginPath();
  if (Number.isFinite(q.domA[0])) { ctx.moveTo(X(a0), Y(b0)); ctx.lineTo(X(a0), Y(b1)); }
  if (Number.isFinite(q.domA[1])) { ctx.moveTo(X(a1), Y(b0)); ctx.lineTo(X(a1), Y(b1)); }
  if (Number.isFinite(q.domB[0])) { ctx.moveTo(X(a0), Y(b0)); ctx.lineTo(X(a1), Y(b0)); }
  if (Number.isFinite(q.domB[1])) { ctx.moveTo(X(a0), Y(b1)); ctx.lineTo(X(a1), Y(b1)); }
  ctx.stroke();
  // ticks
  ctx.fillStyle = 'rgba(230,233,238,0.9)';
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'bottom';
  ctx.fillText('0', X(0) + 2, size - 3);
  ctx.fillText('1', X(1) + 2, size - 3);
  ctx.fillText('s (on a) →', X(0.5) - 24, size - 3);
  ctx.textBaseline = 'top';
  ctx.fillText('0', 3, Y(0) + 1);
  ctx.fillText('1', 3, Y(1) + 1);
  ctx.save();
  ctx.translate(3, Y(0.5) + 28);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText('t (on b) →', 0, 0);
  ctx.restore();

  if (q.valley !== null) {
    const [[sa, ta], [sb, tb]] = q.valley;
    ctx.save();
    ctx.setLineDash([5, 4]);
    ctx.strokeStyle = 'rgba(255,255,255,0.9)';
    ctx.lineWidth = 1.5;
    line(ctx, X(sa), Y(ta), X(sb), Y(tb), size);
    ctx.restore();
  }
  if (q.locus !== null) {
    ctx.strokeStyle = '#ffcc4d';
    ctx.lineWidth = 4;
    ctx.beginPath();
    ctx.moveTo(X(q.locus[0][0]), Y(q.locus[0][1]));
    ctx.lineTo(X(q.locus[1][0]), Y(q.locus[1][1]));
    ctx.stroke();
  }
  const mark = (s: number, t: number, draw: (x: number, y: number) => void): void => {
    if (!Number.isFinite(s) || !Number.isFinite(t)) return;
    const x = X(s), y = Y(t);
    const cx = Math.min(Math.max(x, 6), size - 6), cy = Math.min(Math.max(y, 6), size - 6);
    if (cx !== x || cy !== y) {
      // off the window: an arrow at the edge, pointing at it
      const ang = Math.atan2(y - cy, x - cx);
      ctx.save();
      ctx.translate(cx, cy);
      ctx.rotate(ang);
      ctx.fillStyle = '#fff';
      ctx.beginPath();
      ctx.moveTo(6, 0);
      ctx.lineTo(-5, -5);
      ctx.lineTo(-5, 5);
      ctx.fill();
      ctx.restore();
      ctx.fillStyle = '#fff';
      ctx.textBaseline = 'middle';
      const txt = `(${fmt(s, 3)}, ${fmt(t, 3)})`;
      ctx.fillText(txt, Math.min(Math.max(cx - 20, 2), size - ctx.measureText(txt).width - 2), cy + (cy > size / 2 ? -12 : 12));
      return;
    }
    draw(x, y);
  };
  if (q.lines !== null) {
    mark(q.lines.s, q.lines.t, (x, y) => {
      ctx.strokeStyle = '#fff';
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(x, y, 6, 0, 2 * Math.PI);
      ctx.stroke();
    });
  }
  if (q.stable !== null) {
    mark(q.stable.s, q.stable.t, (x, y) => {
      ctx.fillStyle = '#53d18b';
      ctx.strokeStyle = '#000';
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(x, y - 7);
      ctx.lineTo(x + 7, y);
      ctx.lineTo(x, y + 7);
      ctx.lineTo(x - 7, y);
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
    });
  }
  mark(q.answer.s, q.answer.t, (x, y) => {
    ctx.fillStyle = '#ff7a45';
    ctx.strokeStyle = '#fff';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(x, y, 5, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
  });
  if (q.hover !== null) {
    ctx.strokeStyle = 'rgba(255,255,255,0.8)';
    ctx.lineWidth = 1;
    const x = X(q.hover.s), y = Y(q.hover.t);
    ctx.beginPath();
    ctx.moveTo(x - 6, y);
    ctx.lineTo(x + 6, y);
    ctx.moveTo(x, y - 6);
    ctx.lineTo(x, y + 6);
    ctx.stroke();
  }
  return view;
}

/** The infinite line through two canvas points, clipped to the canvas (roughly: extended far). */
function line(ctx: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number, size: number): void {
  const dx = x1 - x0, dy = y1 - y0;
  const n = Math.hypot(dx, dy);
  if (!(n > 0)) return;
  const k = (4 * size) / n;
  ctx.beginPath();
  ctx.moveTo(x0 - k * dx, y0 - k * dy);
  ctx.lineTo(x0 + k * dx, y0 + k * dy);
  ctx.stroke();
}

/** 1, 2 or 5 times a power of ten, near x. */
function niceStep(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  const m = x / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/** Parameters (s, t) under a mouse position in CSS pixels. */
export function squareAt(view: SquareView, x: number, y: number): { s: number; t: number } {
  return { s: view.s0 + (x / view.size) * (view.s1 - view.s0), t: view.t1 - (y / view.size) * (view.t1 - view.t0) };
}
