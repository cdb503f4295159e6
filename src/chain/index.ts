/** chain: which segments of a polygonal chain (or of two chains) come within a thickness of each other, decided exactly. */
export { chainContacts, chainCollisions } from './contacts.js';
export type { ChainOptions, ChainContacts } from './contacts.js';
export type { ChainPoints } from './input.js';
export { foldChain } from './fold.js';
export type { FoldOptions, FoldResult, SegmentPair } from './fold.js';
export { stretchChain } from './stretch.js';
export type { StretchOptions, StretchResult } from './stretch.js';
