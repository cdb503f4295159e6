/**
 * A small progress bar on stderr for long runs (a terminal only): bytes read, rows, speed and
 * time left, redrawn at most five times a second on one line.
 */

/** The bar; `update` is cheap to call often. */
export class ProgressBar {
  private last = 0;
  private readonly started = Date.now();
  private drawn = false;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly label: string,
    /** Total bytes, or undefined when unknown (a pipe). */
    private readonly total: number | undefined,
  ) {}

  /** Shows `bytes` read and `rows` done (redraws at most every 200 ms unless `force`). */
  update(bytes: number, rows: number, force = false): void {
    const now = Date.now();
    if (!force && now - this.last < 200) return;
    this.last = now;
    const mb = (n: number) => (n / 1e6).toFixed(1);
    const secs = (now - this.started) / 1000;
    let text = `${this.label} `;
    if (this.total !== undefined && this.total > 0) {
      const f = Math.min(1, bytes / this.total);
      const width = 30;
      const full = Math.round(f * width);
      const eta = f > 0 ? (secs * (1 - f)) / f : NaN;
      text += `|${'█'.repeat(full)}${'░'.repeat(width - full)}| ${(f * 100).toFixed(0)}% | ${mb(bytes)}/${mb(this.total)} MB`;
      if (Number.isFinite(eta) && f < 1) text += ` | ETA ${Math.ceil(eta)} s`;
    } else {
      text += `${mb(bytes)} MB`;
    }
    text += ` | ${rows.toLocaleString('en')} rows`;
    this.stream.write(`\r${text}\x1b[K`);
    this.drawn = true;
  }

  /** Ends the bar's line. */
  stop(): void {
    if (this.drawn) this.stream.write('\n');
    this.drawn = false;
  }
}
