/**
 * A per-call timeline of a parallel chain search (for the probe bench/batch/parallel-timeline.ts;
 * not part of the public API). When {@link timeline}.on is set, chainContactsParallel hands every
 * thread of the call one shared Float64Array, and each thread writes the wall-clock time
 * (ms since the epoch: performance.timeOrigin + performance.now(), the clock the threads share)
 * of a few steps into its own row, and, searching in chain order, each range's start and end.
 * Off, it costs one null test per step.
 */

/** The steps each thread stamps (its row: slot · {@link ROW} + step). */
export const STEP = {
  /** Calling thread: before posting the jobs. Worker: the job's message received. */
  start: 0,
  /** The shared boxes begun, and done. */
  boxes0: 1,
  boxes1: 2,
  /** The fold-backs done (the thread that lists them). */
  folds: 3,
  /** The grid's plan done (the three phases). */
  plan: 4,
  /** The whole grid built (every band done). */
  grid: 5,
  /** The search's claims ran out. */
  search: 6,
  /** The share handed over (worker: the reply posted; calling thread: its searchShare returned). */
  share: 7,
  /** Calling thread: the workers' replies resolved. */
  replies: 8,
  /** Calling thread: the rest copied (finish done). */
  finish: 9,
  /** Calling thread: about to return. */
  end: 10,
  /** Calling thread: ms spent copying ranges during its search (a sum, not a time). */
  copyMs: 11,
  /** Calling thread: ms spent saving its waiting ranges at its search's end (ownDone; a sum). */
  sideMs: 12,
  /** The grid plan's phases 1 and 2 done (phase 3: `plan`). */
  plan1: 13,
  plan2: 14,
} as const;

/** Numbers per thread row. */
export const ROW = 16;
/** Rows (threads) with room in a timeline. */
export const ROWS = 8;
/** Numbers per range after the rows: start, end, slot, when the calling thread copied it. */
export const PER_RANGE = 4;

/** Switch, and the timeline of the call started last (each call stamps its own). */
export const timeline = { on: false, last: null as Float64Array | null };

/** A fresh timeline for a call over `ranges` ranges (NaN: not stamped). */
export function newTimeline(ranges: number): Float64Array {
  const T = new Float64Array(new SharedArrayBuffer(8 * (ROW * ROWS + PER_RANGE * ranges)));
  T.fill(NaN);
  return T;
}

/** The clock the threads share: ms since the epoch. */
export function stamp(): number {
  return performance.timeOrigin + performance.now();
}

/** A step's name. */
export type StepName = keyof typeof STEP;

/** Stamps for one thread of a call (set as ParallelWork.mark and .markRange by chain-work.ts). */
export function marks(T: Float64Array, slot: number): { mark: (step: StepName) => void; markRange: (r: number, first: boolean) => void } {
  const row = ROW * slot, ranges = ROW * ROWS;
  return {
    mark: (step) => {
      T[row + STEP[step]] = stamp();
    },
    markRange: (r, first) => {
      const q = ranges + PER_RANGE * r;
      if (first) T[q] = stamp();
      else {
        T[q + 1] = stamp();
        T[q + 2] = slot;
      }
    },
  };
}
