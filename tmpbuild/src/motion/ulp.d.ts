/** The next double above x ≥ 0 (finite). */
export declare function nextUp(x: number): number;
/** The next double below x > 0 (finite); −MIN_VALUE for 0. */
export declare function nextDown(x: number): number;
