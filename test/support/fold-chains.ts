/**
 * Seeded chains for the chain folder's tests (test/fold/folder.test.ts), each contact-free at
 * its thickness: random 2D chains (thick), 3D random walks (thin), a straight rod (thick), a
 * helix, an open trefoil knot (its ends apart, so not a ring), and a chain folded onto itself
 * (a hairpin whose two legs run side by side just farther apart than the thickness).
 */
import { chainContacts } from '../../src/index.js';
import { randomChain } from './fold-families.js';
import type { Rng } from './rng.js';
import { randomWalk } from './walks.js';

export interface FolderChain {
  flat: Float64Array;
  dim: number;
  tau: number;
}

export const FOLDER_FAMILIES = ['random2d', 'walk3d', 'rod3d', 'helix', 'trefoil', 'hairpin2d', 'hairpin3d'] as const;

function free(c: FolderChain): boolean {
  return chainContacts(c.flat, { dim: c.dim, thickness: c.tau }).count === 0;
}

/** A seeded contact-free chain of the family, n segments (about). */
export function folderChain(family: string, rng: Rng, n: number): FolderChain {
  for (let tries = 0; ; tries++) {
    const c = make(family, rng, n);
    if (free(c)) return c;
    if (tries > 200) throw new Error(`no contact-free ${family} chain`);
  }
}

function make(family: string, rng: Rng, n: number): FolderChain {
  switch (family) {
    case 'random2d':
      return { flat: randomChain(rng, n, 2, 1.2), dim: 2, tau: rng.uniform(0.01, 0.1) };
    case 'walk3d':
      return { flat: randomWalk(n, 3, rng), dim: 3, tau: 0 };
    case 'rod3d': {
      const flat = new Float64Array((n + 1) * 3);
      for (let k = 0; k <= n; k++) flat[3 * k] = k;
      return { flat, dim: 3, tau: 0.2 };
    }
    case 'helix': {
      const perTurn = 8, radius = rng.uniform(0.8, 1.5), pitch = rng.uniform(0.5, 0.9);
      const flat = new Float64Array((n + 1) * 3);
      for (let i = 0; i <= n; i++) {
        const t = (i / perTurn) * 2 * Math.PI;
        flat[3 * i] = radius * Math.cos(t);
        flat[3 * i + 1] = radius * Math.sin(t);
        flat[3 * i + 2] = (pitch * t) / (2 * Math.PI);
      }
      return { flat, dim: 3, tau: rng.uniform(0, 0.15) };
    }
    case 'trefoil': {
      // (sin t + 2 sin 2t, cos t − 2 cos 2t, −sin 3t), t over a turn less a gap: an open knot
      const flat = new Float64Array((n + 1) * 3);
      const gap = 0.15;
      for (let i = 0; i <= n; i++) {
        const t = gap / 2 + ((2 * Math.PI - gap) * i) / n;
        flat[3 * i] = Math.sin(t) + 2 * Math.sin(2 * t);
        flat[3 * i + 1] = Math.cos(t) - 2 * Math.cos(2 * t);
        flat[3 * i + 2] = -Math.sin(3 * t);
      }
      return { flat, dim: 3, tau: rng.uniform(0, 0.1) };
    }
    case 'hairpin2d':
    case 'hairpin3d': {
      const dim = family === 'hairpin2d' ? 2 : 3;
      const half = n >> 1, gap = rng.uniform(0.05, 0.3), tau = gap * rng.uniform(0.5, 0.999);
      const flat = new Float64Array((2 * half + 2) * dim);
      for (let k = 0; k <= half; k++) flat[k * dim] = k;
      for (let k = 0; k <= half; k++) {
        flat[(half + 1 + k) * dim] = half - k;
        flat[(half + 1 + k) * dim + 1] = gap;
      }
      return { flat, dim, tau };
    }
    default:
      throw new Error(`unknown folder family ${family}`);
  }
}
