/**
 * The chain page's access to the library's continuous fold check, `foldChain` (issue 9: "Folding
 * a chain without passing through itself"). It is being built on another branch; until it is
 * merged into main this module exports null and the page says folding is not available yet.
 */

/** What the page passes to foldChain. */
export interface FoldOptions {
  dim: 3;
  joint: number;
  angle: number;
  axis: [number, number, number];
  thickness: number;
}

/** What foldChain returns (for an array of points: new arrays). */
export interface Fold {
  angle: number;
  blocked: boolean;
  contact: { i: number; j: number } | null;
  points: number[][];
}

export const foldChain: ((points: readonly (readonly number[])[], options: FoldOptions) => Fold) | null = null;
