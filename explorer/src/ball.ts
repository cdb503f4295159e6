/**
 * The kicker page's access to the library's `bounceBall` (issue 10: "Moving objects"). It is
 * being built on another branch; until it is merged into main this module exports null and the
 * page runs the naive ball only, saying so.
 */

/** The ball as bounceBall takes it. */
export interface Ball {
  position: readonly number[];
  velocity: readonly number[];
  radius: number;
}

/** What bounceBall returns. */
export interface Bounce {
  position: number[];
  velocity: number[];
  hits: { time: number; wall: number; point: number[]; normal: number[]; position: number[]; velocity: number[] }[];
}

export const bounceBall: ((ball: Ball, walls: Float64Array, dt: number, options: { restitution: number }) => Bounce) | null = null;
