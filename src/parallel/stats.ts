/**
 * Where the last parallel call spent its time and CPU (for the benchmark's scaling table; not
 * part of the public API).
 *
 * Wall times mean little on a machine whose cores other processes share: a thread that waits
 * for a core is not working. CPU time per thread does not depend on the load (much), so the
 * benchmark reports it beside the wall time: the sum over threads against one thread's (the
 * parallel overhead), the calling thread's CPU outside its share of the work (Amdahl's serial
 * part), and the busiest thread (the critical path an idle machine would give).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { Reply } from './pool.js';

/** Per-thread CPU of one call, when {@link parallelStats}.measureCpu is on. */
export interface CpuSplit {
  /** CPU ms of each thread during the call: the calling thread first, then each worker (summed over its jobs of the call). */
  threadMs: number[];
  /** CPU ms of the calling thread outside its own share of the parallel work (preparing, cutting ranges, building the result). */
  serialMs: number;
}

export const parallelStats = {
  /** Threads the last call used, the calling thread included. */
  threads: 1,
  /** Its wall time, ms. */
  wallMs: 0,
  /** Time on the calling thread while no worker ran, ms (Amdahl's serial part, by the wall clock). */
  serialMs: 0,
  /**
   * Measure each thread's CPU time (Linux: /proc/thread-self/schedstat, which the kernel brings
   * up to date at each context switch and scheduler tick, so one reading may lag by a tick, a
   * few ms; read once at each end of a job). Off by default: it costs a few file reads a call.
   */
  measureCpu: false,
  /** The last call's CPU split (null when measureCpu was off or the clock is unavailable). */
  cpu: null as CpuSplit | null,
  set(threads: number, wallMs: number, serialMs: number, cpu: CpuSplit | null = null): void {
    this.threads = threads;
    this.wallMs = wallMs;
    this.serialMs = serialMs;
    this.cpu = cpu;
  },
};

let fd = -2;
const buf = new Uint8Array(64);

/**
 * CPU time of the calling thread in ms (its run time as the Linux scheduler counts it), or NaN
 * where /proc/thread-self/schedstat cannot be read. Each thread opens the file once and keeps it
 * (a worker's descriptor closes with the worker).
 */
export function threadCpuMs(): number {
  if (fd === -2) {
    try {
      fd = openSync('/proc/thread-self/schedstat', 'r');
    } catch {
      fd = -1;
    }
  }
  if (fd < 0) return NaN;
  try {
    const n = readSync(fd, buf, 0, buf.length, 0);
    let ns = 0;
    for (let k = 0; k < n && buf[k] >= 48 && buf[k] <= 57; k++) ns = ns * 10 + (buf[k] - 48);
    return ns / 1e6;
  } catch {
    closeSync(fd);
    fd = -1;
    return NaN;
  }
}

/**
 * The CPU split of a call from the calling thread's CPU during the call (`mainMs`), its CPU in
 * its own share of the work (`ownMs`), and the workers' replies (their CPU summed per thread);
 * null when the clock is unavailable or a reply lacks its CPU.
 */
export function cpuSplit(mainMs: number, ownMs: number, replies: readonly Reply[]): CpuSplit | null {
  if (!(mainMs >= 0) || !(ownMs >= 0)) return null;
  const per = new Map<number, number>();
  for (const r of replies) {
    if (r.cpu === undefined || r.thread === undefined || !(r.cpu >= 0)) return null;
    per.set(r.thread, (per.get(r.thread) ?? 0) + r.cpu);
  }
  return { threadMs: [mainMs, ...per.values()], serialMs: Math.max(0, mainMs - ownMs) };
}
