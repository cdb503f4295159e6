/**
 * Peer: the 3D chain search as a strong engineer would write it with a uniform grid (issue 16's
 * baseline), for speed comparisons only.
 *
 * - Each segment's box, inflated by half the thickness τ, goes into every cell it overlaps. The
 *   cell size is the largest box extent plus τ, so an inflated box spans at most two cells per
 *   axis: at most 8 cells.
 * - Cells are hashed into an open-addressing table with twice as many slots as insertions; the
 *   key is the cell's Morton code (10 bits per axis, interleaved), and the slot is the key's low
 *   bits, so that cells near in space sit near in the table and the pass over the table visits
 *   them roughly in Morton order. Segments are listed per slot with a counting sort (no
 *   allocation per cell).
 * - In each slot, every pair passes a box test (inflated boxes overlap) and is tested only in
 *   the cell that holds the minimum corner of the two boxes' intersection (so once).
 * - The narrow phase is the plain double-precision segment distance (Ericson, Real-Time
 *   Collision Detection, 2005, §5.1.9), compared squared with τ².
 * Cells more than 1024 apart on an axis share a Morton key (the coordinates wrap): they share a
 * slot, the box test and the reference-cell test (on wrapped keys) keep the count right.
 */

/** Spreads the low 10 bits of x to every third bit (bit k to bit 3k). */
function spread3(x: number): number {
  x &= 0x3ff;
  x = (x | (x << 16)) & 0x030000ff;
  x = (x | (x << 8)) & 0x0300f00f;
  x = (x | (x << 4)) & 0x030c30c3;
  x = (x | (x << 2)) & 0x09249249;
  return x;
}

/** Morton code of cell (x, y, z), each wrapped to 10 bits: 30 bits. */
function morton3(x: number, y: number, z: number): number {
  return spread3(x) | (spread3(y) << 1) | (spread3(z) << 2);
}

/** Squared distance between segments i and j of the 3D vertex array P (Ericson §5.1.9, doubles, the book's logic). */
function segDist2(P: Float64Array, i: number, j: number): number {
  const a = 3 * i, b = 3 * j;
  const p1x = P[a], p1y = P[a + 1], p1z = P[a + 2];
  const d1x = P[a + 3] - p1x, d1y = P[a + 4] - p1y, d1z = P[a + 5] - p1z;
  const p2x = P[b], p2y = P[b + 1], p2z = P[b + 2];
  const d2x = P[b + 3] - p2x, d2y = P[b + 4] - p2y, d2z = P[b + 5] - p2z;
  const rx = p1x - p2x, ry = p1y - p2y, rz = p1z - p2z;
  const aa = d1x * d1x + d1y * d1y + d1z * d1z;
  const e = d2x * d2x + d2y * d2y + d2z * d2z;
  const f = d2x * rx + d2y * ry + d2z * rz;
  let s: number, t: number;
  if (aa === 0 && e === 0) {
    s = 0;
    t = 0;
  } else if (aa === 0) {
    s = 0;
    t = Math.min(1, Math.max(0, f / e));
  } else {
    const c = d1x * rx + d1y * ry + d1z * rz;
    if (e === 0) {
      t = 0;
      s = Math.min(1, Math.max(0, -c / aa));
    } else {
      const bb = d1x * d2x + d1y * d2y + d1z * d2z;
      const denom = aa * e - bb * bb;
      s = denom !== 0 ? Math.min(1, Math.max(0, (bb * f - c * e) / denom)) : 0;
      t = (bb * s + f) / e;
      if (t < 0) {
        t = 0;
        s = Math.min(1, Math.max(0, -c / aa));
      } else if (t > 1) {
        t = 1;
        s = Math.min(1, Math.max(0, (bb - c) / aa));
      }
    }
  }
  const x = rx + d1x * s - d2x * t, y = ry + d1y * s - d2y * t, z = rz + d1z * s - d2z * t;
  return x * x + y * y + z * z;
}

/** Number of non-adjacent pairs (|i − j| ≥ 2) of the open 3D chain P (m segments) whose distance is ≤ tau, in doubles. */
export function mortonGridChainContacts(P: Float64Array, m: number, tau: number): number {
  const half = tau / 2;
  const box = new Float64Array(6 * m);
  let ext = 0;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity;
  for (let c = 0, v = 0, o = 0; c < m; c++, v += 3, o += 6) {
    const ax = P[v], ay = P[v + 1], az = P[v + 2], bx = P[v + 3], by = P[v + 4], bz = P[v + 5];
    const lx = Math.min(ax, bx), ly = Math.min(ay, by), lz = Math.min(az, bz);
    const hx = Math.max(ax, bx), hy = Math.max(ay, by), hz = Math.max(az, bz);
    ext = Math.max(ext, hx - lx, hy - ly, hz - lz);
    box[o] = lx - half;
    box[o + 1] = ly - half;
    box[o + 2] = lz - half;
    box[o + 3] = hx + half;
    box[o + 4] = hy + half;
    box[o + 5] = hz + half;
    x0 = Math.min(x0, box[o]);
    y0 = Math.min(y0, box[o + 1]);
    z0 = Math.min(z0, box[o + 2]);
  }
  const h = ext + tau;
  const inv = 1 / h;
  // Each segment's cell range (at most two cells per axis).
  const cell = new Int32Array(6 * m);
  let entries = 0;
  for (let c = 0, o = 0; c < m; c++, o += 6) {
    const cx = Math.floor((box[o] - x0) * inv), cy = Math.floor((box[o + 1] - y0) * inv), cz = Math.floor((box[o + 2] - z0) * inv);
    const ex = Math.floor((box[o + 3] - x0) * inv), ey = Math.floor((box[o + 4] - y0) * inv), ez = Math.floor((box[o + 5] - z0) * inv);
    cell[o] = cx;
    cell[o + 1] = cy;
    cell[o + 2] = cz;
    cell[o + 3] = ex;
    cell[o + 4] = ey;
    cell[o + 5] = ez;
    entries += (ex - cx + 1) * (ey - cy + 1) * (ez - cz + 1);
  }
  let size = 1;
  while (size < 2 * entries) size *= 2;
  const mask = size - 1;
  const keys = new Int32Array(size).fill(-1);
  const count = new Int32Array(size + 1);
  const slotOf = (key: number): number => {
    let s = key & mask;
    while (keys[s] !== key && keys[s] !== -1) s = (s + 1) & mask;
    keys[s] = key;
    return s;
  };
  for (let c = 0, o = 0; c < m; c++, o += 6) {
    for (let z = cell[o + 2]; z <= cell[o + 5]; z++) {
      for (let y = cell[o + 1]; y <= cell[o + 4]; y++) {
        for (let x = cell[o]; x <= cell[o + 3]; x++) count[slotOf(morton3(x, y, z)) + 1]++;
      }
    }
  }
  for (let s = 0; s < size; s++) count[s + 1] += count[s];
  const fill = count.slice(0, size);
  const items = new Int32Array(entries);
  for (let c = 0, o = 0; c < m; c++, o += 6) {
    for (let z = cell[o + 2]; z <= cell[o + 5]; z++) {
      for (let y = cell[o + 1]; y <= cell[o + 4]; y++) {
        for (let x = cell[o]; x <= cell[o + 3]; x++) items[fill[slotOf(morton3(x, y, z))]++] = c;
      }
    }
  }
  const tau2 = tau * tau;
  let found = 0;
  for (let s = 0; s < size; s++) {
    const a0 = count[s], a1 = count[s + 1];
    if (a1 - a0 < 2) continue;
    const key = keys[s];
    for (let p = a0; p < a1; p++) {
      const i = items[p];
      const oi = 6 * i;
      const lx = box[oi], ly = box[oi + 1], lz = box[oi + 2], hx = box[oi + 3], hy = box[oi + 4], hz = box[oi + 5];
      for (let q = p + 1; q < a1; q++) {
        const j = items[q];
        if (j - i < 2 && i - j < 2) continue;
        const oj = 6 * j;
        if (box[oj] > hx || box[oj + 3] < lx || box[oj + 1] > hy || box[oj + 4] < ly || box[oj + 2] > hz || box[oj + 5] < lz) continue;
        // Tested only in the cell of the intersection's minimum corner.
        const mx = Math.max(lx, box[oj]), my = Math.max(ly, box[oj + 1]), mz = Math.max(lz, box[oj + 2]);
        if (morton3(Math.floor((mx - x0) * inv), Math.floor((my - y0) * inv), Math.floor((mz - z0) * inv)) !== key) continue;
        if (segDist2(P, i, j) <= tau2) found++;
      }
    }
  }
  return found;
}
