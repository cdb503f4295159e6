/**
 * Segments: the demo of Rhodes' gem (Game Programming Gems 2, §2.3), made better. Two
 * primitives (segment, ray, line or point each) with draggable endpoints; C, D, P and the vector
 * C→D from `closestPoints`; the infinite lines' answer beside it; the parameter square of Boes'
 * "Segment Distance" as a live heat map; and Rhodes' "rotate through parallel" with the plain
 * answer jumping end to end beside `closestPoints(a, b, { stable: true })`.
 *
 * URL: `?a=x,y,z,x,y,z&b=x,y,z,x,y,z` (the two handles of each: a segment's or line's two
 * points, a ray's origin and a point it passes through, a point's position and an unused one),
 * `ka=`/`kb=` kinds, `inf=1` infinite lines, `stable=1`.
 */
import * as THREE from 'three';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import { closestPoints, line, point, ray, segment } from '../../src/index.js';
import type { ClosestResult, Kind, Primitive } from '../../src/index.js';
import { $, BALL, CONE, ROD, createStage, fmt, fmtVec, fitCanvas, isTyping, placeRod, status } from './common.js';
import { drawSquare, squareAt, type SquareView } from './square.js';

type V3 = [number, number, number];

const DEFAULT: { a: [V3, V3]; b: [V3, V3] } = {
  a: [[-2.2, 0, 1.2], [2.4, 0.6, -0.8]],
  b: [[-1, 2.6, -1.6], [1.2, 0.6, 1.9]],
};
const KINDS: Kind[] = ['segment', 'ray', 'line', 'point'];
const COLORS = { a: 0xff7a45, b: 0x4aa8ff, p: 0xffcc4d, ok: 0x53d18b, ghost: 0xc9d1dc };

// ---- state ------------------------------------------------------------------------------------
/** The four handles: a's two, then b's two. */
const H: V3[] = [[...DEFAULT.a[0]], [...DEFAULT.a[1]], [...DEFAULT.b[0]], [...DEFAULT.b[1]]];
const kinds: [Kind, Kind] = ['segment', 'segment'];
let selected = -1;
let hover: { s: number; t: number } | null = null;
let anim: { start: number; chart: Chart } | null = null;
/**
 * The user's pair, kinds and switches while the rotation demo (R) borrows the scene; put back
 * when the rotation stops, so R is a demo to watch, never a way to lose one's pair.
 */
let borrowed: { H: V3[]; kinds: [Kind, Kind]; infinite: boolean; stable: boolean } | null = null;

const stat = $('status');
const kindSel = [$<HTMLSelectElement>('kind-a'), $<HTMLSelectElement>('kind-b')];
const infiniteBox = $<HTMLInputElement>('infinite');
const ghostBox = $<HTMLInputElement>('ghost');
const stableBox = $<HTMLInputElement>('stable');
const rotateBtn = $<HTMLButtonElement>('rotate');
const squareCanvas = $<HTMLCanvasElement>('square');
const chartCanvas = $<HTMLCanvasElement>('chart');

function readUrl(): void {
  const q = new URLSearchParams(location.search);
  const bad: string[] = [];
  for (const [key, at] of [['a', 0], ['b', 2]] as const) {
    const v = q.get(key);
    if (v === null) continue;
    const xs = v.split(',').map((x) => (x.trim() === '' ? NaN : Number(x)));
    if (xs.length !== 6 || !xs.every(Number.isFinite)) {
      bad.push(`?${key}= needs six finite numbers x,y,z,x,y,z (got "${v}")`);
      continue;
    }
    H[at] = [xs[0], xs[1], xs[2]];
    H[at + 1] = [xs[3], xs[4], xs[5]];
  }
  for (const [key, i] of [['ka', 0], ['kb', 1]] as const) {
    const k = q.get(key);
    if (k === null) continue;
    if ((KINDS as string[]).includes(k)) kinds[i] = k as Kind;
    else bad.push(`?${key}= is one of ${KINDS.join(', ')}`);
  }
  infiniteBox.checked = q.get('inf') === '1';
  stableBox.checked = q.get('stable') === '1';
  if (bad.length > 0) status(stat, bad.join('; '), 'bad');
}

let urlTimer = 0;
function writeUrl(): void {
  clearTimeout(urlTimer);
  urlTimer = window.setTimeout(() => {
    const q = new URLSearchParams();
    q.set('a', [...H[0], ...H[1]].map(String).join(','));
    q.set('b', [...H[2], ...H[3]].map(String).join(','));
    if (kinds[0] !== 'segment') q.set('ka', kinds[0]);
    if (kinds[1] !== 'segment') q.set('kb', kinds[1]);
    if (infiniteBox.checked) q.set('inf', '1');
    if (stableBox.checked) q.set('stable', '1');
    history.replaceState(null, '', `${location.pathname}?${q.toString().replaceAll('%2C', ',')}`);
  }, 150);
}

// ---- geometry ---------------------------------------------------------------------------------
const same = (p: V3, q: V3): boolean => p[0] === q[0] && p[1] === q[1] && p[2] === q[2];
const sub = (p: V3, q: V3): V3 => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];

/** The kind actually used: the infinite-lines switch makes every non-point a line. */
function effective(i: 0 | 1): Kind {
  const k = kinds[i];
  return infiniteBox.checked && k !== 'point' ? 'line' : k;
}

/** The primitive of a (0) or b (1); a line or ray whose two handles coincide falls back to a point. */
function build(i: 0 | 1, kind: Kind): { prim: Primitive; kind: Kind; note: string } {
  const p0 = H[2 * i], p1 = H[2 * i + 1];
  if ((kind === 'line' || kind === 'ray') && same(p0, p1)) {
    return { prim: point(p0), kind: 'point', note: `${'ab'[i]}: a ${kind} needs two distinct points; shown as a point` };
  }
  switch (kind) {
    case 'segment':
      return { prim: segment(p0, p1), kind, note: '' };
    case 'ray':
      return { prim: ray(p0, sub(p1, p0)), kind, note: '' };
    case 'line':
      return { prim: line(p0, p1), kind, note: '' };
    case 'point':
      return { prim: point(p0), kind, note: '' };
  }
}

function domain(kind: Kind): [number, number] {
  return kind === 'segment' ? [0, 1] : kind === 'ray' ? [0, Infinity] : kind === 'line' ? [-Infinity, Infinity] : [0, 0];
}

const at = (p: Primitive, s: number): THREE.Vector3 =>
  new THREE.Vector3(p.p0[0] + s * p.dir[0], p.p0[1] + s * p.dir[1], p.p0[2] + s * p.dir[2]);

// ---- scene ------------------------------------------------------------------------------------
const view = $('view');
const stage = createStage(view);
const { scene, camera, controls } = stage;
const mat = (color: number, opacity = 1, emissive = 0): THREE.MeshStandardMaterial =>
  new THREE.MeshStandardMaterial({ color, roughness: 0.45, metalness: 0.05, emissive, transparent: opacity < 1, opacity, depthWrite: opacity === 1 });
const mesh = (geo: THREE.BufferGeometry, m: THREE.Material): THREE.Mesh => {
  const o = new THREE.Mesh(geo, m);
  scene.add(o);
  return o;
};

const grid = new THREE.GridHelper(20, 20, 0x3a4250, 0x262c36);
scene.add(grid);
const axes = new THREE.AxesHelper(1);
(axes.material as THREE.Material).transparent = true;
(axes.material as THREE.Material).opacity = 0.6;
scene.add(axes);

const body = [mesh(ROD, mat(COLORS.a)), mesh(ROD, mat(COLORS.b))];
const ext = [mesh(ROD, mat(COLORS.a, 0.22)), mesh(ROD, mat(COLORS.b, 0.22))];
const handleMat = [mat(0xffb08f), mat(0xffb08f), mat(0x9fd0ff), mat(0x9fd0ff)];
const handles = handleMat.map((m) => mesh(BALL, m));
const handleTags = ['a₀', 'a₁', 'b₀', 'b₁'].map((t, i) => {
  const tag = stage.label(t, i < 2 ? '#ffb08f' : '#9fd0ff', `handle-${'ab'[i >> 1]}${i & 1}`);
  handles[i].add(tag);
  return tag;
});
const cBall = mesh(BALL, mat(COLORS.a, 1, 0x552200));
const dBall = mesh(BALL, mat(COLORS.b, 1, 0x002255));
const pBall = mesh(BALL, mat(COLORS.p, 1, 0x443300));
const vecRod = mesh(ROD, mat(0xffffff));
const vecHead = mesh(CONE, mat(0xffffff));
cBall.add(stage.label('C', '#ffb08f'));
dBall.add(stage.label('D', '#9fd0ff'));
pBall.add(stage.label('P', '#ffdd80'));
const ghostMat = mat(COLORS.ghost, 0.45);
const lineC = mesh(BALL, ghostMat);
const lineD = mesh(BALL, ghostMat);
const lineRod = mesh(ROD, ghostMat);
const stableMat = mat(COLORS.ok, 1, 0x0a3318);
const stC = mesh(BALL, stableMat);
const stD = mesh(BALL, stableMat);
const stRod = mesh(ROD, mat(COLORS.ok, 0.7));
const hoverRod = mesh(ROD, mat(0xffffff, 0.5));
const locusMat = mat(COLORS.p, 0.55);
const locus = [mesh(ROD, locusMat), mesh(ROD, locusMat)];
const rungs = Array.from({ length: 7 }, () => mesh(ROD, mat(COLORS.p, 0.35)));

const gizmo = new TransformControls(camera, stage.renderer.domElement);
const gizmoTarget = new THREE.Object3D();
scene.add(gizmoTarget);
gizmo.setSize(1.1);
scene.add(gizmo.getHelper());
gizmo.addEventListener('dragging-changed', (e) => {
  controls.enabled = !(e as unknown as { value: boolean }).value;
  if (!(e as unknown as { value: boolean }).value) writeUrl();
});
gizmo.addEventListener('objectChange', () => {
  if (selected < 0) return;
  stopAnimation(true); // editing what is on screen keeps it
  H[selected] = [gizmoTarget.position.x, gizmoTarget.position.y, gizmoTarget.position.z];
  update();
});
gizmo.addEventListener('change', () => stage.request());

/** Scene scale: sizes of balls and rods follow it (set on load, reset and frame, not while dragging). */
let S = 4;
function rescale(): void {
  const box = new THREE.Box3();
  for (const h of H) box.expandByPoint(new THREE.Vector3(...h));
  S = Math.max(box.getSize(new THREE.Vector3()).length(), 1e-6);
  const g = 10 ** Math.round(Math.log10(S / 4));
  grid.scale.setScalar(g);
  axes.scale.setScalar(g);
  grid.position.y = Math.min(0, box.min.y);
  // A view that shows both the angle between the two and the gap between them: between their
  // common normal n (which shows the crossing angle, but hides the gap) and the direction m in
  // their plane across the bisector (which shows the gap, but makes them look parallel).
  const a = build(0, effective(0)).prim, b = build(1, effective(1)).prim;
  const u = new THREE.Vector3(a.dir[0], a.dir[1], a.dir[2]).normalize();
  const v = new THREE.Vector3(b.dir[0], b.dir[1], b.dir[2]).normalize();
  const n = u.clone().cross(v);
  let dir = new THREE.Vector3(0.5, 0.55, 0.75);
  if (n.lengthSq() > 1e-4) {
    n.normalize();
    const bis = (u.dot(v) < 0 ? u.clone().sub(v) : u.clone().add(v)).normalize();
    const m = n.clone().cross(bis).normalize();
    dir = n.multiplyScalar(0.55).addScaledVector(m, 0.8).addScaledVector(bis, 0.15);
    if (dir.y < 0) dir.negate();
    dir.y += 0.1; // and a little from above
  }
  camera.position.copy(controls.target).add(dir.normalize());
  frameView(box);
}
function frameView(box?: THREE.Box3): void {
  const b = box ?? new THREE.Box3();
  if (box === undefined) for (const h of H) b.expandByPoint(new THREE.Vector3(...h));
  stage.frame(b.expandByScalar(0.08 * S));
}

// ---- the readout, the scene and the square from one computation ------------------------------
let squareView: SquareView | null = null;
/** Whether the status line shows a fallback note that update() should clear when it no longer applies. */
let noted = false;

function update(): void {
  const ka = effective(0), kb = effective(1);
  const A = build(0, ka), B = build(1, kb);
  const notes = [A.note, B.note].filter((n) => n !== '');
  if (notes.length > 0) {
    status(stat, notes.join('; '), 'bad');
    noted = true;
  } else if (noted) {
    status(stat, '');
    noted = false;
  }
  const r = closestPoints(A.prim, B.prim);
  const linesOk = !same(H[0], H[1]) && !same(H[2], H[3]);
  const showLines = ghostBox.checked && linesOk && (A.kind !== 'line' || B.kind !== 'line') && A.kind !== 'point' && B.kind !== 'point';
  const lr: ClosestResult | null = linesOk && A.kind !== 'point' && B.kind !== 'point' ? closestPoints(line(H[0], H[1]), line(H[2], H[3])) : null;
  const stableOk = (A.kind === 'segment' || A.kind === 'point') && (B.kind === 'segment' || B.kind === 'point');
  const st = stableBox.checked && stableOk ? closestPoints(A.prim, B.prim, { stable: true }) : null;

  // text
  $('distance').textContent = String(r.distance);
  $('relation').textContent = `${r.relation}${r.unique ? '' : ' (not unique: the middle of the locus)'}`;
  $('s').textContent = String(r.s);
  $('t').textContent = String(r.t);
  $('c').textContent = fmtVec(r.c);
  $('d').textContent = fmtVec(r.d);
  $('p').textContent = fmtVec(r.p);
  $('vector').textContent = fmtVec(r.vector);
  $('lines').textContent = lr === null ? '—' : `distance ${fmt(lr.distance, 8)}, s ${fmt(lr.s)}, t ${fmt(lr.t)}${lr.unique ? '' : ' (parallel)'}`;
  $('stable-out').textContent = st !== null ? `s ${fmt(st.s)}, t ${fmt(st.t)}, |C−D| ${fmt(st.distance, 8)}` : stableBox.checked ? 'segments and points only' : 'off (S)';
  $('ends-a').textContent = `${H[0].join(', ')} → ${H[1].join(', ')}`;
  $('ends-b').textContent = `${H[2].join(', ')} → ${H[3].join(', ')}`;

  // scene
  const rad = 0.007 * S;
  const L = 60 * S;
  const prims = [A, B];
  for (const i of [0, 1] as const) {
    const { prim, kind } = prims[i];
    const p0 = new THREE.Vector3(...H[2 * i]);
    const u = new THREE.Vector3(prim.dir[0], prim.dir[1], prim.dir[2]);
    const un = u.clone().normalize();
    if (kind === 'segment') {
      placeRod(body[i], p0, new THREE.Vector3(...H[2 * i + 1]), rad);
      if (showLines && u.lengthSq() > 0) placeRod(ext[i], p0.clone().addScaledVector(un, -L), p0.clone().addScaledVector(un, L), rad * 0.55);
      else ext[i].visible = false;
    } else if (kind === 'ray') {
      placeRod(body[i], p0, p0.clone().addScaledVector(un, L), rad);
      if (showLines) placeRod(ext[i], p0.clone().addScaledVector(un, -L), p0, rad * 0.55);
      else ext[i].visible = false;
    } else if (kind === 'line') {
      placeRod(body[i], p0.clone().addScaledVector(un, -L), p0.clone().addScaledVector(un, L), rad);
      ext[i].visible = false;
    } else {
      body[i].visible = false;
      ext[i].visible = false;
    }
    handles[2 * i + 1].visible = kinds[i] !== 'point';
    handleTags[2 * i].element.firstElementChild!.textContent = kinds[i] === 'ray' ? `${'ab'[i]} origin` : kinds[i] === 'point' ? 'ab'[i] : `${'ab'[i]}₀`;
    handleTags[2 * i + 1].element.firstElementChild!.textContent = kinds[i] === 'ray' ? `${'ab'[i]} through` : `${'ab'[i]}₁`;
  }
  H.forEach((h, i) => {
    handles[i].position.set(...h);
    handles[i].scale.setScalar((i === selected ? 0.034 : 0.024) * S);
    handleMat[i].emissive.setHex(i === selected ? 0x664422 : 0x000000);
  });
  const c = new THREE.Vector3(...(r.c as V3)), d = new THREE.Vector3(...(r.d as V3));
  cBall.position.copy(c);
  dBall.position.copy(d);
  pBall.position.set(...(r.p as V3));
  cBall.scale.setScalar(0.02 * S);
  dBall.scale.setScalar(0.02 * S);
  pBall.scale.setScalar(0.014 * S);
  // the vector C→D: a rod and a cone ending at D
  const head = Math.min(0.05 * S, 0.4 * r.distance);
  const cd = d.clone().sub(c);
  if (r.distance > 0 && cd.lengthSq() > 0) {
    const dn = cd.clone().normalize();
    placeRod(vecRod, c, d.clone().addScaledVector(dn, -head), rad * 0.7);
    vecHead.visible = true;
    vecHead.position.copy(d).addScaledVector(dn, -head / 2);
    vecHead.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), dn);
    vecHead.scale.set(head * 0.35, head, head * 0.35);
  } else {
    vecRod.visible = false;
    vecHead.visible = false;
  }
  // the lines' answer, faint
  const lv = showLines && lr !== null;
  lineC.visible = lineD.visible = lv;
  lineRod.visible = false;
  if (lv) {
    const lc = new THREE.Vector3(...(lr.c as V3)), ld = new THREE.Vector3(...(lr.d as V3));
    lineC.position.copy(lc);
    lineD.position.copy(ld);
    lineC.scale.setScalar(0.014 * S);
    lineD.scale.setScalar(0.014 * S);
    placeRod(lineRod, lc, ld, rad * 0.4);
  }
  // the stable answer
  stC.visible = stD.visible = st !== null;
  stRod.visible = false;
  if (st !== null) {
    const sc = new THREE.Vector3(...(st.c as V3)), sd = new THREE.Vector3(...(st.d as V3));
    stC.position.copy(sc);
    stD.position.copy(sd);
    stC.scale.setScalar(0.017 * S);
    stD.scale.setScalar(0.017 * S);
    placeRod(stRod, sc, sd, rad * 0.5);
  }
  // the locus of nearest pairs when it is not unique (parallel with overlapping shadows, overlap)
  const loc = r.unique ? null : locusOf(A.prim, B.prim, A.kind, B.kind, L);
  for (const m of [...locus, ...rungs]) m.visible = false;
  if (loc !== null) {
    const [[sa, ta], [sb, tb]] = loc;
    placeRod(locus[0], at(A.prim, sa), at(A.prim, sb), rad * 1.9);
    placeRod(locus[1], at(B.prim, ta), at(B.prim, tb), rad * 1.9);
    if (r.distance > 0) {
      rungs.forEach((m, k) => {
        const f = (k + 0.5) / rungs.length;
        placeRod(m, at(A.prim, sa + f * (sb - sa)), at(B.prim, ta + f * (tb - ta)), rad * 0.35);
      });
    }
  }
  // the pair under the mouse in the square
  hoverRod.visible = false;
  if (hover !== null) placeRod(hoverRod, at(A.prim, hover.s), at(B.prim, hover.t), rad * 0.4);
  stage.request();

  // the parameter square
  const w = sub(H[0], H[2]);
  let valley: [[number, number], [number, number]] | null = null;
  if (lr !== null && !lr.unique) {
    const v = B.prim.dir, u = A.prim.dir;
    const vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    const t0 = (w[0] * v[0] + w[1] * v[1] + w[2] * v[2]) / vv;
    const k = (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) / vv;
    valley = [[0, t0], [1, t0 + k]];
  }
  squareView = drawSquare(squareCanvas, {
    w,
    u: A.prim.dir,
    v: B.prim.dir,
    domA: domain(A.kind),
    domB: domain(B.kind),
    answer: r,
    locus: loc,
    lines: lr,
    valley,
    stable: st,
    hover,
  });
  if (anim !== null) drawChart(anim.chart);
  $('overlay').textContent = `a ${A.kind}, b ${B.kind}${infiniteBox.checked ? ' (infinite lines)' : ''} · distance ${fmt(r.distance, 8)}`;
}

/**
 * The nearest pairs of two parallel primitives with overlapping shadows: s over a's domain where
 * b's foot t(s) = t0 + k·s is in b's domain; returns its two ends as (s, t), clipped to ±L.
 */
function locusOf(a: Primitive, b: Primitive, ka: Kind, kb: Kind, L: number): [[number, number], [number, number]] | null {
  const u = a.dir, v = b.dir;
  const vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  const uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
  if (!(vv > 0) || !(uu > 0)) return null;
  const w = [a.p0[0] - b.p0[0], a.p0[1] - b.p0[1], a.p0[2] - b.p0[2]];
  const t0 = (w[0] * v[0] + w[1] * v[1] + w[2] * v[2]) / vv;
  const k = (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) / vv;
  let [lo, hi] = domain(ka);
  const [blo, bhi] = domain(kb);
  // t0 + k·s ∈ [blo, bhi]
  let s1 = (blo - t0) / k, s2 = (bhi - t0) / k;
  if (s1 > s2) [s1, s2] = [s2, s1];
  lo = Math.max(lo, s1);
  hi = Math.min(hi, s2);
  const cap = L / Math.sqrt(uu);
  lo = Math.max(lo, -cap);
  hi = Math.min(hi, cap);
  if (!(lo <= hi)) return null;
  return [[lo, t0 + k * lo], [hi, t0 + k * hi]];
}

// ---- rotate through parallel (Rhodes, Figure 2.3.4) -------------------------------------------
const SWING = (14 * Math.PI) / 180;
const PERIOD = 9000;
interface Chart {
  theta: Float64Array;
  plain: Float64Array;
  stable: Float64Array;
}

/** b's endpoints at angle θ: a fixed along x; b above it and off to the side, turning about the vertical. */
function rotPose(theta: number): void {
  H[0] = [-3, 0, 0];
  H[1] = [3, 0, 0];
  const c: V3 = [0.4, 1, 0.7], h = 2.6;
  const dx = h * Math.cos(theta), dz = h * Math.sin(theta);
  H[2] = [c[0] - dx, c[1], c[2] - dz];
  H[3] = [c[0] + dx, c[1], c[2] + dz];
}

function startAnimation(): void {
  borrowed ??= { H: H.map((p) => [...p] as V3), kinds: [kinds[0], kinds[1]], infinite: infiniteBox.checked, stable: stableBox.checked };
  kinds[0] = kinds[1] = 'segment';
  kindSel[0].value = kindSel[1].value = 'segment';
  infiniteBox.checked = false;
  stableBox.checked = true;
  const n = 721;
  const chart: Chart = { theta: new Float64Array(n), plain: new Float64Array(n), stable: new Float64Array(n) };
  for (let k = 0; k < n; k++) {
    const th = -SWING + (2 * SWING * k) / (n - 1);
    rotPose(th);
    const a = segment(H[0], H[1]), b = segment(H[2], H[3]);
    chart.theta[k] = th;
    chart.plain[k] = closestPoints(a, b).s;
    chart.stable[k] = closestPoints(a, b, { stable: true }).s;
  }
  anim = { start: performance.now(), chart };
  $('chart-box').hidden = false;
  rotateBtn.setAttribute('aria-pressed', 'true');
  rotPose(0);
  selected = -1;
  gizmo.detach();
  rescale();
  status(stat, 'b turns through parallel: watch the orange C jump end to end while the green stable C glides. R or Esc stops and puts your pair back.');
}

/**
 * Stops the rotation and, unless `keepDemo`, puts back the pair it borrowed (R, Esc and the
 * button put it back; grabbing or moving a handle during the rotation keeps the pose on screen).
 */
function stopAnimation(keepDemo = false): void {
  if (anim === null) return;
  anim = null;
  rotateBtn.setAttribute('aria-pressed', 'false');
  const back = borrowed;
  borrowed = null;
  if (back !== null && !keepDemo) {
    H.splice(0, 4, ...back.H);
    kinds[0] = back.kinds[0];
    kinds[1] = back.kinds[1];
    kindSel[0].value = kinds[0];
    kindSel[1].value = kinds[1];
    infiniteBox.checked = back.infinite;
    stableBox.checked = back.stable;
    rescale();
    status(stat, 'Rotation stopped: your pair is back.');
  } else status(stat, '');
  writeUrl();
  update();
}

function angleNow(now: number): number {
  if (anim === null) return 0;
  const ph = (((now - anim.start) / PERIOD) % 1 + 1) % 1; // triangle wave −SWING…SWING…−SWING, starting at 0
  const tri = ph < 0.25 ? ph * 4 : ph < 0.75 ? 2 - ph * 4 : ph * 4 - 4;
  return tri * SWING;
}

let theta = 0;
stage.onFrame((now) => {
  if (anim === null) return;
  theta = angleNow(now);
  rotPose(theta);
  $('angle').textContent = `${fmt((theta * 180) / Math.PI, 3)}°`;
  update();
});

function drawChart(c: Chart): void {
  const ctx = fitCanvas(chartCanvas, 0.5);
  const w = chartCanvas.clientWidth, h = w * 0.5;
  const m = 22;
  ctx.clearRect(0, 0, w, h);
  const X = (th: number): number => m + ((th + SWING) / (2 * SWING)) * (w - 2 * m);
  const Y = (s: number): number => h - m - s * (h - 2 * m);
  ctx.strokeStyle = '#2c323c';
  ctx.lineWidth = 1;
  ctx.strokeRect(m, Y(1), w - 2 * m, Y(0) - Y(1));
  ctx.fillStyle = '#9aa3b0';
  ctx.font = '11px system-ui, sans-serif';
  ctx.fillText('s = 1', 2, Y(1) + 4);
  ctx.fillText('0', 8, Y(0) + 4);
  ctx.fillText(`−${Math.round((SWING * 180) / Math.PI)}°`, m - 8, h - 5);
  ctx.fillText('0°', X(0) - 6, h - 5);
  ctx.fillText(`${Math.round((SWING * 180) / Math.PI)}°`, w - m - 12, h - 5);
  const plot = (ys: Float64Array, color: string, jump: boolean): void => {
    ctx.strokeStyle = color;
    ctx.lineWidth = 2;
    ctx.beginPath();
    for (let k = 0; k < ys.length; k++) {
      const x = X(c.theta[k]), y = Y(ys[k]);
      // a jump is drawn as a jump, not as a steep line
      if (k === 0 || (jump && Math.abs(ys[k] - ys[k - 1]) > 0.2)) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.stroke();
  };
  plot(c.plain, '#ff7a45', true);
  plot(c.stable, '#53d18b', false);
  ctx.strokeStyle = '#fff';
  ctx.beginPath();
  ctx.moveTo(X(theta), Y(1) - 4);
  ctx.lineTo(X(theta), Y(0) + 4);
  ctx.stroke();
}

// ---- picking and dragging ---------------------------------------------------------------------
const canvas = stage.renderer.domElement;
const raycaster = new THREE.Raycaster();
const plane = new THREE.Plane();
const grab = new THREE.Vector3();
let dragging = -1;

function ndc(e: PointerEvent): THREE.Vector2 {
  const r = canvas.getBoundingClientRect();
  return new THREE.Vector2(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1);
}

/** The handle nearest the pointer on screen, within its drawn size or 14 px. */
function pick(e: PointerEvent): number {
  const r = canvas.getBoundingClientRect();
  let best = -1, bestD = Infinity;
  handles.forEach((h, i) => {
    if (!h.visible) return;
    const p = h.position.clone().project(camera);
    if (p.z > 1) return;
    const x = ((p.x + 1) / 2) * r.width, y = ((1 - p.y) / 2) * r.height;
    const edge = h.position.clone().add(camera.up.clone().setLength(h.scale.x)).project(camera);
    const rad = Math.max(14, Math.hypot(((edge.x - p.x) / 2) * r.width, ((edge.y - p.y) / 2) * r.height) + 4);
    const d = Math.hypot(e.clientX - r.left - x, e.clientY - r.top - y);
    if (d <= rad && d < bestD) {
      best = i;
      bestD = d;
    }
  });
  return best;
}

function select(i: number): void {
  selected = i;
  if (i < 0 || !handles[i].visible) {
    selected = -1;
    gizmo.detach();
  } else {
    gizmoTarget.position.set(...H[i]);
    gizmo.attach(gizmoTarget);
  }
  update();
}

// Capture phase on the container: decide before OrbitControls (on the canvas) starts orbiting.
view.addEventListener(
  'pointerdown',
  (e) => {
    if (e.button !== 0 || gizmo.dragging || gizmo.axis !== null) return;
    const i = pick(e);
    if (i < 0) return;
    stopAnimation(true); // grabbing a handle of the demo keeps the demo's pose
    controls.enabled = false;
    dragging = i;
    select(i);
    raycaster.setFromCamera(ndc(e), camera);
    plane.setFromNormalAndCoplanarPoint(camera.getWorldDirection(new THREE.Vector3()).negate(), handles[i].position);
    const hit = raycaster.ray.intersectPlane(plane, new THREE.Vector3());
    grab.copy(hit === null ? new THREE.Vector3() : handles[i].position.clone().sub(hit));
    canvas.setPointerCapture(e.pointerId);
    view.focus({ preventScroll: true });
  },
  true,
);
canvas.addEventListener('pointermove', (e) => {
  if (dragging < 0) {
    canvas.style.cursor = gizmo.axis === null && pick(e) >= 0 ? 'grab' : '';
    return;
  }
  raycaster.setFromCamera(ndc(e), camera);
  const hit = raycaster.ray.intersectPlane(plane, new THREE.Vector3());
  if (hit === null) return;
  hit.add(grab);
  H[dragging] = [hit.x, hit.y, hit.z];
  gizmoTarget.position.copy(hit);
  update();
});
const endDrag = (): void => {
  if (dragging < 0) return;
  dragging = -1;
  controls.enabled = true;
  writeUrl();
};
canvas.addEventListener('pointerup', endDrag);
canvas.addEventListener('pointercancel', endDrag);

squareCanvas.addEventListener('pointermove', (e) => {
  if (squareView === null) return;
  const r = squareCanvas.getBoundingClientRect();
  hover = squareAt(squareView, e.clientX - r.left, e.clientY - r.top);
  const ka = effective(0), kb = effective(1);
  const A = build(0, ka).prim, B = build(1, kb).prim;
  const dv = at(A, hover.s).sub(at(B, hover.t)).length();
  $('square-note').textContent = `s ${fmt(hover.s, 4)}, t ${fmt(hover.t, 4)}: |a(s) − b(t)| = ${fmt(dv, 6)} (the grey rod in the view)`;
  update();
});
squareCanvas.addEventListener('pointerleave', () => {
  hover = null;
  $('square-note').textContent = '● constrained minimum (the answer) ○ unconstrained minimum (the lines\'); darker outside the parameter domain. Hover to see a pair.';
  update();
});

// ---- controls and keys ------------------------------------------------------------------------
kindSel.forEach((sel, i) =>
  sel.addEventListener('change', () => {
    kinds[i] = sel.value as Kind;
    if (selected >= 0 && !handles[selected].visible) select(-1);
    writeUrl();
    update();
  }),
);
for (const box of [infiniteBox, ghostBox, stableBox]) {
  box.addEventListener('change', () => {
    writeUrl();
    update();
  });
}
rotateBtn.addEventListener('click', () => (anim === null ? startAnimation() : stopAnimation()));
$('frame').addEventListener('click', () => frameView());
$('reset').addEventListener('click', () => {
  stopAnimation(true);
  H.splice(0, 4, [...DEFAULT.a[0]], [...DEFAULT.a[1]], [...DEFAULT.b[0]], [...DEFAULT.b[1]]);
  kinds[0] = kinds[1] = 'segment';
  kindSel[0].value = kindSel[1].value = 'segment';
  infiniteBox.checked = false;
  select(-1);
  rescale();
  writeUrl();
  update();
});

window.addEventListener('keydown', (e) => {
  if (isTyping(e) || e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key;
  const toggle = (box: HTMLInputElement): void => {
    box.checked = !box.checked;
    writeUrl();
    update();
  };
  if (k >= '1' && k <= '4') select(Number(k) - 1);
  else if (k === 'Escape') {
    stopAnimation();
    select(-1);
  } else if (k === 'i' || k === 'I') toggle(infiniteBox);
  else if (k === 'l' || k === 'L') toggle(ghostBox);
  else if (k === 's' || k === 'S') toggle(stableBox);
  else if (k === 'r' || k === 'R') {
    if (anim === null) startAnimation();
    else stopAnimation();
  }
  else if (k === 'f' || k === 'F') frameView();
  else if (selected >= 0 && ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'PageUp', 'PageDown'].includes(k)) {
    stopAnimation(true);
    const step = (e.shiftKey ? 0.005 : 0.05) * S;
    const axis = k === 'ArrowLeft' || k === 'ArrowRight' ? 0 : k === 'ArrowUp' || k === 'ArrowDown' ? 1 : 2;
    const sign = k === 'ArrowLeft' || k === 'ArrowDown' || k === 'PageDown' ? -1 : 1;
    H[selected][axis] += sign * step;
    gizmoTarget.position.set(...H[selected]);
    writeUrl();
    update();
  } else return;
  e.preventDefault();
});

new ResizeObserver(() => update()).observe(squareCanvas);

// ---- start ------------------------------------------------------------------------------------
readUrl();
kindSel[0].value = kinds[0];
kindSel[1].value = kinds[1];
rescale();
update();
document.body.dataset.ready = 'true';
