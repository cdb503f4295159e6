/**
 * A small benchmark harness: warm-up, several timed runs, median and spread, and a sink the
 * engine cannot optimise away. Methods are interleaved run by run so that a change in the
 * machine's load affects all of them alike; ratios are of medians.
 */
import os from 'node:os';

/** One timed method: `run` does the whole batch and returns a number folded into the sink. */
export interface Method {
  name: string;
  run: () => number;
  /**
   * Untimed preparation before each of this method's runs (warm-up included), done before the
   * garbage is collected: e.g. building a peer's own input objects just for its run, so that they
   * are not alive (and marked by every collection) during the other methods' runs.
   */
  setup?: () => void;
}

/** Timing of one method over the runs. */
export interface Timing {
  name: string;
  /** Median milliseconds per batch. */
  median: number;
  /** Fastest and slowest run, ms. */
  min: number;
  max: number;
}

/** Keeps results alive; printed at the end so the work cannot be dropped. */
export let sink = 0;

/**
 * Collects the garbage before a timed run when the process was started with --expose-gc (as
 * `npm run bench` is), so that no method pays for the garbage another one left behind.
 */
export function settle(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Times each method `runs` times after `warmup` untimed runs, interleaved. */
export function measure(methods: readonly Method[], runs = 7, warmup = 2): Timing[] {
  for (let w = 0; w < warmup; w++) {
    for (const m of methods) {
      m.setup?.();
      sink += m.run();
    }
  }
  const times = methods.map(() => [] as number[]);
  for (let r = 0; r < runs; r++) {
    methods.forEach((m, i) => {
      m.setup?.();
      settle();
      const t0 = performance.now();
      sink += m.run();
      times[i].push(performance.now() - t0);
    });
  }
  return methods.map((m, i) => {
    const ts = times[i].slice().sort((a, b) => a - b);
    return { name: m.name, median: ts[ts.length >> 1], min: ts[0], max: ts[ts.length - 1] };
  });
}

/** A timed method that may be asynchronous (a search on worker threads). */
export interface AsyncMethod {
  name: string;
  run: () => number | Promise<number>;
}

/** {@link measure} for methods of which some are asynchronous: interleaved the same way. */
export async function measureAsync(methods: readonly AsyncMethod[], runs = 7, warmup = 2): Promise<Timing[]> {
  for (let w = 0; w < warmup; w++) for (const m of methods) sink += await m.run();
  const times = methods.map(() => [] as number[]);
  for (let r = 0; r < runs; r++) {
    for (let i = 0; i < methods.length; i++) {
      settle();
      const t0 = performance.now();
      sink += await methods[i].run();
      times[i].push(performance.now() - t0);
    }
  }
  return methods.map((m, i) => {
    const ts = times[i].slice().sort((a, b) => a - b);
    return { name: m.name, median: ts[ts.length >> 1], min: ts[0], max: ts[ts.length - 1] };
  });
}

/** "CPU model, N cores, Node vX" for the tables. */
export function machine(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, Node ${process.version}, ${os.platform()} ${os.arch()}`;
}

/**
 * Formats a table: name, median ms, spread, items/s, ratio to `base` (>1 = faster than base),
 * and a ratio to `base2` as well when given.
 */
export function table(title: string, rows: readonly Timing[], items: number, base: string, base2?: string): string {
  const ref = rows.find((r) => r.name === base)?.median ?? NaN;
  const ref2 = base2 === undefined ? NaN : rows.find((r) => r.name === base2)?.median ?? NaN;
  const head = '| method | median ms | spread ms | items/s | speed vs ' + base + (base2 === undefined ? ' |' : ` | speed vs ${base2} |`);
  const lines = [`\n${title}`, head, base2 === undefined ? '|---|---:|---:|---:|---:|' : '|---|---:|---:|---:|---:|---:|'];
  for (const r of rows) {
    const rate = (items / r.median) * 1000;
    const extra = base2 === undefined ? '' : ` ${(ref2 / r.median).toFixed(2)}× |`;
    lines.push(`| ${r.name} | ${r.median.toFixed(1)} | ${r.min.toFixed(1)}–${r.max.toFixed(1)} | ${fmtRate(rate)} | ${(ref / r.median).toFixed(2)}× |${extra}`);
  }
  return lines.join('\n');
}

function fmtRate(x: number): string {
  return x >= 1e6 ? `${(x / 1e6).toFixed(1)} M` : `${(x / 1e3).toFixed(0)} k`;
}
