/**
 * Where the last parallel call spent its time (for the benchmark's scaling table; not part of
 * the public API).
 */
export const parallelStats = {
  /** Threads the last call used, the calling thread included. */
  threads: 1,
  /** Its wall time, ms. */
  wallMs: 0,
  /** Time on the calling thread while no worker ran, ms (Amdahl's serial part). */
  serialMs: 0,
  set(threads: number, wallMs: number, serialMs: number): void {
    this.threads = threads;
    this.wallMs = wallMs;
    this.serialMs = serialMs;
  },
};
