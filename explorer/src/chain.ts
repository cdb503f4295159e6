/**
 * Chain builder: Boes' "Segment Distance" app, made better. Build a chain in 3D by appending
 * segments (length, bend, twist), fold it at any joint by keys or by dragging a vertex, with a
 * thickness slider. Contacts come from `chainContacts` (the library's broad phase and exact
 * test, so hundreds or thousands of segments stay interactive) and are highlighted; folds use
 * the library's continuous fold check, which stops at the first contact on the way instead of
 * testing only the end pose, so what is drawn is always an accepted pose.
 *
 * Big chains (the "Big chain" button, `?big=N`): a random walk of N unit steps (10⁵ by default)
 * held in a chain folder (createChainFolder); a drag then folds the tail continuously on the
 * folder's tree (ChainFolder.fold: the motion checked, stopping at the first contact, without a
 * rebuild), and "Pivot Monte Carlo" runs random pivot moves live, showing moves per second and
 * the acceptance rate. Drawn for frame rate: one line whose floats are rewritten in place for
 * the turned vertices only (ChainFolder.pointsInto), one fold per frame however many pointer
 * moves came, the still head of a dragged chain kept as a picture, the Monte Carlo's pivots in a
 * time budget per frame; the page reports its own timings (the "frame" row, body data-*).
 *
 * URL: `?chain=x,y,z;x,y,z;…`, `?random=N&seed=S` or `?big=N&seed=S`, and `thickness=T`, `joint=K`.
 */
import * as THREE from 'three';
import { chainContacts, createChainFolder, segmentDistance } from '../../src/index.js';
import type { ChainContacts, ChainFolder } from '../../src/index.js';
import { $, BALL, ROD, createStage, fmt, isTyping, status } from './common.js';
import { foldChain, type Fold } from './fold.js';

type V3 = [number, number, number];
const DEG = Math.PI / 180;

// ---- state ------------------------------------------------------------------------------------
let P: V3[] = [];
let thickness = 1;
let joint = 1;
let contacts: ChainContacts | null = null;
/** The pair that stopped the last fold (segment indices), if it was blocked. */
let stopper: { i: number; j: number } | null = null;
/** The chain held for pivots (big chains, Monte Carlo); null until needed, dropped when P changes otherwise. */
let folder: ChainFolder | null = null;
/** Chains above this many segments are dragged by the folder's fold on its tree (foldChain rebuilds its search per fold). */
const BIG = 5000;

/** Degrees for people: 6 significant digits, fixed point for small angles, 0 below a micro-degree. */
function fmtDeg(deg: number): string {
  if (Math.abs(deg) < 5e-7) return '0';
  if (Math.abs(deg) < 1e-4) return String(Number(deg.toFixed(6)));
  return fmt(deg, 6);
}

/** A thickness that suits the chain: a tenth of its median segment length (2 significant digits). */
function defaultThickness(pts: V3[]): number {
  const lens: number[] = [];
  for (let k = 1; k < Math.min(pts.length, 2001); k++) lens.push(norm(sub(pts[k], pts[k - 1])));
  lens.sort((a, b) => a - b);
  const med = lens[lens.length >> 1] ?? 1;
  return med > 0 ? Number((med / 10).toPrecision(2)) : 0;
}

const stat = $('status');
const lenIn = $<HTMLInputElement>('len');
const bendIn = $<HTMLInputElement>('bend');
const twistIn = $<HTMLInputElement>('twist');
const countIn = $<HTMLInputElement>('count');
const jointIn = $<HTMLInputElement>('joint');
const stepIn = $<HTMLInputElement>('step');
const thickIn = $<HTMLInputElement>('thickness');

const num = (el: HTMLInputElement, fallback: number): number => {
  const x = Number(el.value);
  return Number.isFinite(x) ? x : fallback;
};

// ---- vectors ----------------------------------------------------------------------------------
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: V3, k: number): V3 => [a[0] * k, a[1] * k, a[2] * k];
const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: V3): number => Math.hypot(a[0], a[1], a[2]);
const unit = (a: V3): V3 => scale(a, 1 / norm(a));

/** Rodrigues: v turned by `angle` about the unit axis k. */
function rotate(v: V3, k: V3, angle: number): V3 {
  const c = Math.cos(angle), s = Math.sin(angle);
  const kv = cross(k, v);
  const kd = dot(k, v) * (1 - c);
  return [v[0] * c + kv[0] * s + k[0] * kd, v[1] * c + kv[1] * s + k[1] * kd, v[2] * c + kv[2] * s + k[2] * kd];
}

/** A unit vector perpendicular to a. */
function perpendicular(a: V3): V3 {
  const t: V3 = Math.abs(a[0]) < 0.9 * norm(a) ? [1, 0, 0] : [0, 1, 0];
  return unit(cross(a, t));
}

/**
 * The vertex after the last: the last direction turned by `bend` in the plane that makes the
 * dihedral angle `twist` with the plane of the last two segments (Boes' θ and δ).
 */
function nextPoint(pts: V3[], len: number, bend: number, twist: number): V3 {
  const n = pts.length;
  if (n === 0) return [0, 0, 0];
  if (n === 1) return add(pts[0], [len, 0, 0]);
  const d1 = unit(sub(pts[n - 1], pts[n - 2]));
  let nrm: V3;
  if (n >= 3) {
    const c = cross(sub(pts[n - 2], pts[n - 3]), d1);
    nrm = norm(c) > 1e-12 * norm(sub(pts[n - 2], pts[n - 3])) ? unit(c) : perpendicular(d1);
  } else nrm = Math.abs(d1[1]) < 0.9 ? unit(cross(d1, [0, 1, 0])) : perpendicular(d1);
  const axis = rotate(nrm, d1, twist);
  return add(pts[n - 1], scale(rotate(d1, axis, bend), len));
}

// ---- contacts ---------------------------------------------------------------------------------
let checkMs = 0;
function check(): void {
  const t0 = performance.now();
  contacts = P.length >= 2 ? chainContacts(P, { dim: 3, thickness }) : null;
  checkMs = performance.now() - t0;
}

/** True when segment [P[n−1], q] would touch the chain (every earlier segment but the adjacent one). */
function appendTouches(pts: V3[], q: V3): boolean {
  const n = pts.length;
  if (n < 3) return false;
  const c = chainContacts([pts[n - 1], q], { dim: 3, thickness, against: pts.slice(0, n - 1) });
  return c.count > 0;
}

function append(len: number, bend: number, twist: number): boolean {
  const q = nextPoint(P, len, bend, twist);
  if (appendTouches(P, q)) return false;
  P.push(q);
  return true;
}

// ---- the scene --------------------------------------------------------------------------------
const view = $('view');
/**
 * A page opened on a big chain (`?big=`) draws without multisampling: in a software GL
 * (SwiftShader) it halves the frame rate of a 10⁵-vertex line, for one-pixel lines that barely
 * change. The "Big chain" button opens such a page.
 */
const bigPage = new URLSearchParams(location.search).has('big');
const stage = createStage(view, { antialias: !bigPage });
const { scene, camera, controls } = stage;
let grid = new THREE.GridHelper(1, 1);

const rodMat = new THREE.MeshStandardMaterial({ color: 0xffffff, roughness: 0.5, metalness: 0.05 });
const ballMat = new THREE.MeshStandardMaterial({ color: 0xffffff, roughness: 0.5, metalness: 0.05 });
let cap = 0;
let rods: THREE.InstancedMesh | null = null;
let balls: THREE.InstancedMesh | null = null;
const contactLines = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: 0xff5c6c }));
scene.add(contactLines);
const jointTag = stage.label('joint', '#c9a6ff', 'joint-label');
const jointAnchor = new THREE.Object3D();
jointAnchor.add(jointTag);
scene.add(jointAnchor);
const tipTag = stage.label('tip', '#e6e9ee', 'tip-label');
const tipAnchor = new THREE.Object3D();
tipAnchor.add(tipTag);
scene.add(tipAnchor);

function ensure(n: number): void {
  if (n <= cap && rods !== null && balls !== null) return;
  cap = Math.max(64, 2 ** Math.ceil(Math.log2(n)));
  for (const m of [rods, balls]) {
    if (m !== null) {
      scene.remove(m);
      m.dispose();
    }
  }
  rods = new THREE.InstancedMesh(ROD, rodMat, cap);
  balls = new THREE.InstancedMesh(BALL, ballMat, cap + 1);
  rods.frustumCulled = balls.frustumCulled = false;
  scene.add(rods, balls);
}

const UP = new THREE.Vector3(0, 1, 0);
const M = new THREE.Matrix4();
const Q = new THREE.Quaternion();
const V = new THREE.Vector3();
const W = new THREE.Vector3();
const Sc = new THREE.Vector3();
const C = new THREE.Color();
const BASE_A = new THREE.Color(0x4aa8ff), BASE_B = new THREE.Color(0xc9a6ff);
const RED = new THREE.Color(0xff5c6c), YELLOW = new THREE.Color(0xffcc4d), JOINT = new THREE.Color(0xf3e8ff);

/** Display radius: the capsule's (thickness / 2), or a thin rod at thickness 0. */
function radius(): number {
  let len = 0;
  for (let k = 1; k < Math.min(P.length, 50); k++) len = Math.max(len, norm(sub(P[k], P[k - 1])));
  return Math.max(thickness / 2, 0.025 * (len || 10));
}

// ---- big chains: one line, updated in place --------------------------------------------------
// Big chains are drawn as one polyline (10⁵ instanced capsules are too many triangles for a
// software GL): one BufferGeometry made when the chain is loaded, whose float positions are
// rewritten in place after each fold or frame of pivots for the turning part only, and only
// that span sent to the GPU (addUpdateRange). Nothing of the chain's size is allocated per frame.

/** The big chain's pose as the folder holds it (doubles, reused: ChainFolder.pointsInto writes into it). */
let pose = new Float64Array(0);
const bigLine = new THREE.Line(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ vertexColors: true }));
bigLine.frustumCulled = false;
bigLine.visible = false;
scene.add(bigLine);
/** The pair that stopped the last drag step on a big chain: its two segments, drawn over the chain. */
const stopLine = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: 0xffcc4d, depthTest: false, transparent: true }));
stopLine.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(12), 3));
stopLine.frustumCulled = false;
stopLine.renderOrder = 1;
stopLine.visible = false;
// their ends as dots, so the pair shows at a glance among 10⁵ one-pixel segments
const stopDots = new THREE.Points(stopLine.geometry, new THREE.PointsMaterial({ color: 0xffcc4d, size: 7, sizeAttenuation: false, depthTest: false, transparent: true }));
stopDots.frustumCulled = false;
stopDots.renderOrder = 1;
stopLine.add(stopDots);
scene.add(stopLine);

/** The joint and tip labels at the chain's current vertices. */
function placeLabels(P: V3[]): void {
  if (joint < P.length) jointAnchor.position.set(...P[joint]);
  jointTag.element.firstElementChild!.textContent = `joint ${joint}`;
  jointAnchor.visible = joint < P.length - 1;
  if (P.length > 0) tipAnchor.position.set(...P[P.length - 1]);
}

/** The stopping pair of a big chain's last drag step (segments i and j), or none. */
function markStopper(P: V3[]): void {
  const n = P.length;
  stopLine.visible = stopper !== null && stopper.i + 1 < n && stopper.j + 1 < n;
  if (!stopLine.visible) return;
  const attr = stopLine.geometry.getAttribute('position') as THREE.BufferAttribute;
  const a = attr.array as Float32Array;
  const ends = [stopper!.i, stopper!.i + 1, stopper!.j, stopper!.j + 1];
  for (let e = 0; e < 4; e++) for (let c = 0; c < 3; c++) a[3 * e + c] = P[ends[e]][c];
  attr.needsUpdate = true;
}

/** The whole big chain into the line (on loading it; the colours too when the size changed). */
function drawBig(P: V3[]): void {
  unsplit();
  const n = P.length;
  const geo = bigLine.geometry;
  let pos = geo.getAttribute('position') as THREE.BufferAttribute | undefined;
  if (pos === undefined || pos.count !== n) {
    pos = new THREE.BufferAttribute(new Float32Array(3 * n), 3);
    pos.setUsage(THREE.DynamicDrawUsage);
    const col = new Float32Array(3 * n);
    for (let k = 0; k < n; k++) {
      C.copy(BASE_A).lerp(BASE_B, k / Math.max(1, n - 1));
      col[3 * k] = C.r;
      col[3 * k + 1] = C.g;
      col[3 * k + 2] = C.b;
    }
    geo.setAttribute('position', pos);
    geo.setAttribute('color', new THREE.BufferAttribute(col, 3));
  }
  const a = pos.array as Float32Array;
  for (let k = 0; k < n; k++) {
    a[3 * k] = P[k][0];
    a[3 * k + 1] = P[k][1];
    a[3 * k + 2] = P[k][2];
  }
  pos.clearUpdateRanges();
  pos.needsUpdate = true;
  geo.computeBoundingSphere();
  bigLine.visible = true;
  if (rods !== null) rods.count = 0;
  if (balls !== null) balls.count = 0;
  contactLines.visible = false;
  markStopper(P);
  placeLabels(P);
  stage.request();
}

// ---- a drag on a big chain: the still part drawn once --------------------------------------------
// During a drag nothing but the tail past the joint moves, and the camera stands still (the
// orbit controls are off). So the head of the chain and the floor are drawn once, at the start
// of the drag, and copied (colour and depth) into a framebuffer of the page's own; each frame
// then copies them back (a blit, no shader) and draws the tail alone over them, depth-tested,
// so the tail still passes behind the head: a frame costs the tail's vertices, not the chain's.
// Raw WebGL 2 objects (three.js has no blit to the canvas); three's bindings are restored.

const gl = stage.renderer.getContext() as WebGL2RenderingContext;
let stillFb: WebGLFramebuffer | null = null;
let stillRb: WebGLRenderbuffer[] = [];
let stillW = 0, stillH = 0;
/** The joint the still picture was split at (−1: none), and the view it was drawn in. */
let stillJoint = -1;
const stillView = new Float64Array(32);
const BUF = new THREE.Vector2();

/** Copies colour and depth from one framebuffer to the other (null: the canvas), then binds the canvas again. */
function blit(from: WebGLFramebuffer | null, to: WebGLFramebuffer | null): void {
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, from);
  gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, to);
  gl.blitFramebuffer(0, 0, stillW, stillH, 0, 0, stillW, stillH, gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT, gl.NEAREST);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
}

/**
 * Depth formats to try for the page's framebuffer: a blit of depth needs the canvas's own, which
 * WebGL does not tell (Chromium's SwiftShader canvas has depth and stencil though only depth was
 * asked for). The first that blits without a GL error is kept; none: no split (−1).
 */
const DEPTHS = [gl.DEPTH24_STENCIL8, gl.DEPTH_COMPONENT24, gl.DEPTH_COMPONENT32F, gl.DEPTH_COMPONENT16];
let depthAt = 0;

/** The page's framebuffer at the canvas's size, with depth format DEPTHS[depthAt]. */
function stillBuffer(w: number, h: number, fresh = false): void {
  if (stillFb !== null && stillW === w && stillH === h && !fresh) return;
  if (stillFb !== null) gl.deleteFramebuffer(stillFb);
  for (const rb of stillRb) gl.deleteRenderbuffer(rb);
  const format = DEPTHS[depthAt], stencil = format === gl.DEPTH24_STENCIL8;
  stillFb = gl.createFramebuffer();
  const color = gl.createRenderbuffer(), depth = gl.createRenderbuffer();
  stillRb = [color, depth];
  gl.bindFramebuffer(gl.FRAMEBUFFER, stillFb);
  gl.bindRenderbuffer(gl.RENDERBUFFER, color);
  gl.renderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, w, h);
  gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, color);
  gl.bindRenderbuffer(gl.RENDERBUFFER, depth);
  gl.renderbufferStorage(gl.RENDERBUFFER, format, w, h);
  gl.framebufferRenderbuffer(gl.FRAMEBUFFER, stencil ? gl.DEPTH_STENCIL_ATTACHMENT : gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, depth);
  gl.bindRenderbuffer(gl.RENDERBUFFER, null);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  stillW = w;
  stillH = h;
}

/** True when the camera or the canvas changed since the still picture was drawn. */
function viewChanged(): boolean {
  const a = camera.matrixWorldInverse.elements, b = camera.projectionMatrix.elements;
  let same = true;
  for (let q = 0; q < 16; q++) same &&= stillView[q] === a[q] && stillView[16 + q] === b[q];
  stage.renderer.getDrawingBufferSize(BUF);
  return !same || BUF.x !== stillW || BUF.y !== stillH;
}

/**
 * Before each frame of a split drag: the still picture back on the canvas (autoClear is off). The
 * clear first: a browser clears a composited canvas before its first clear or draw of the next
 * frame (preserveDrawingBuffer false), which a blit does not count as, so without it the first
 * draw would wipe the picture.
 */
const stillBack = (): void => {
  stage.renderer.clear();
  blit(stillFb, null);
};

/**
 * Draws the head (vertices 0 … k) and the floor, keeps them; the line then draws the tail only.
 * Returns false (and draws nothing differently) where no depth format blits.
 */
function splitAt(k: number): boolean {
  if (depthAt >= DEPTHS.length) return false;
  const geo = bigLine.geometry;
  const n = (geo.getAttribute('position') as THREE.BufferAttribute).count;
  const r = stage.renderer;
  r.getDrawingBufferSize(BUF);
  stillBuffer(BUF.x, BUF.y);
  camera.updateMatrixWorld();
  stillView.set(camera.matrixWorldInverse.elements, 0);
  stillView.set(camera.projectionMatrix.elements, 16);
  scene.onBeforeRender = () => {};
  r.autoClear = true;
  grid.visible = true;
  const stop = stopLine.visible;
  stopLine.visible = false;
  geo.setDrawRange(0, k + 1);
  r.setRenderTarget(null);
  r.render(scene, camera);
  while (gl.getError() !== gl.NO_ERROR); // earlier errors are not the blit's
  blit(null, stillFb);
  while (gl.getError() !== gl.NO_ERROR) {
    // not the canvas's depth format: the next one
    if (++depthAt >= DEPTHS.length) {
      geo.setDrawRange(0, Infinity);
      stopLine.visible = stop;
      stage.request();
      return false;
    }
    stillBuffer(BUF.x, BUF.y, true);
    blit(null, stillFb);
  }
  stopLine.visible = stop;
  geo.setDrawRange(k, n - k);
  grid.visible = false;
  r.autoClear = false;
  scene.onBeforeRender = stillBack;
  stillJoint = k;
  stage.request();
  return true;
}

/** Back to drawing the whole chain. */
function unsplit(): void {
  if (stillJoint < 0) return;
  stillJoint = -1;
  bigLine.geometry.setDrawRange(0, Infinity);
  scene.onBeforeRender = () => {};
  stage.renderer.autoClear = true;
  grid.visible = true;
  stage.request();
}

/** The last read-back that moved vertices: its time (ms), its first vertex and how many it read. */
let updateMs = 0, readFrom = 0, updated = 0;

/**
 * After moves of the held big chain at joints ≥ from − 1: vertices from … n − 1 read from the
 * folder (into `pose`, the page's points P in place, and the line's floats), and only that span
 * marked for upload. Vertices before `from` did not move (ChainFolder.pointsInto's contract);
 * from = n reads nothing (a fold that did not turn) and only moves the marks.
 */
function updateBig(f: ChainFolder, from: number): void {
  const t0 = performance.now();
  const n = f.count;
  const pos = bigLine.geometry.getAttribute('position') as THREE.BufferAttribute | undefined;
  if (pos === undefined || pos.count !== n || P.length !== n) {
    // not drawn at this size yet (cannot happen after bigChain; kept total): the whole chain
    f.pointsInto(pose, 0);
    P = Array.from({ length: n }, (_, v) => [pose[3 * v], pose[3 * v + 1], pose[3 * v + 2]] as V3);
    drawBig(P);
  } else if (from < n) {
    f.pointsInto(pose, from);
    const a = pos.array as Float32Array;
    for (let i = 3 * from, v = from; v < n; v++, i += 3) {
      const x = pose[i], y = pose[i + 1], z = pose[i + 2];
      const p = P[v];
      p[0] = a[i] = x;
      p[1] = a[i + 1] = y;
      p[2] = a[i + 2] = z;
    }
    pos.addUpdateRange(3 * from, 3 * (n - from));
    pos.needsUpdate = true;
  }
  contacts = null;
  checkMs = 0;
  markStopper(P);
  placeLabels(P);
  stage.request();
  if (from < n) {
    readFrom = from;
    updated = n - from;
    updateMs = performance.now() - t0;
  }
}

function draw(show: V3[] = P): void {
  const P = show;
  const m = Math.max(0, P.length - 1);
  if (m > BIG) {
    drawBig(P);
    return;
  }
  unsplit();
  bigLine.visible = stopLine.visible = false;
  contactLines.visible = true;
  ensure(Math.max(m, 1));
  const r = radius();
  const hot = new Uint8Array(m);
  if (contacts !== null) for (let k = 0; k < contacts.count; k++) hot[contacts.i[k]] = hot[contacts.j[k]] = 1;
  if (stopper !== null && stopper.i < m && stopper.j < m) {
    if (hot[stopper.i] === 0) hot[stopper.i] = 2;
    if (hot[stopper.j] === 0) hot[stopper.j] = 2;
  }
  for (let k = 0; k < m; k++) {
    V.set(...P[k]);
    W.set(...P[k + 1]).sub(V);
    const len = W.length();
    if (len > 0) Q.setFromUnitVectors(UP, W.divideScalar(len));
    W.multiplyScalar(len);
    Sc.set(r, len, r);
    M.compose(V.addScaledVector(W, 0.5), Q, Sc);
    rods!.setMatrixAt(k, M);
    C.copy(BASE_A).lerp(BASE_B, m > 1 ? k / (m - 1) : 0);
    rods!.setColorAt(k, hot[k] === 1 ? RED : hot[k] === 2 ? YELLOW : C);
  }
  rods!.count = m;
  for (let k = 0; k < P.length; k++) {
    const sel = k === joint;
    const rr = sel ? Math.max(r * 1.35, r + 0.15) : r;
    M.compose(V.set(...P[k]), Q.identity(), Sc.set(rr, rr, rr));
    balls!.setMatrixAt(k, M);
    const prev = k > 0 ? hot[k - 1] : 0, next = k < m ? hot[k] : 0;
    C.copy(BASE_A).lerp(BASE_B, m > 0 ? Math.min(k, m - 1) / Math.max(m - 1, 1) : 0);
    balls!.setColorAt(k, sel ? JOINT : prev === 1 && next === 1 ? RED : C);
  }
  balls!.count = P.length;
  for (const mesh of [rods!, balls!]) {
    mesh.instanceMatrix.needsUpdate = true;
    if (mesh.instanceColor !== null) mesh.instanceColor.needsUpdate = true;
  }
  // nearest points of each contact, joined
  const n = contacts?.count ?? 0;
  const pos = new Float32Array(6 * n);
  for (let k = 0; k < n; k++) {
    const i = contacts!.i[k], j = contacts!.j[k], s = contacts!.s[k], t = contacts!.t[k];
    for (let a = 0; a < 3; a++) {
      pos[6 * k + a] = P[i][a] + s * (P[i + 1][a] - P[i][a]);
      pos[6 * k + 3 + a] = P[j][a] + t * (P[j + 1][a] - P[j][a]);
    }
  }
  contactLines.geometry.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  contactLines.geometry.computeBoundingSphere();
  placeLabels(P);
  stage.request();
}

function readout(): void {
  $('segments').textContent = String(Math.max(0, P.length - 1));
  $('contacts').textContent = String(contacts?.count ?? 0);
  $('check-time').textContent = `${checkMs < 1 ? checkMs.toFixed(3) : checkMs.toFixed(1)} ms`;
  $('thickness-out').textContent = fmt(thickness, 4);
  // the points for tests and scripts (not for big chains: stringifying 10⁵ points every frame costs more than drawing them)
  $('points').textContent = P.length <= 20_001 ? JSON.stringify(P) : '';
  $('overlay').textContent = `${Math.max(0, P.length - 1)} segments · ${contacts?.count ?? 0} contacts · check ${checkMs.toFixed(2)} ms`;
  jointIn.max = String(Math.max(1, P.length - 2));
  jointIn.value = String(joint);
}

function refresh(): void {
  check();
  draw();
  readout();
}

function frame(): void {
  const box = new THREE.Box3();
  for (const p of P) box.expandByPoint(V.set(...p));
  box.expandByScalar(radius() + 1);
  stage.frame(box);
  // a floor under the chain, in round cells
  const size = box.getSize(V);
  const cell = 10 ** Math.floor(Math.log10(Math.max(size.x, size.z, 1) / 3));
  const cells = Math.min(200, 2 * Math.ceil(Math.max(size.x, size.z) / cell / 2) + 4);
  scene.remove(grid);
  grid.dispose();
  grid = new THREE.GridHelper(cells * cell, cells, 0x3a4250, 0x262c36);
  const c = box.getCenter(W);
  grid.position.set(Math.round(c.x / cell) * cell, box.min.y, Math.round(c.z / cell) * cell);
  scene.add(grid);
}

// ---- folding ----------------------------------------------------------------------------------
let foldMs = 0;

/**
 * Shows a keyed fold as a motion rather than a jump: the tail of `from` turned about the axis
 * through vertex k by a growing fraction of the angle the fold reached (every pose on the way
 * is one the fold check certified free), ending on the returned pose.
 */
let tweenFrame = 0;
function tween(from: V3[], k: number, axis: V3, angle: number): void {
  cancelAnimationFrame(tweenFrame);
  const dur = Math.min(450, 120 + 3 * Math.abs(angle / DEG));
  const t0 = performance.now();
  const c = from[k];
  const step = (now: number): void => {
    const f = Math.min(1, (now - t0) / dur);
    if (f >= 1) {
      draw();
      return;
    }
    const e = f * f * (3 - 2 * f);
    draw(from.map((p, i) => (i <= k ? p : add(c, rotate(sub(p, c), axis, e * angle)))));
    tweenFrame = requestAnimationFrame(step);
  };
  tweenFrame = requestAnimationFrame(step);
}

/** Axis of a bend (the normal of the two segments at the joint) or a twist (the segment before it). */
function foldAxis(k: number, kind: 'bend' | 'twist'): V3 {
  const d0 = sub(P[k], P[k - 1]), d1 = sub(P[k + 1], P[k]);
  if (kind === 'twist') return unit(d0);
  const c = cross(d0, d1);
  return norm(c) > 1e-9 * norm(d0) * norm(d1) ? unit(c) : perpendicular(d0);
}

/**
 * Folds at joint k about `axis` by `angle` with the library's continuous check; the chain
 * becomes the returned pose (the whole angle, or up to the first contact).
 */
function fold(k: number, axis: V3, angle: number, what: string): Fold | null {
  if (k < 0 || k > P.length - 2) return null;
  if ((contacts?.count ?? 0) > 0) {
    status(stat, `The chain is in contact at this thickness (${contacts!.count} pairs): lower the thickness before folding.`, 'bad');
    return null;
  }
  const t0 = performance.now();
  let r: Fold;
  try {
    r = foldChain(P, { dim: 3, joint: k, angle, axis, thickness });
  } catch (e) {
    status(stat, (e as Error).message, 'bad');
    return null;
  }
  foldMs = performance.now() - t0;
  // What is drawn is the library's pose: a blocked fold's pose is free, as close to the contact
  // as foldChain gets, and a place the next fold can start from.
  const kept = r;
  const before = P;
  P = kept.points.map((p) => [p[0], p[1], p[2]] as V3);
  stopper = r.blocked ? r.contact : null;
  if (what !== 'Drag') tween(before, k, axis, kept.angle);
  folder = null;
  const got = `${fmtDeg(r.angle / DEG)}° of ${fmtDeg(angle / DEG)}°`;
  if (r.blocked && r.contact !== null) {
    const { i, j } = r.contact;
    const d = segmentDistance(P[i], P[i + 1], P[j], P[j + 1]);
    status(stat, `${what} at joint ${k} stopped at first contact: ${got}; segments ${i} and ${j} are ${fmt(d, 10)} apart (thickness ${fmt(thickness)}).`, 'bad');
    $('fold-out').textContent = `blocked at ${got} by ${i}–${j}`;
  } else {
    status(stat, `${what} at joint ${k}: ${got}`, 'ok');
    $('fold-out').textContent = `${got}, free`;
  }
  if (what === 'Drag') dragReport(r.blocked);
  $('fold-time').textContent = `${foldMs < 1 ? foldMs.toFixed(3) : foldMs.toFixed(1)} ms`;
  refresh();
  writeUrl();
  return r;
}

function foldKey(kind: 'bend' | 'twist', sign: number): void {
  if (joint < 1 || joint > P.length - 2) {
    status(stat, 'Pick a joint between two segments first ([ and ]).', 'bad');
    return;
  }
  fold(joint, foldAxis(joint, kind), sign * num(stepIn, 10) * DEG, kind === 'bend' ? 'Bend' : 'Twist');
}

// ---- URL and files ----------------------------------------------------------------------------
let urlTimer = 0;
function writeUrl(): void {
  clearTimeout(urlTimer);
  urlTimer = window.setTimeout(() => {
    const q = new URLSearchParams(location.search);
    if (P.length <= 400) {
      q.delete('random');
      q.delete('seed');
      q.set('chain', P.map((p) => p.map((x) => String(Number(x.toPrecision(12)))).join(',')).join(';'));
    } else q.delete('chain');
    q.set('thickness', String(thickness));
    q.set('joint', String(joint));
    history.replaceState(null, '', `${location.pathname}?${q.toString().replaceAll('%2C', ',').replaceAll('%3B', ';')}`);
  }, 250);
}

/** Points from text: JSON ([[x,y,z],…], {points: …}, or a flat list) or lines of numbers. 2D points get z = 0. */
function parsePoints(text: string): V3[] {
  let raw: unknown;
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    raw = JSON.parse(trimmed);
    if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) raw = (raw as { points?: unknown }).points;
  } else raw = trimmed.split(/[;\n]+/).filter((l) => l.trim() !== '').map((l) => l.split(/[\s,]+/).filter((x) => x !== '').map(Number));
  if (!Array.isArray(raw)) throw new Error('expected an array of points');
  const pts: V3[] = raw.map((p: unknown, k) => {
    if (!Array.isArray(p) || p.length < 2 || p.length > 3 || !p.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new Error(`point ${k} is not [x, y] or [x, y, z] with finite numbers`);
    }
    return [p[0], p[1], p.length === 3 ? p[2] : 0];
  });
  if (pts.length < 2) throw new Error('a chain needs at least two points');
  return pts;
}

function load(pts: V3[], source: string, explicitThickness = false): void {
  stopMonteCarlo();
  P = pts;
  stopper = null;
  folder = null;
  if (!explicitThickness) {
    thickness = defaultThickness(pts);
    thickIn.value = String(thickness);
  }
  joint = Math.min(Math.max(1, joint), Math.max(1, P.length - 2));
  refresh();
  frame();
  const n = contacts?.count ?? 0;
  status(stat, `Loaded ${P.length - 1} segments from ${source} (thickness ${fmt(thickness, 4)})${n > 0 ? `; ${n} contacts` : ''}.`, n > 0 ? 'bad' : 'ok');
  writeUrl();
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random chain: each segment appended only if it touches nothing (up to 30 tries each). */
function randomChain(n: number, seed: number): void {
  const rnd = mulberry32(seed);
  const len = num(lenIn, 10);
  P = [[0, 0, 0], [len, 0, 0]];
  const t0 = performance.now();
  let fails = 0;
  while (P.length - 1 < n && fails < 30) {
    if (append(len, (15 + 70 * rnd()) * DEG, 360 * rnd() * DEG)) fails = 0;
    else fails++;
  }
  stopper = null;
  folder = null;
  joint = Math.max(1, Math.floor((P.length - 1) / 2));
  refresh();
  frame();
  status(stat, `Random chain (seed ${seed}): ${P.length - 1} segments, each checked before it was added (${(performance.now() - t0).toFixed(0)} ms)${P.length - 1 < n ? '; stopped early: no free direction' : ''}.`, 'ok');
}

function readUrl(): void {
  const q = new URLSearchParams(location.search);
  const t = Number(q.get('thickness'));
  const explicit = q.has('thickness') && Number.isFinite(t) && t >= 0;
  if (explicit) thickness = t;
  thickIn.value = String(thickness);
  const j = Number(q.get('joint'));
  if (q.has('joint') && Number.isInteger(j)) joint = j;
  const chain = q.get('chain');
  if (chain !== null) {
    try {
      load(parsePoints(chain), 'the URL', explicit);
      return;
    } catch (e) {
      status(stat, `?chain=: ${(e as Error).message}`, 'bad');
    }
  }
  if (q.has('big')) {
    const n = Math.min(Math.max(2, Math.floor(Number(q.get('big')) || 100_000)), 1_000_000);
    bigChain(n, Number(q.get('seed')) || 1);
    return;
  }
  if (q.has('random')) {
    const n = Math.min(Math.max(2, Math.floor(Number(q.get('random')) || 300)), 20000);
    countIn.value = String(n);
    randomChain(n, Number(q.get('seed')) || 1);
    return;
  }
  P = [[0, 0, 0], [10, 0, 0]];
  for (let k = 0; k < 10; k++) append(10, 35 * DEG, 70 * DEG);
  joint = Math.min(Math.max(1, joint), P.length - 2);
  refresh();
  frame();
}

// ---- mouse: drag a vertex to fold at the joint before it -----------------------------------------
const canvas = stage.renderer.domElement;
const raycaster = new THREE.Raycaster();
const plane = new THREE.Plane();
let dragging = -1;
/** The dragged segment's direction when the drag began: the status reports the whole swing from it. */
let dragFrom: V3 = [1, 0, 0];

/** The status of a drag: the whole swing of the dragged segment since the drag began. */
function dragReport(blocked: boolean): void {
  if (dragging < 1) return;
  const k = dragging - 1;
  const d = sub(P[dragging], P[k]);
  const swing = Math.atan2(norm(cross(dragFrom, d)), dot(dragFrom, d)) / DEG;
  const tail = blocked && stopper !== null ? `; stopped at first contact: segments ${stopper.i} and ${stopper.j} (thickness ${fmt(thickness)})` : '';
  status(stat, `Drag at joint ${k}: the segment swung ${fmtDeg(swing)}° in all${tail}.`, blocked ? 'bad' : 'ok');
}

const UP_SCREEN = new THREE.Vector3();
/** The vertex (≥ 1) under the pointer, or −1 (no allocation: it runs on every hover move, over 10⁵ vertices on a big chain). */
function pick(e: PointerEvent): number {
  const r = canvas.getBoundingClientRect();
  const x = e.clientX - r.left, y = e.clientY - r.top;
  let best = -1, bestD = Infinity;
  const up = UP_SCREEN.copy(camera.up).setLength(radius());
  for (let k = 1; k < P.length; k++) {
    const q = P[k];
    const p = V.set(q[0], q[1], q[2]).project(camera);
    if (p.z > 1) continue;
    const sx = ((p.x + 1) / 2) * r.width, sy = ((1 - p.y) / 2) * r.height;
    const e2 = W.set(q[0], q[1], q[2]).add(up).project(camera);
    const pr = Math.max(10, Math.hypot(((e2.x - p.x) / 2) * r.width, ((e2.y - p.y) / 2) * r.height) + 3);
    const d = Math.hypot(x - sx, y - sy);
    if (d <= pr && d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return best;
}

view.addEventListener(
  'pointerdown',
  (e) => {
    if (e.button !== 0) return;
    const k = pick(e);
    if (k < 0) return;
    controls.enabled = false;
    stopMonteCarlo();
    dragging = k;
    joint = k - 1;
    dragFrom = sub(P[k], P[k - 1]);
    pendingDrag = false;
    activity(true);
    // Drag in the plane of the two segments at the joint (a bend), unless it is seen edge-on or
    // Shift is held: then in the plane facing the camera (a bend and a twist at once).
    const toCam = camera.getWorldDirection(new THREE.Vector3()).negate();
    let n: THREE.Vector3 | null = null;
    if (k >= 2 && !e.shiftKey) {
      const c = cross(sub(P[k - 1], P[k - 2]), sub(P[k], P[k - 1]));
      if (norm(c) > 1e-9 * norm(sub(P[k - 1], P[k - 2])) * norm(sub(P[k], P[k - 1]))) {
        n = new THREE.Vector3(...unit(c));
        if (Math.abs(n.dot(toCam)) < 0.3) n = null;
      }
    }
    plane.setFromNormalAndCoplanarPoint(n ?? toCam, V.set(...P[k]));
    canvas.setPointerCapture(e.pointerId);
    view.focus({ preventScroll: true });
    // a big chain held in its folder is contact-free: only the joint's label moves
    if (P.length - 1 > BIG && folder !== null) {
      placeLabels(P);
      readout();
      splitAt(k - 1);
    } else refresh();
  },
  true,
);

/** A drag move on a big chain waiting for the next frame (pointer moves are coalesced to one fold per frame). */
let pendingDrag = false;
const dragPointer = new THREE.Vector2();
const HIT = new THREE.Vector3();

canvas.addEventListener('pointermove', (e) => {
  if (dragging < 0) {
    canvas.style.cursor = pick(e) >= 0 ? 'grab' : '';
    return;
  }
  const r = canvas.getBoundingClientRect();
  dragPointer.set(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1);
  if (P.length - 1 > BIG) {
    pendingDrag = true;
    stage.request();
  } else dragTo(false);
});

/** Folds the dragged vertex towards the pointer's point on the drag plane (big chains: on the folder's tree). */
function dragTo(big: boolean): void {
  raycaster.setFromCamera(dragPointer, camera);
  const hit = raycaster.ray.intersectPlane(plane, HIT);
  if (hit === null) return;
  const k = dragging - 1;
  const d = sub(P[dragging], P[k]);
  const target = sub([hit.x, hit.y, hit.z], P[k]);
  const ax = cross(d, target);
  const s = norm(ax);
  if (!(s > 1e-12 * norm(d) * norm(target))) return;
  if (big) dragFold(k, unit(ax), Math.atan2(s, dot(d, target)));
  else fold(k, unit(ax), Math.atan2(s, dot(d, target)), 'Drag');
}

/** The folder for the current chain (made on first use; null with a status if the chain is in contact). */
function heldChain(): ChainFolder | null {
  if (folder !== null) return folder;
  try {
    folder = createChainFolder(P, { dim: 3, thickness });
  } catch (e) {
    status(stat, (e as Error).message, 'bad');
    return null;
  }
  if (pose.length !== 3 * folder.count) pose = new Float64Array(3 * folder.count);
  return folder;
}

/** Shows a time in ms: 3 decimals below 1 ms, 1 above. */
const ms = (t: number): string => (t < 1 ? t.toFixed(3) : t.toFixed(1));

/**
 * A drag step on a big chain: a continuous fold on the folder's tree (ChainFolder.fold: the
 * motion checked, stopping at the first contact, no rebuild), so the tail follows the pointer
 * until it would touch, and stops there; then the turned tail is read back into the line.
 */
function dragFold(k: number, axis: V3, angle: number): void {
  const f = heldChain();
  if (f === null) return;
  const t0 = performance.now();
  const r = f.fold({ joint: k, angle, axis });
  foldMs = performance.now() - t0;
  stopper = r.blocked ? r.contact : null;
  updateBig(f, r.angle !== 0 ? k + 1 : f.count);
  $('fold-time').textContent = `${ms(foldMs)} ms (fold)`;
  $('fold-out').textContent = r.blocked ? `blocked at ${fmtDeg(r.angle / DEG)}° by ${stopper!.i}–${stopper!.j}` : `${fmtDeg(angle / DEG)}°, free`;
  readout();
  dragReport(r.blocked);
  document.body.dataset.foldMs = foldMs.toFixed(3);
}

// ---- the frame: coalesced drag moves, the Monte Carlo, the page's own timings --------------------
/** Rendered frames per second while something moves (a drag or the Monte Carlo), over windows of ≥ ½ s. */
let fps = 0;
let fpsFrom = 0, fpsFrames = 0, active = false;

/** Starts (true) or ends (false) a stretch of motion whose frame rate is reported. */
function activity(on: boolean): void {
  if (on && !active) {
    fpsFrom = performance.now();
    fpsFrames = stage.stats.frames;
  }
  active = on;
}

/** The page's own figures: in the readout and as body data-* attributes (for scripts and tests). */
function reportFrame(now: number): void {
  if (active && now - fpsFrom >= 500) {
    fps = ((stage.stats.frames - fpsFrames) * 1000) / (now - fpsFrom);
    fpsFrom = now;
    fpsFrames = stage.stats.frames;
  }
  const b = document.body.dataset;
  b.updateMs = updateMs.toFixed(3);
  b.updated = String(updated);
  b.readFrom = String(readFrom);
  b.renderMs = stage.stats.renderMs.toFixed(3);
  b.frames = String(stage.stats.frames);
  b.fps = fps.toFixed(1);
  b.mcBudgetMs = mcBudget.toFixed(1);
  $('frame-time').textContent = `read ${ms(updateMs)} · render ${ms(stage.stats.renderMs)} ms · ${fps.toFixed(1)} fps`;
}

let lastReport = 0;
stage.onFrame((now) => {
  if (pendingDrag && dragging > 0) {
    pendingDrag = false;
    dragTo(true);
  }
  if (stillJoint >= 0 && viewChanged()) splitAt(stillJoint); // a resize or a camera move (F) during the drag
  if (mcRunning) monteCarloStep();
  // the figures a few times a second (writing the DOM every frame would cost frames)
  if ((active && now - lastReport > 200) || now - lastReport > 1000) {
    lastReport = now;
    reportFrame(now);
  }
});

// ---- pivot Monte Carlo ------------------------------------------------------------------------------
let mcRunning = false;
let mcMoves = 0, mcAccepted = 0, mcStart = 0, mcBusy = 0;
const mcRand = mulberry32(12345);
/**
 * Time for pivots in one frame (ms): 8, the rest of a 60 Hz frame left to the redraw; when
 * frames come slower than that (a software GL rasterising on other threads), up to half the
 * interval between the last two frames, at most 25 ms, so the page stays responsive.
 */
const MC_BUDGET = 8, MC_BUDGET_MAX = 25;
let mcLastFrame = 0, mcBudget = MC_BUDGET;

function stopMonteCarlo(): void {
  if (!mcRunning) return;
  mcRunning = false;
  activity(false);
  $('mc').textContent = 'Pivot Monte Carlo';
  writeUrl();
}

const mv = { joint: 0, angle: 0, axis: [0, 0, 1] };
/**
 * One frame of the Monte Carlo: random pivot moves (uniform joint, axis, angle up to a half turn
 * either way) for MC_BUDGET ms, then one read-back of the vertices past the lowest joint that
 * turned, and one redraw.
 */
function monteCarloStep(): void {
  const f = folder;
  if (f === null) return;
  const n = f.count;
  const t0 = performance.now();
  if (mcLastFrame > 0) mcBudget = Math.min(MC_BUDGET_MAX, Math.max(MC_BUDGET, (t0 - mcLastFrame) / 2));
  mcLastFrame = t0;
  let low = n;
  do {
    for (let q = 0; q < 16; q++) {
      mv.joint = Math.min(n - 2, Math.floor(mcRand() * (n - 1)));
      mv.angle = Math.PI * (2 * mcRand() - 1);
      const z = 2 * mcRand() - 1, ph = 2 * Math.PI * mcRand(), r = Math.sqrt(1 - z * z);
      mv.axis[0] = r * Math.cos(ph);
      mv.axis[1] = r * Math.sin(ph);
      mv.axis[2] = z;
      if (f.pivot(mv)) {
        mcAccepted++;
        if (mv.joint + 1 < low) low = mv.joint + 1;
      }
      mcMoves++;
    }
  } while (performance.now() - t0 < mcBudget);
  mcBusy += performance.now() - t0;
  stopper = null;
  updateBig(f, low);
  const secs = (performance.now() - mcStart) / 1000;
  const rate = mcBusy > 0 ? mcMoves / (mcBusy / 1000) : 0;
  const acc = ((100 * mcAccepted) / Math.max(1, mcMoves)).toFixed(1);
  $('mc-rate').textContent = `${Math.round(rate).toLocaleString('en')} moves/s`;
  $('mc-accept').textContent = `${acc}% of ${mcMoves.toLocaleString('en')}`;
  status(stat, `Pivot Monte Carlo: ${mcMoves.toLocaleString('en')} moves in ${secs.toFixed(1)} s, ${acc}% accepted.`, 'ok');
}

function toggleMonteCarlo(): void {
  if (mcRunning) {
    stopMonteCarlo();
    return;
  }
  if (heldChain() === null) return;
  mcRunning = true;
  mcMoves = mcAccepted = 0;
  mcBusy = 0;
  mcStart = performance.now();
  mcLastFrame = 0;
  mcBudget = MC_BUDGET;
  activity(true);
  $('mc').textContent = 'Stop';
  stage.request();
}

/** A big chain: a random walk of n unit steps (contact-free at thickness 0), held in a folder. */
function bigChain(n: number, seed: number): void {
  stopMonteCarlo();
  const rnd = mulberry32(seed);
  const t0 = performance.now();
  const pts: V3[] = [[0, 0, 0]];
  for (let k = 0; k < n; k++) {
    const z = 2 * rnd() - 1, ph = 2 * Math.PI * rnd(), r = Math.sqrt(1 - z * z);
    const p = pts[k];
    pts.push([p[0] + r * Math.cos(ph), p[1] + r * Math.sin(ph), p[2] + z]);
  }
  thickness = 0;
  thickIn.value = '0';
  P = pts;
  stopper = null;
  folder = null;
  joint = Math.max(1, n >> 1);
  refresh();
  frame();
  const held = heldChain();
  status(stat, `Big chain (seed ${seed}): a random walk of ${n.toLocaleString('en')} unit steps at thickness 0${held === null ? '' : ', held for pivots'} (${(performance.now() - t0).toFixed(0)} ms). Drag a vertex, or run the pivot Monte Carlo.`, held === null ? 'bad' : 'ok');
  writeUrl();
}
const endDrag = (): void => {
  if (dragging < 0) return;
  // the last move of the drag is not lost to the coalescing
  if (pendingDrag) {
    pendingDrag = false;
    dragTo(true);
  }
  dragging = -1;
  unsplit();
  activity(false);
  controls.enabled = true;
};
canvas.addEventListener('pointerup', endDrag);
canvas.addEventListener('pointercancel', endDrag);

// ---- controls and keys ------------------------------------------------------------------------
function doAppend(): void {
  const len = num(lenIn, 10), bend = num(bendIn, 35), tw = num(twistIn, 70);
  if (!(len > 0)) {
    status(stat, 'The length must be positive.', 'bad');
    return;
  }
  stopMonteCarlo();
  if (append(len, Math.min(Math.max(bend, 0), 179.9) * DEG, tw * DEG)) {
    stopper = null;
    folder = null;
    status(stat, `Appended segment ${P.length - 2}.`, 'ok');
    refresh();
    writeUrl();
  } else {
    status(stat, 'Not appended: the new segment would touch the chain (nothing changed).', 'bad');
  }
}
$('append').addEventListener('click', doAppend);
$('undo').addEventListener('click', () => {
  stopMonteCarlo();
  const removed = P.length > 2;
  if (removed) P.pop();
  stopper = null;
  folder = null;
  joint = Math.min(joint, Math.max(1, P.length - 2));
  refresh();
  status(stat, removed ? `Removed segment ${P.length - 1}; ${P.length - 1} segments left.` : 'Nothing removed: a chain keeps at least one segment.', removed ? 'ok' : 'bad');
  writeUrl();
});
$('clear').addEventListener('click', () => {
  stopMonteCarlo();
  P = [[0, 0, 0], [num(lenIn, 10), 0, 0]];
  stopper = null;
  folder = null;
  joint = 1;
  refresh();
  frame();
  writeUrl();
});
$('random').addEventListener('click', () => randomChain(Math.min(Math.max(2, Math.floor(num(countIn, 300))), 20000), Math.floor(Math.random() * 1e6)));
jointIn.addEventListener('change', () => {
  joint = Math.min(Math.max(1, Math.floor(num(jointIn, 1))), Math.max(1, P.length - 2));
  refresh();
});
$('bend-plus').addEventListener('click', () => foldKey('bend', 1));
$('bend-minus').addEventListener('click', () => foldKey('bend', -1));
$('twist-plus').addEventListener('click', () => foldKey('twist', 1));
$('twist-minus').addEventListener('click', () => foldKey('twist', -1));
/** After a thickness change: the contacts at the new thickness, named in the status. */
function thicknessChanged(): void {
  stopMonteCarlo();
  stopper = null;
  folder = null;
  refresh();
  const n = contacts?.count ?? 0;
  status(stat, `Thickness ${fmt(thickness, 4)}: ${n === 0 ? 'no contacts' : `${n} contact${n === 1 ? '' : 's'}`}.`, n > 0 ? 'bad' : 'ok');
  writeUrl();
}
thickIn.addEventListener('input', () => {
  thickness = num(thickIn, 1);
  thicknessChanged();
});
$('mc').addEventListener('click', toggleMonteCarlo);
$('big').addEventListener('click', () => {
  const seed = Math.floor(Math.random() * 1e6);
  if (bigPage) bigChain(100_000, seed);
  else location.assign(`${location.pathname}?big=100000&seed=${seed}`); // a page without multisampling
});
$('save').addEventListener('click', () => {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([JSON.stringify({ points: P, thickness }, null, 1)], { type: 'application/json' }));
  a.download = 'chain.json';
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
});
async function loadFile(f: File): Promise<void> {
  try {
    load(parsePoints(await f.text()), f.name);
  } catch (e) {
    status(stat, `${f.name}: ${(e as Error).message}`, 'bad');
  }
}
$<HTMLInputElement>('file').addEventListener('change', (e) => {
  const f = (e.target as HTMLInputElement).files?.[0];
  if (f !== undefined) void loadFile(f);
});
view.addEventListener('dragover', (e) => e.preventDefault());
view.addEventListener('drop', (e) => {
  e.preventDefault();
  const f = e.dataTransfer?.files[0];
  if (f !== undefined) void loadFile(f);
});

window.addEventListener('keydown', (e) => {
  if (isTyping(e) || e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key;
  if (k === 'a' || k === 'A' || (k === 'Enter' && e.target === view)) doAppend();
  else if (k === 'Backspace' || k === 'Delete') $('undo').click();
  else if (k === '[' || k === ']') {
    joint = Math.min(Math.max(1, joint + (k === ']' ? 1 : -1)), Math.max(1, P.length - 2));
    refresh();
  } else if (k === 'ArrowUp') foldKey('bend', 1);
  else if (k === 'ArrowDown') foldKey('bend', -1);
  else if (k === 'ArrowRight') foldKey('twist', 1);
  else if (k === 'ArrowLeft') foldKey('twist', -1);
  else if (k === '+' || k === '=' || k === '-' || k === '_') {
    thickness = Math.min(Math.max(0, thickness + (k === '+' || k === '=' ? 0.1 : -0.1)), 6);
    thickness = Number(thickness.toFixed(2));
    thickIn.value = String(thickness);
    thicknessChanged();
  } else if (k === 'n' || k === 'N') $('random').click();
  else if (k === 'f' || k === 'F') frame();
  else return;
  e.preventDefault();
});

// ---- start ------------------------------------------------------------------------------------
readUrl();
document.body.dataset.ready = 'true';
