/** intersect: exact yes/no answers — do two primitives share a point, are points collinear or coplanar, where do 2D segments meet. */
export { intersects, intersectsSegments2, intersectsSegments3, collinear, coplanar } from './intersects.js';
export { segmentIntersection2D } from './segment-2d.js';
export type { Point2, SegmentIntersection2D, SegmentsApart, SegmentsMeetAtPoint, SegmentsOverlap } from './segment-2d.js';
