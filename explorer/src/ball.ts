/**
 * The kicker page's ball: the library's `bounceBall` (motion: a ball that never tunnels), and
 * the types the page uses with it.
 */
export { bounceBall } from '../../src/index.js';
export type { Ball, BounceResult } from '../../src/index.js';
