/** chain: which segments of a polygonal chain (or of two chains) come within a thickness of each other, decided exactly; where planar chains cross. */
export { chainContacts, chainCollisions, multiChainContacts } from './contacts.js';
export type { ChainOptions, ChainContactsOptions, ChainContacts, MultiChainOptions, MultiChainContacts } from './contacts.js';
export { chainIntersections, POINT_CONTACT, OVERLAP_CONTACT } from './points.js';
export type { ChainIntersections, ChainIntersectionOptions } from './points.js';
export { contactKind, NO_CONTACT, CROSSING, VERTEX_TOUCH, T_JUNCTION, OVERLAP, CONTACT_KIND_NAMES } from './classify.js';
export type { ContactKindName } from './classify.js';
export type { ChainPoints } from './input.js';
export { releaseChainMemory } from './scratch.js';
