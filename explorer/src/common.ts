/**
 * What the three pages share: DOM lookups, number formatting, and a Three.js stage (renderer,
 * camera, orbit controls, HTML labels) that renders on demand and follows its container's size.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { CSS2DObject, CSS2DRenderer } from 'three/examples/jsm/renderers/CSS2DRenderer.js';

/** The element with this id; throws if the page lacks it (a build mistake, not a user's). */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`explorer: no element #${id}`);
  return el as T;
}

/** A number for people: up to `digits` significant digits, no trailing zeros, −0 as 0. */
export function fmt(x: number, digits = 6): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e-4 && a < 1e7) return String(Number(x.toPrecision(digits)));
  return x.toExponential(Math.max(0, digits - 3)).replace(/\.?0+e/, 'e');
}

/** A vector for people: (x, y, z) with {@link fmt}. */
export function fmtVec(v: ArrayLike<number>, digits = 6): string {
  return `(${Array.from(v, (x) => fmt(x, digits)).join(', ')})`;
}

/** True when a key event belongs to a form control (typing a number must not move the scene). */
export function isTyping(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  if (t === null) return false;
  const tag = t.tagName;
  return tag === 'INPUT' && (t as HTMLInputElement).type !== 'checkbox' && (t as HTMLInputElement).type !== 'range' || tag === 'TEXTAREA' || tag === 'SELECT' || t.isContentEditable;
}

/** Sets a status line: a message, styled ok / bad / plain. */
export function status(el: HTMLElement, text: string, kind: 'ok' | 'bad' | '' = ''): void {
  el.textContent = text;
  el.className = `status${kind === '' ? '' : ` ${kind}`}`;
}

/** A canvas sized to its CSS box times the device pixel ratio; returns the 2D context, scaled to CSS pixels. */
export function fitCanvas(canvas: HTMLCanvasElement, aspect: number | null): CanvasRenderingContext2D {
  const dpr = Math.min(window.devicePixelRatio || 1, 2);
  const w = Math.max(1, canvas.clientWidth);
  const h = aspect === null ? Math.max(1, canvas.clientHeight) : Math.round(w * aspect);
  if (aspect !== null) canvas.style.height = `${h}px`;
  const W = Math.round(w * dpr), H = Math.round(h * dpr);
  if (canvas.width !== W || canvas.height !== H) {
    canvas.width = W;
    canvas.height = H;
  }
  const ctx = canvas.getContext('2d');
  if (ctx === null) throw new Error('explorer: no 2D canvas context');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return ctx;
}

/** A Three.js stage in a container: renders only when asked, resizes with the container. */
export interface Stage {
  scene: THREE.Scene;
  camera: THREE.PerspectiveCamera;
  renderer: THREE.WebGLRenderer;
  controls: OrbitControls;
  /** Marks the scene for a redraw at the next animation frame. */
  request(): void;
  /** Runs `fn` before every drawn frame (for animations: call request() from it to keep going). */
  onFrame(fn: (now: number) => void): void;
  /** A text label that follows a 3D object; `testid` makes it findable by tests. */
  label(text: string, color: string, testid?: string): CSS2DObject;
  /** Points the camera at a box so all of it is in view. */
  frame(box: THREE.Box3): void;
  /** Frames drawn so far, and the time of the last one's render calls (ms, main thread: the GPU's share is not in it). */
  readonly stats: { frames: number; renderMs: number };
}

/**
 * Builds a stage in `container` (which must be positioned; its children overlay the canvas).
 * `antialias` (default true): multisampling, which a software GL (SwiftShader) pays for in every
 * frame; a page drawing 10⁵ thin lines may turn it off.
 */
export function createStage(container: HTMLElement, options: { antialias?: boolean } = {}): Stage {
  const renderer = new THREE.WebGLRenderer({ antialias: options.antialias ?? true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  renderer.setClearColor(0x14171c);
  container.prepend(renderer.domElement);
  renderer.domElement.dataset.testid = 'canvas';
  const labels = new CSS2DRenderer();
  labels.domElement.style.position = 'absolute';
  labels.domElement.style.inset = '0';
  labels.domElement.style.pointerEvents = 'none';
  container.append(labels.domElement);

  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(45, 1, 0.01, 5000);
  camera.position.set(6, 5, 9);
  scene.add(new THREE.HemisphereLight(0xdde6ff, 0x30261c, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(5, 10, 7);
  scene.add(sun);
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.enableDamping = false;

  let dirty = true;
  const stats = { frames: 0, renderMs: 0 };
  const hooks: ((now: number) => void)[] = [];
  const request = (): void => {
    dirty = true;
  };
  controls.addEventListener('change', request);

  const resize = (): void => {
    const w = Math.max(1, container.clientWidth), h = Math.max(1, container.clientHeight);
    renderer.setSize(w, h);
    labels.setSize(w, h);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    request();
  };
  new ResizeObserver(resize).observe(container);
  resize();

  const loop = (now: number): void => {
    for (const f of hooks) f(now);
    if (dirty) {
      dirty = false;
      const t0 = performance.now();
      renderer.render(scene, camera);
      labels.render(scene, camera);
      stats.renderMs = performance.now() - t0;
      stats.frames++;
    }
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);

  return {
    scene,
    camera,
    renderer,
    controls,
    request,
    stats,
    onFrame: (fn) => hooks.push(fn),
    label(text, color, testid) {
      const el = document.createElement('div');
      el.className = 'tag3d';
      if (testid !== undefined) el.dataset.testid = testid;
      const span = document.createElement('span');
      span.textContent = text;
      span.style.color = color;
      el.append(span);
      return new CSS2DObject(el);
    },
    frame(box) {
      const c = box.getCenter(new THREE.Vector3());
      const r = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 1e-9);
      const dir = camera.position.clone().sub(controls.target);
      if (dir.lengthSq() === 0) dir.set(0.5, 0.45, 0.75);
      dir.normalize();
      const dist = r / Math.sin((camera.fov * Math.PI) / 360) * (camera.aspect < 1 ? 1.15 / camera.aspect : 1.15);
      controls.target.copy(c);
      camera.position.copy(c).addScaledVector(dir, dist);
      camera.near = dist / 1000;
      camera.far = dist * 100;
      camera.updateProjectionMatrix();
      controls.update();
      request();
    },
  };
}

const UP = new THREE.Vector3(0, 1, 0);

/** Places a unit cylinder (height 1 along y, radius 1) as a rod from p to q of radius r; hides it for p = q. */
export function placeRod(mesh: THREE.Object3D, p: THREE.Vector3, q: THREE.Vector3, r: number): void {
  const d = q.clone().sub(p);
  const len = d.length();
  mesh.visible = len > 0 && Number.isFinite(len);
  if (!mesh.visible) return;
  mesh.position.copy(p).addScaledVector(d, 0.5);
  mesh.quaternion.setFromUnitVectors(UP, d.divideScalar(len));
  mesh.scale.set(r, len, r);
}

/** Shared unit geometries. */
export const ROD = new THREE.CylinderGeometry(1, 1, 1, 16, 1);
export const BALL = new THREE.SphereGeometry(1, 24, 16);
export const CONE = new THREE.ConeGeometry(1, 1, 20, 1);
