/**
 * Kicker: the 2D tutorial's table ("Intersection of Line Segments"), made better. A table you
 * edit (drag wall ends, add free-standing walls), a ball launched by dragging, stepped once per
 * displayed frame by the library's `bounceBall` at up to a thousand table widths per second,
 * with a fading trail; and, beside it on request, the tutorial's naive ball, which escapes.
 *
 * URL: `?speed=W` (table widths per second), `preset=kicker|gon|spike|corridor`, `naive=1`,
 * `aim=degrees`, `launch=1` (launch at once).
 */
import { closestPoints, point, segment } from '../../src/index.js';
import { $, fitCanvas, fmt, isTyping, status } from './common.js';
import { bounceBall, type BounceResult } from './ball.js';

type P2 = [number, number];
type Wall = [P2, P2];

// ---- tables (x from 0 to 1: speeds are in table widths per second) ----------------------------
const R = 0.015;

function polygon(pts: P2[]): Wall[] {
  return pts.map((p, k) => [[...p] as P2, [...pts[(k + 1) % pts.length]] as P2]);
}

const PRESETS: Record<string, () => { walls: Wall[]; ball: P2 }> = {
  kicker: () => ({
    walls: [
      ...polygon([[0.06, 0], [0.94, 0], [1, 0.06], [1, 0.54], [0.94, 0.6], [0.06, 0.6], [0, 0.54], [0, 0.06]]),
      [[0.3, 0.16], [0.46, 0.3]],
      [[0.66, 0.44], [0.74, 0.22]],
      [[0.82, 0.12], [0.82, 0.12]],
    ],
    ball: [0.18, 0.42],
  }),
  gon: () => ({
    walls: polygon(Array.from({ length: 12 }, (_, k): P2 => [0.5 + 0.5 * Math.cos((k * Math.PI) / 6), 0.5 + 0.5 * Math.sin((k * Math.PI) / 6)])),
    ball: [0.5, 0.3],
  }),
  spike: () => ({
    walls: polygon([[0, 0], [0.48, 0], [0.5, 0.5], [0.52, 0], [1, 0], [0.5, 0.85]]),
    ball: [0.3, 0.15],
  }),
  corridor: () => ({
    walls: [...polygon([[0, 0], [1, 0], [1, 0.09], [0, 0.09]]), [[0.1, 0.045], [0.9, 0.045]]],
    ball: [0.05, 0.045],
  }),
};

// ---- state ------------------------------------------------------------------------------------
let walls: Wall[] = [];
let flat = new Float64Array(0);
let pos: P2 = [0.2, 0.4];
let vel: P2 = [0, 0];
let aim = (30 * Math.PI) / 180;
let paused = false;
let steps = 0;
let bounces = 0;
let stepMs = 0;
let selectedWall = -1;
const trail: { x: number; y: number; t: number }[] = [];
const TRAIL_S = 1.2;

interface Naive {
  x: number;
  y: number;
  vx: number;
  vy: number;
  last: number;
  escaped: number;
  steps: number;
}
let naive: Naive | null = null;
const naiveTrail: { x: number; y: number; t: number }[] = [];

const stat = $('status');
const canvas = $<HTMLCanvasElement>('table');
const view = $('view');
const speedIn = $<HTMLInputElement>('speed');
const restIn = $<HTMLInputElement>('restitution');
const naiveBox = $<HTMLInputElement>('naive');
const pauseBtn = $<HTMLButtonElement>('pause');
const addBtn = $<HTMLButtonElement>('add-wall');

/** Table widths per second from the slider: 0.1 … 1000, logarithmic. */
const speedOf = (v: number): number => 0.1 * 10 ** (4 * v);
const sliderOf = (speed: number): number => Math.log10(speed / 0.1) / 4;
const speed = (): number => speedOf(Number(speedIn.value));

function setWalls(w: Wall[]): void {
  walls = w;
  flat = new Float64Array(4 * walls.length);
  walls.forEach((wl, k) => flat.set([wl[0][0], wl[0][1], wl[1][0], wl[1][1]], 4 * k));
  $('walls').textContent = JSON.stringify(walls);
}

/** Exact-enough distance from a point to a wall (the library's closestPoints). */
function wallDistance(p: P2, w: Wall): number {
  return closestPoints(point(p), segment(w[0], w[1])).distance;
}

const clearOf = (p: P2, ws: Wall[]): boolean => ws.every((w) => wallDistance(p, w) >= R);

function loadPreset(name: string): void {
  const make = PRESETS[name] ?? PRESETS.kicker;
  const t = make();
  setWalls(t.walls);
  pos = [...t.ball];
  vel = [0, 0];
  trail.length = 0;
  naive = null;
  naiveTrail.length = 0;
  selectedWall = -1;
  steps = bounces = 0;
  fitView();
}

// ---- stepping ---------------------------------------------------------------------------------
function launch(): void {
  const s = speed();
  vel = [s * Math.cos(aim), s * Math.sin(aim)];
  paused = false;
  pauseBtn.setAttribute('aria-pressed', 'false');
  trail.length = 0;
  if (naiveBox.checked) spawnNaive();
  status(stat, `Launched at ${fmt(s, 4)} table widths per second.`, 'ok');
}

function spawnNaive(): void {
  const s = speed();
  const esc = naive?.escaped ?? 0;
  const v: P2 = vel[0] === 0 && vel[1] === 0 ? [s * Math.cos(aim), s * Math.sin(aim)] : vel;
  naive = { x: pos[0], y: pos[1], vx: v[0], vy: v[1], last: -1, escaped: esc, steps: 0 };
  naiveTrail.length = 0;
}

function stepMain(dt: number, now: number): void {
  if (vel[0] === 0 && vel[1] === 0) return;
  const t0 = performance.now();
  let r: BounceResult;
  try {
    r = bounceBall({ position: pos, velocity: vel, radius: R }, flat, dt, { restitution: Number(restIn.value) });
  } catch (e) {
    status(stat, (e as Error).message, 'bad');
    vel = [0, 0];
    return;
  }
  stepMs = performance.now() - t0;
  for (const h of r.hits) trail.push({ x: h.position[0], y: h.position[1], t: now - (dt - h.time) * 1000 });
  pos = [r.position[0], r.position[1]];
  vel = [r.velocity[0], r.velocity[1]];
  trail.push({ x: pos[0], y: pos[1], t: now });
  steps++;
  bounces += r.hits.length;
}

const f = Math.fround;

/**
 * The tutorial's step, in single precision: move by v·dt, then test the segment from the centre
 * along the velocity, one radius long, against each wall but the last one hit
 * (`segmentIntersection2D`: det = 0 means no hit), and reflect the velocity off the first hit's
 * normal.
 */
function stepNaive(n: Naive, dt: number, now: number): void {
  n.x = f(n.x + f(n.vx * dt));
  n.y = f(n.y + f(n.vy * dt));
  n.steps++;
  const sp = f(Math.hypot(n.vx, n.vy));
  // recomputeDirectionalVector: normalised, times −radius (the tutorial's screen-coordinate sign)
  const c = f(f(-n.vx / sp) * R), d = f(f(-n.vy / sp) * R);
  for (let i = 0; i < walls.length; i++) {
    if (i === n.last) continue;
    const [[x0, y0], [x1, y1]] = walls[i];
    const a = f(x1 - x0), b = f(y1 - y0);
    const det = f(f(a * d) - f(b * c));
    if (det === 0) continue;
    const px = f(n.x - x0), py = f(n.y - y0);
    const t1 = f(f(f(d * px) - f(c * py)) / det);
    if (t1 < 0 || t1 > 1) continue;
    const t2 = f(f(f(-b * px) + f(a * py)) / det);
    if (t2 < 0 || t2 > 1) continue;
    const len = f(Math.hypot(a, b));
    const nx = f(-b / len), ny = f(a / len);
    const dot = f(f(n.vx * nx) + f(n.vy * ny));
    n.vx = f(n.vx - f(2 * f(dot * nx)));
    n.vy = f(n.vy - f(2 * f(dot * ny)));
    n.last = i;
    break;
  }
  naiveTrail.push({ x: n.x, y: n.y, t: now });
  const [bx0, by0, bx1, by1] = bounds();
  const m = 0.5 * (bx1 - bx0);
  if (n.x < bx0 - m || n.x > bx1 + m || n.y < by0 - m || n.y > by1 + m) {
    n.escaped++;
    spawnNaive();
  }
}

// ---- drawing ----------------------------------------------------------------------------------
let sc = 1, ox = 0, oy = 0;
function bounds(): [number, number, number, number] {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const w of walls) {
    for (const p of w) {
      x0 = Math.min(x0, p[0]);
      y0 = Math.min(y0, p[1]);
      x1 = Math.max(x1, p[0]);
      y1 = Math.max(y1, p[1]);
    }
  }
  if (!Number.isFinite(x0)) return [0, 0, 1, 1];
  return [x0, y0, x1, y1];
}
/** Table → CSS pixels: fit the walls' box with a margin, y up. */
function fitView(): void {
  const w = canvas.clientWidth, h = canvas.clientHeight;
  const [x0, y0, x1, y1] = bounds();
  const bw = Math.max(x1 - x0, 1e-6), bh = Math.max(y1 - y0, 1e-6);
  sc = Math.min((w * 0.9) / bw, (h * 0.86) / bh);
  ox = w / 2 - sc * (x0 + bw / 2);
  oy = h / 2 + sc * (y0 + bh / 2);
}
const X = (x: number): number => ox + sc * x;
const Y = (y: number): number => oy - sc * y;
const toTable = (px: number, py: number): P2 => [(px - ox) / sc, (oy - py) / sc];

let aiming: P2 | null = null;
let preview: Wall | null = null;

/**
 * A fading trail: segments grouped into a few age buckets, one stroke per bucket (at a thousand
 * table widths per second there are thousands of bounces a second; one stroke each would not
 * keep up). Older than TRAIL_S seconds, or beyond the newest MAX_TRAIL points, is dropped.
 */
const MAX_TRAIL = 6000;
const BUCKETS = 8;
function drawTrail(ctx: CanvasRenderingContext2D, pts: { x: number; y: number; t: number }[], now: number, rgb: string, width: number): void {
  let drop = 0;
  while (drop < pts.length && now - pts[drop].t > TRAIL_S * 1000) drop++;
  drop = Math.max(drop, pts.length - MAX_TRAIL);
  if (drop > 0) pts.splice(0, drop);
  if (pts.length < 2) return;
  ctx.lineWidth = width;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  const t0 = now - TRAIL_S * 1000;
  let k = 1;
  for (let b = 0; b < BUCKETS && k < pts.length; b++) {
    const end = t0 + ((b + 1) / BUCKETS) * TRAIL_S * 1000;
    ctx.strokeStyle = `rgba(${rgb},${(0.85 * (b + 1)) / BUCKETS})`;
    ctx.beginPath();
    ctx.moveTo(X(pts[k - 1].x), Y(pts[k - 1].y));
    for (; k < pts.length && (pts[k].t <= end || b === BUCKETS - 1); k++) ctx.lineTo(X(pts[k].x), Y(pts[k].y));
    ctx.stroke();
  }
}

function draw(now: number): void {
  const ctx = fitCanvas(canvas, null);
  const w = canvas.clientWidth, h = canvas.clientHeight;
  ctx.fillStyle = '#14171c';
  ctx.fillRect(0, 0, w, h);
  // felt
  ctx.fillStyle = '#17301f';
  const outer = walls.filter((_, k) => k < outerCount);
  if (outer.length > 2) {
    ctx.beginPath();
    ctx.moveTo(X(outer[0][0][0]), Y(outer[0][0][1]));
    for (const wl of outer) ctx.lineTo(X(wl[1][0]), Y(wl[1][1]));
    ctx.closePath();
    ctx.fill();
  }
  drawTrail(ctx, naiveTrail, now, '255,92,108', 2);
  drawTrail(ctx, trail, now, '255,204,77', 2);
  // walls, as the ball sees them: a thick band, with round ends
  walls.forEach((wl, k) => {
    const color = k === selectedWall ? '#c9a6ff' : '#c8d0da';
    const width = Math.max(3, 2 * R * sc * 0.35);
    if (wl[0][0] === wl[1][0] && wl[0][1] === wl[1][1]) {
      // A post (a zero-length wall): a canvas draws no caps on a zero-length line, so draw the
      // post itself, a disc wider than a wall with a dark ring, plainly not just a handle.
      const r = Math.max(9, 1.5 * width);
      ctx.fillStyle = color;
      ctx.strokeStyle = '#14171c';
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(X(wl[0][0]), Y(wl[0][1]), r, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
      return;
    }
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.lineCap = 'round';
    ctx.beginPath();
    ctx.moveTo(X(wl[0][0]), Y(wl[0][1]));
    ctx.lineTo(X(wl[1][0]), Y(wl[1][1]));
    ctx.stroke();
  });
  ctx.fillStyle = '#4aa8ff';
  for (const wl of walls) {
    for (const p of wl) {
      ctx.beginPath();
      ctx.arc(X(p[0]), Y(p[1]), 4, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  if (preview !== null) {
    ctx.strokeStyle = 'rgba(201,166,255,0.9)';
    ctx.lineWidth = 3;
    ctx.setLineDash([6, 4]);
    ctx.beginPath();
    ctx.moveTo(X(preview[0][0]), Y(preview[0][1]));
    ctx.lineTo(X(preview[1][0]), Y(preview[1][1]));
    ctx.stroke();
    ctx.setLineDash([]);
  }
  // the naive ball
  if (naive !== null) {
    ctx.fillStyle = '#ff5c6c';
    ctx.beginPath();
    ctx.arc(X(naive.x), Y(naive.y), Math.max(3, R * sc), 0, 2 * Math.PI);
    ctx.fill();
  }
  // the ball
  ctx.fillStyle = '#ffcc4d';
  ctx.strokeStyle = '#fff';
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.arc(X(pos[0]), Y(pos[1]), Math.max(3, R * sc), 0, 2 * Math.PI);
  ctx.fill();
  ctx.stroke();
  // the aim arrow while aiming, or while the ball rests
  if (aiming !== null || (vel[0] === 0 && vel[1] === 0)) {
    const L = 60;
    const ax = X(pos[0]) + L * Math.cos(aim), ay = Y(pos[1]) - L * Math.sin(aim);
    ctx.strokeStyle = '#ffcc4d';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(X(pos[0]), Y(pos[1]));
    ctx.lineTo(ax, ay);
    ctx.lineTo(ax - 10 * Math.cos(aim - 0.4), ay + 10 * Math.sin(aim - 0.4));
    ctx.moveTo(ax, ay);
    ctx.lineTo(ax - 10 * Math.cos(aim + 0.4), ay + 10 * Math.sin(aim + 0.4));
    ctx.stroke();
  }
}

let outerCount = 0;

// ---- the loop ---------------------------------------------------------------------------------
let last = performance.now();
function frame(now: number): void {
  const dt = Math.min(Math.max((now - last) / 1000, 0), 1 / 20);
  last = now;
  if (!paused && dt > 0) {
    stepMain(dt, now);
    if (naive !== null && naiveBox.checked) stepNaive(naive, dt, now);
  }
  draw(now);
  readout();
  requestAnimationFrame(frame);
}

function readout(): void {
  $('ball').textContent = `${pos[0]}, ${pos[1]}`;
  $('velocity').textContent = `(${fmt(vel[0], 5)}, ${fmt(vel[1], 5)}), |v| ${fmt(Math.hypot(vel[0], vel[1]), 8)}`;
  $('steps').textContent = String(steps);
  $('hits').textContent = String(bounces);
  $('step-time').textContent = `${stepMs.toFixed(3)} ms`;
  $('naive-out').textContent = !naiveBox.checked ? 'off (T)' : naive === null ? 'on: starts with the next launch (T)' : `escaped ${naive.escaped} time${naive.escaped === 1 ? '' : 's'}`;
  $('speed-out').textContent = `${fmt(speed(), 3)} widths/s`;
  $('restitution-out').textContent = Number(restIn.value).toFixed(2);
  $('overlay').textContent = `${fmt(speed(), 3)} table widths/s · ${steps} steps · ${bounces} bounces${naive !== null && naiveBox.checked ? ` · naive ball escaped ${naive.escaped}×` : ''}`;
}

// ---- mouse ------------------------------------------------------------------------------------
type Grab = { kind: 'ball' } | { kind: 'ends'; ends: [number, number][] } | { kind: 'new'; from: P2 };
let grab: Grab | null = null;
let adding = false;

function hitTest(px: number, py: number): Grab | null {
  if (adding) return { kind: 'new', from: toTable(px, py) };
  if (Math.hypot(px - X(pos[0]), py - Y(pos[1])) <= Math.max(R * sc, 4) + 10) return { kind: 'ball' };
  let k = -1, e = 0, bestD = 10;
  for (let kk = 0; kk < walls.length; kk++) {
    for (let ee = 0; ee < 2; ee++) {
      const p = walls[kk][ee];
      const d = Math.hypot(px - X(p[0]), py - Y(p[1]));
      if (d <= bestD) {
        bestD = d;
        k = kk;
        e = ee;
      }
    }
  }
  if (k < 0) return null;
  const p = walls[k][e];
  const ends: [number, number][] = [];
  walls.forEach((w, kk) => w.forEach((q, ee) => {
    if (q[0] === p[0] && q[1] === p[1]) ends.push([kk, ee]);
  }));
  return { kind: 'ends', ends };
}

function selectWallAt(px: number, py: number): void {
  const t = toTable(px, py);
  let best = -1, bestD = 8 / sc;
  walls.forEach((w, k) => {
    const d = wallDistance(t, w);
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  });
  selectedWall = best;
}

canvas.addEventListener('pointerdown', (e) => {
  if (e.button !== 0) return;
  const r = canvas.getBoundingClientRect();
  const px = e.clientX - r.left, py = e.clientY - r.top;
  grab = hitTest(px, py);
  if (grab === null) {
    selectWallAt(px, py);
    return;
  }
  canvas.setPointerCapture(e.pointerId);
  view.focus({ preventScroll: true });
  if (grab.kind === 'ball') aiming = [px, py];
});
canvas.addEventListener('pointermove', (e) => {
  const r = canvas.getBoundingClientRect();
  const px = e.clientX - r.left, py = e.clientY - r.top;
  if (grab === null) {
    const g = hitTest(px, py);
    canvas.style.cursor = g === null ? '' : g.kind === 'new' ? 'crosshair' : g.kind === 'ball' ? 'pointer' : 'grab';
    return;
  }
  if (grab.kind === 'ball') {
    const dx = px - X(pos[0]), dy = Y(pos[1]) - py;
    if (Math.hypot(dx, dy) > 4) aim = Math.atan2(dy, dx);
  } else if (grab.kind === 'ends') {
    const t = toTable(px, py);
    const next = walls.map((w) => [[...w[0]], [...w[1]]] as Wall);
    for (const [k, en] of grab.ends) next[k][en] = [t[0], t[1]];
    const touched = grab.ends.map(([k]) => next[k]);
    if (clearOf(pos, touched)) {
      setWalls(next);
      fitOnRelease = true;
    } else status(stat, 'A wall cannot cover the ball: move the ball first (double-click to place it).', 'bad');
  } else {
    preview = [grab.from, toTable(px, py)];
  }
});
let fitOnRelease = false;
canvas.addEventListener('pointerup', () => {
  if (grab?.kind === 'ball' && aiming !== null) launch();
  if (grab?.kind === 'new' && preview !== null) {
    const wl = preview;
    if (wl[0][0] === wl[1][0] && wl[0][1] === wl[1][1]) status(stat, 'Drag to draw the wall.', 'bad');
    else if (!clearOf(pos, [wl])) status(stat, 'A wall cannot cover the ball.', 'bad');
    else {
      setWalls([...walls, wl]);
      selectedWall = walls.length - 1;
      status(stat, `Added wall ${walls.length - 1}.`, 'ok');
    }
    preview = null;
    setAdding(false);
  }
  if (fitOnRelease) fitView();
  fitOnRelease = false;
  grab = null;
  aiming = null;
});
canvas.addEventListener('dblclick', (e) => {
  const r = canvas.getBoundingClientRect();
  const t = toTable(e.clientX - r.left, e.clientY - r.top);
  if (!clearOf(t, walls)) {
    status(stat, 'Too close to a wall for the ball.', 'bad');
    return;
  }
  pos = t;
  vel = [0, 0];
  trail.length = 0;
  status(stat, 'Ball placed: drag from it to launch.', 'ok');
});

function setAdding(on: boolean): void {
  adding = on;
  addBtn.setAttribute('aria-pressed', String(on));
  if (on) status(stat, 'Drag on the table to draw a wall.');
}

// ---- controls and keys ------------------------------------------------------------------------
function rescaleSpeed(): void {
  const s = speed();
  const v = Math.hypot(vel[0], vel[1]);
  if (v > 0) vel = [(vel[0] / v) * s, (vel[1] / v) * s];
  // the status must not keep naming the launch speed once the speed changed
  status(stat, v > 0 ? `Speed changed to ${fmt(s, 4)} table widths per second.` : `Speed set to ${fmt(s, 4)} table widths per second: Space launches.`, 'ok');
  if (naive !== null) {
    const n = Math.hypot(naive.vx, naive.vy);
    if (n > 0) {
      naive.vx = (naive.vx / n) * s;
      naive.vy = (naive.vy / n) * s;
    }
  }
}
speedIn.addEventListener('input', rescaleSpeed);
$('launch').addEventListener('click', launch);
pauseBtn.addEventListener('click', () => {
  paused = !paused;
  pauseBtn.setAttribute('aria-pressed', String(paused));
});
naiveBox.addEventListener('change', () => {
  if (naiveBox.checked) spawnNaive();
  else {
    naive = null;
    naiveTrail.length = 0;
  }
});
addBtn.addEventListener('click', () => setAdding(!adding));
$('delete-wall').addEventListener('click', () => {
  if (selectedWall < 0) {
    status(stat, 'Select a wall first (click it, or [ and ]).', 'bad');
    return;
  }
  const w = walls.slice();
  w.splice(selectedWall, 1);
  if (selectedWall < outerCount) outerCount = 0; // the table is no longer closed: no felt
  setWalls(w);
  selectedWall = -1;
});
const presetSel = $<HTMLSelectElement>('preset');
presetSel.addEventListener('change', () => {
  startPreset(presetSel.value);
});

function startPreset(name: string): void {
  loadPreset(name);
  outerCount = name === 'kicker' ? 8 : name === 'gon' ? 12 : name === 'spike' ? 6 : name === 'corridor' ? 4 : 0;
}

window.addEventListener('keydown', (e) => {
  if (isTyping(e) || e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key;
  if (k === ' ' || k === 'Enter') launch();
  else if (k === 'p' || k === 'P') pauseBtn.click();
  else if (k === 'ArrowLeft' || k === 'ArrowRight') aim += ((k === 'ArrowLeft' ? 5 : -5) * Math.PI) / 180;
  else if (k === 'ArrowUp' || k === 'ArrowDown') {
    speedIn.value = String(Math.min(1, Math.max(0, Number(speedIn.value) + (k === 'ArrowUp' ? 0.05 : -0.05))));
    rescaleSpeed();
  } else if (k === 't' || k === 'T') {
    naiveBox.checked = !naiveBox.checked;
    naiveBox.dispatchEvent(new Event('change'));
  } else if (k === 'w' || k === 'W') setAdding(!adding);
  else if (k === '[' || k === ']') selectedWall = (selectedWall + (k === ']' ? 1 : walls.length - 1) + (selectedWall < 0 && k === '[' ? 1 : 0)) % Math.max(walls.length, 1);
  else if (k === 'Delete' || k === 'Backspace') $('delete-wall').click();
  else if (k === 'Escape') {
    setAdding(false);
    selectedWall = -1;
  } else return;
  e.preventDefault();
});
new ResizeObserver(() => fitView()).observe(canvas);

// ---- start ------------------------------------------------------------------------------------
const q = new URLSearchParams(location.search);
const preset = q.get('preset') ?? 'kicker';
presetSel.value = PRESETS[preset] !== undefined ? preset : 'kicker';
startPreset(presetSel.value);
const sp = Number(q.get('speed'));
speedIn.value = String(q.has('speed') && sp > 0 ? Math.min(1, Math.max(0, sliderOf(sp))) : sliderOf(2));
if (q.has('aim')) aim = (Number(q.get('aim')) * Math.PI) / 180 || aim;
naiveBox.checked = q.get('naive') === '1';
if (naiveBox.checked) spawnNaive();
if (q.get('launch') === '1') launch();
fitView();
readout();
requestAnimationFrame(frame);
document.body.dataset.ready = 'true';
