/** fold: moving part of a chain rigidly — folding at a joint, stretching a segment — checked continuously, stopping at the first contact. */
export { foldChain } from './fold.js';
export type { FoldOptions, FoldResult, SegmentPair } from './fold.js';
export { stretchChain } from './stretch.js';
export type { StretchOptions, StretchResult } from './stretch.js';
export { createChainFolder } from './folder.js';
export type { ChainFolder, ChainFolderOptions, PivotMove, FolderFoldResult, FolderStretchResult } from './folder.js';
