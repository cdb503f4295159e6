/**
 * The chain page's fold: the library's continuous fold check, `foldChain` (it turns the part of
 * the chain beyond a joint and stops at the first contact on the way, not only at the end).
 */
import type { FoldResult } from '../../src/index.js';

export { foldChain } from '../../src/index.js';

/** What foldChain returns for an array of points. */
export type Fold = FoldResult<number[][]>;
