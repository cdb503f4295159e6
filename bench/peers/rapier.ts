/**
 * rapier3d's shape cast as the peer for capsule sweeps (@dimforge/rapier3d-compat: the engine
 * compiled to WebAssembly, single precision). A capsule a0a1 with radius r is rapier's Capsule
 * (half height |a1 − a0| / 2 along its local y axis) placed at the segment's midpoint and turned
 * so that its y axis lies along the segment (the shortest-arc quaternion). Capsule A translates
 * with velocity `move` for one time unit (maxToi 1), B rests; `castShape` returns the time of
 * impact or null.
 */
import RAPIER from '@dimforge/rapier3d-compat';

/** Loads the WebAssembly module (once). */
export async function initRapier(): Promise<void> {
  await RAPIER.init();
}

/** A capsule placed for rapier: shape, centre and rotation (made once per capsule, outside timing). */
export interface RapierCapsule {
  shape: RAPIER.Capsule;
  pos: { x: number; y: number; z: number };
  rot: { x: number; y: number; z: number; w: number };
}

/** The rapier capsule of segment a0a1 with radius r (3D). */
export function rapierCapsule(a0: ArrayLike<number>, a1: ArrayLike<number>, r: number): RapierCapsule {
  const dx = a1[0] - a0[0];
  const dy = a1[1] - a0[1];
  const dz = a1[2] - a0[2];
  const len = Math.hypot(dx, dy, dz);
  const pos = { x: (a0[0] + a1[0]) / 2, y: (a0[1] + a1[1]) / 2, z: (a0[2] + a1[2]) / 2 };
  // shortest arc from (0, 1, 0) to the unit direction d: q = (ey × d, 1 + ey·d), normalised
  let rot = { x: 0, y: 0, z: 0, w: 1 };
  if (len > 0) {
    const ux = dx / len, uy = dy / len, uz = dz / len;
    if (uy < -1 + 1e-12) rot = { x: 1, y: 0, z: 0, w: 0 }; // half turn about x
    else {
      const x = uz, y = 0, z = -ux, w = 1 + uy;
      const n = Math.hypot(x, y, z, w);
      rot = { x: x / n, y: y / n, z: z / n, w: w / n };
    }
  }
  return { shape: new RAPIER.Capsule(len / 2, r), pos, rot };
}

const ZERO = { x: 0, y: 0, z: 0 };

/** rapier's first time of impact in [0, 1] of A moving by `move` against resting B, or −1. */
export function rapierCast(a: RapierCapsule, move: { x: number; y: number; z: number }, b: RapierCapsule): number {
  const hit = a.shape.castShape(a.pos, a.rot, move, b.shape, b.pos, b.rot, ZERO, 0, 1, true);
  return hit === null ? -1 : hit.time_of_impact;
}
