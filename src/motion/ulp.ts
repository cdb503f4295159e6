/**
 * Neighbouring doubles, without allocating: the bit pattern is stepped through two 32-bit
 * words (module-level scratch; little-endian word order is checked once).
 */
const f = new Float64Array(1);
const w = new Uint32Array(f.buffer);
f[0] = 1;
const HI = w[1] === 0x3ff00000 ? 1 : 0;
const LO = 1 - HI;

function step(x: number, up: boolean): number {
  f[0] = x;
  if (up) {
    w[LO] = (w[LO] + 1) >>> 0;
    if (w[LO] === 0) w[HI] = (w[HI] + 1) >>> 0;
  } else {
    if (w[LO] === 0) w[HI] = (w[HI] - 1) >>> 0;
    w[LO] = (w[LO] - 1) >>> 0;
  }
  return f[0];
}

/** The next double above x (finite; the magnitude grows for x > 0, shrinks for x < 0). */
export function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  return step(x, x > 0);
}

/** The next double below x (finite); −MIN_VALUE for 0. */
export function nextDown(x: number): number {
  if (x === 0) return -Number.MIN_VALUE;
  return step(x, x < 0);
}
