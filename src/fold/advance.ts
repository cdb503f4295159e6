/**
 * The certified advancement loop shared by foldChain and stretchChain (conservative
 * advancement: B. Mirtich, "Impulse-based dynamic simulation of rigid body systems", 1996,
 * §2.4, with sharper bounds). A motion supplies, for one pair of segments, bounds on the exact
 * distance at a motion parameter φ and the step a separating direction certifies; the loop
 * walks φ from s towards e and returns the first φ it cannot certify clear of the threshold.
 * Internal (not re-exported from the package); not re-entrant (module scratch in the motions).
 */
import { EPS } from '../core/eft.js';

/** One pair under a motion: the bounds the loop needs (see {@link advance}). */
export interface PairMotion {
  /** A lower bound of the exact distance at φ; leaves an upper bound for {@link PairMotion.upper}. */
  lower(phi: number): number;
  /** The upper bound from the last {@link PairMotion.lower} call. */
  upper(): number;
  /** The longest step from φ (the last evaluated) a separating direction certifies above `tauE` (0: none); may stop at `want`. */
  sepStep(phi: number, tauE: number, want: number): number;
}

/**
 * The first φ in [s, e] at which the pair is not certified farther than `tauE` apart
 * (Infinity: all of [s, e] is certified). Each round takes the step the one-point bounds certify
 * — Lipschitz, (D(φ) − tauE) / L with L the most a point moves per unit of φ, and the
 * motion's separating-direction steps ({@link PairMotion.sepStep}; the rotation's include one
 * that turns with the moving segment, which certifies long steps where the distance stays
 * nearly constant and the Lipschitz step would be about the gap over L) — and tries a longer one with two-point bounds: Lipschitz from both
 * ends (min ≥ (D(φ) + D(φ + h) − L·h) / 2), or the chord bound on the squared distance, whose
 * second derivative is at most 8·K8 (so over the interval it is at least the smaller end value
 * minus K8·h²). Trials double after a success and shrink after a failure; near a transversal
 * contact this converges like bisection, near a tangential one the separating direction lands
 * at the rounding floor in a few steps. `tau` is the contact distance itself: a trial whose
 * upper bound falls below it caps later trials.
 */
export function advance(pm: PairMotion, s: number, e: number, tau: number, tauE: number, L: number, K8: number): number {
  let phi = s;
  let d0 = pm.lower(phi);
  if (!(d0 > tauE)) return phi;
  let hTry = 0;
  let hi = Infinity;
  let stuck = 0;
  for (let it = 0; it < 20000; it++) {
    const hl = (d0 - tauE) / L;
    const hs = pm.sepStep(phi, tauE, e - phi);
    const hc = hl > hs ? hl : hs;
    if (phi + hc >= e) return Infinity;
    let trial = hTry > 2 * hc ? hTry : 2 * hc;
    if (phi + trial > e) trial = e - phi;
    if (phi + trial >= hi) trial = (hi - phi) * 0.5;
    if (trial > hc) {
      const t = phi + trial;
      const d1 = pm.lower(t);
      const step = t - phi;
      let ok = (d0 + d1 - L * step) * 0.5 > tauE;
      if (!ok && d1 > tauE) {
        const mm = d0 < d1 ? d0 : d1;
        ok = (mm - tauE) * (mm + tauE) * (1 - 8 * EPS) > K8 * step * step * (1 + 8 * EPS);
      }
      if (ok && t > phi) {
        phi = t;
        d0 = d1;
        hTry = 2 * step;
        continue;
      }
      if (pm.upper() < tau) hi = t;
      hTry = trial * 0.25;
    }
    // Steps below 2⁻⁴⁰ (per unit of φ) mean the pair sits at the rounding floor: a few such
    // steps are allowed (they are certified), then the pair stops there.
    const tiny = (1 + phi) * 2 ** -40;
    if (hc <= tiny) {
      if (hTry <= tiny || ++stuck > 16) return phi;
      if (hc <= 0) continue;
    } else stuck = 0;
    phi += hc;
    d0 = pm.lower(phi);
    if (!(d0 > tauE)) return phi;
  }
  return phi;
}
