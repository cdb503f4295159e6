/**
 * The documents' worked cases through the library API (`npm run example`).
 */
import {
  closestPoints,
  intersectLineSegments,
  intersects,
  ray,
  segment,
  segmentDistance,
  segmentIntersection2D,
} from '../src/index.js';

const show = (title: string, value: unknown): void => console.log(`${title}\n  ${JSON.stringify(value)}\n`);

// Rhodes, "Fast, Robust Intersection of 3D Line Segments" (GPG2 §2.3)
const r = closestPoints(segment([0, 0, 0], [1, 0, 0]), segment([1, 0, 1], [1, 1, 1]));
show('Rhodes: A=(0,0,0)–(1,0,0), B=(1,0,1)–(1,1,1) → C=(1,0,0), D=(1,0,1), P=(1,0,0.5)', {
  c: r.c, d: r.d, p: r.p, vector: r.vector, distance: r.distance, relation: r.relation,
});
// The gem's infinite-lines switch on one pair, off and on: B = (2,−1,1)–(2,1,1) passes beyond A's end
const gs = intersectLineSegments([0, 0, 0], [1, 0, 0], [2, -1, 1], [2, 1, 1]);
show('Rhodes: A=(0,0,0)–(1,0,0), B=(2,-1,1)–(2,1,1) as segments → C=(1,0,0), D=(2,0,1)', { c: gs.c, d: gs.d, withinSegments: gs.withinSegments });
const g = intersectLineSegments([0, 0, 0], [1, 0, 0], [2, -1, 1], [2, 1, 1], { infiniteLines: true });
show('Rhodes: the same call with the infinite-lines switch → C=(2,0,0), D=(2,0,1), outside the segments', { c: g.c, d: g.d, withinSegments: g.withinSegments });

// The 2D tutorial: P1=(4,7), v1=(12,−4), P2=(1,1), v2=(16,4) → t1 = t2 = 3/4, I = (13,4)
show('Tutorial: segmentIntersection2D((4,7),(16,3),(1,1),(17,5))', segmentIntersection2D([4, 7], [16, 3], [1, 1], [17, 5]));
show('Tutorial: intersects() decides it exactly', intersects(segment([4, 7], [16, 3]), segment([1, 1], [17, 5])));

// Document 003: the shortest ray between two rays
const rr = closestPoints(ray([0, 0, 0], [1, 0, 0]), ray([2, -1, 3], [0, 2, 0]));
show('Rays: the shortest ray from ray 1 to ray 2 (position, direction; |direction| = distance)', {
  position: rr.c, direction: rr.vector, distance: rr.distance,
});

// Document 002: segdis in R^n
show('Boes: segdis in 4D', segmentDistance([0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 1], [1, 1, 0, 1]));

// Nearly parallel, far from the origin: where classic formulas lose every digit
const off = 1e9;
const near = closestPoints(segment([off, off, off], [off + 1, off, off]), segment([off, off + 2 ** -20, off], [off + 1, off + 2 ** -20, off + 2 ** -22]));
show('Nearly parallel segments (2.4e-7 rad) 1e9 from the origin: exact distance 2^-20 = 9.5367431640625e-7', { distance: near.distance, relation: near.relation });
