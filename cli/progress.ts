/**
 * A small progress bar on stderr for long runs: one line, redrawn at most five times a second,
 * that keeps moving through every phase of the work.
 *
 * A run is a sequence of phases (`reading`, `searching`, `writing`, …). Each phase has a name,
 * a unit and, when known, a total; {@link ProgressBar.tick} reports the work done in the current
 * phase. With a total the line shows a bar, a percentage and the time left; without one, the
 * count. The elapsed time and a turning spinner are always shown, and a timer redraws the line
 * twice a second while the event loop is free, so the bar never looks stuck between ticks
 * (a synchronous phase must call `tick` itself: no timer runs while it holds the thread).
 *
 *     const bar = new ProgressBar(process.stderr, 'skewline chain', fileSize);
 *     bar.update(bytesRead);                      // phase 'reading', in bytes
 *     bar.phase('searching', segments, 'segments');
 *     bar.tick(k);                                // from inside the search loop: cheap
 *     bar.phase('writing', contacts, 'contacts');
 *     bar.tick(written);
 *     bar.stop();                                 // ends the line
 */

const SPINNER = '|/-\\';

/** The bar; `update` and `tick` are cheap to call often (a clock read, then return). */
export class ProgressBar {
  private last = 0;
  private readonly started = Date.now();
  private phaseStarted = Date.now();
  private drawn = false;
  private stopped = false;
  private spin = 0;
  private name = 'reading';
  private unit = 'bytes';
  private total: number | undefined;
  private done = 0;
  private rows = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  /**
   * @param stream where the line goes (stderr).
   * @param label the command, e.g. `skewline closest`.
   * @param total the input's size in bytes for the first phase (`reading`), or undefined when
   *   unknown (a pipe).
   */
  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly label: string,
    total: number | undefined,
  ) {
    this.total = total;
    this.timer = setInterval(() => this.draw(), 500);
    this.timer.unref?.();
  }

  /**
   * Starts a new phase (the line stays; its text changes at once).
   * @param name what is being done: `searching`, `writing`.
   * @param total the amount of work in `unit`s, or undefined when unknown (then a count is shown).
   * @param unit what `tick` counts: `segments`, `contacts`, `rows`, or `bytes` (shown in MB).
   */
  phase(name: string, total?: number, unit = 'items'): void {
    this.name = name;
    this.total = total;
    this.unit = unit;
    this.done = 0;
    this.phaseStarted = Date.now();
    this.draw();
  }

  /** Reports `done` units of the current phase (redraws at most every 200 ms unless `force`). */
  tick(done: number, force = false): void {
    this.done = done;
    if (force || Date.now() - this.last >= 200) this.draw();
  }

  /**
   * The reading phase's call: `bytes` read and `rows` answered so far (rows are shown only once
   * there are some, so a command that answers after reading never shows "0 rows").
   */
  update(bytes: number, rows = 0, force = false): void {
    this.rows = rows;
    this.tick(bytes, force);
  }

  private draw(): void {
    if (this.stopped) return;
    const now = Date.now();
    this.last = now;
    const secs = (now - this.started) / 1000;
    const count = (n: number): string => (this.unit === 'bytes' ? `${(n / 1e6).toFixed(1)}` : Math.round(n).toLocaleString('en'));
    const unit = this.unit === 'bytes' ? 'MB' : this.unit;
    let text = `${this.label} ${SPINNER[this.spin++ & 3]} ${this.name}`;
    if (this.total !== undefined && this.total > 0) {
      const f = Math.min(1, this.done / this.total);
      const width = 30;
      const full = Math.round(f * width);
      const phaseSecs = (now - this.phaseStarted) / 1000;
      const eta = f > 0 ? (phaseSecs * (1 - f)) / f : NaN;
      text += ` |${'█'.repeat(full)}${'░'.repeat(width - full)}| ${(f * 100).toFixed(0)}% | ${count(this.done)}/${count(this.total)} ${unit}`;
      if (Number.isFinite(eta) && f < 1 && phaseSecs >= 1) text += ` | ETA ${Math.ceil(eta)} s`;
    } else {
      text += ` ${count(this.done)} ${unit}`;
    }
    if (this.rows > 0) text += ` | ${this.rows.toLocaleString('en')} rows`;
    text += ` | ${secs.toFixed(0)} s`;
    this.stream.write(`\r${text}\x1b[K`);
    this.drawn = true;
  }

  /** Ends the bar's line and its timer; later calls draw nothing. */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    if (this.drawn && !this.stopped) this.stream.write('\n');
    this.stopped = true;
    this.drawn = false;
  }
}
