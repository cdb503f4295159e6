/** closest: where two primitives come closest — nearest points, parameters, distance and relation, in any dimension. */
export { closestPoints, createClosestResult, segmentDistance, intersectLineSegments, pointAt } from './closest.js';
export { segmentsWithin } from './within.js';
export { closestFlat, OUT_S, OUT_T, OUT_DIST, OUT_REL, OUT_FLAGS, OUT_VEC } from './kernel.js';
export { closestSegSeg2, closestSegSeg3, closestSegSegN } from './segment-kernels.js';
