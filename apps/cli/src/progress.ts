/**
 * Progress on stderr while the CLI waits. On a terminal: a spinner with the current step and the
 * seconds elapsed, redrawn in place and erased when done. Elsewhere (CI logs, pipes): one plain
 * line per change of step, and nothing for quiet steps, so logs stay readable. Step texts carry
 * values from the hub, so they are escaped like every other output (format.ts).
 */
import { oneLine } from './format';

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 80;
/** Steps that end sooner show nothing: a spinner that flashes is noise. */
const SHOW_AFTER_MS = 250;
const CLEAR_LINE = '\r\x1b[2K';

export class Progress {
  private text = '';
  private frame = 0;
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private drawn = false;

  constructor(
    private readonly stream: ProgressStream,
    private readonly redact: (text: string) => string = (t) => t,
  ) {}

  private get live(): boolean {
    return this.stream.isTTY === true;
  }

  /**
   * Sets the current step. `quiet` steps (an upload, a download) show only on a terminal, and only
   * once they take longer than a moment; the others are also printed as a line off a terminal.
   */
  step(text: string, options: { quiet?: boolean } = {}): void {
    if (text === this.text) return;
    this.text = text;
    if (!this.live) {
      if (!options.quiet) this.stream.write(`${this.shown(text)}\n`);
      return;
    }
    if (this.timer === undefined) {
      this.startedAt = Date.now();
      this.timer = setInterval(() => this.draw(), FRAME_MS);
      this.timer.unref();
    }
    if (this.drawn) this.draw();
  }

  /** Stops and erases the spinner; the final line, if any, stays. */
  done(line?: string): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.text = '';
    if (this.drawn) this.stream.write(CLEAR_LINE);
    this.drawn = false;
    if (line !== undefined) this.stream.write(`${this.shown(line)}\n`);
  }

  private shown(text: string): string {
    return this.redact(oneLine(text).text);
  }

  private draw(): void {
    const elapsed = Date.now() - this.startedAt;
    if (!this.drawn && elapsed < SHOW_AFTER_MS) return;
    this.drawn = true;
    this.frame = (this.frame + 1) % FRAMES.length;
    this.stream.write(`${CLEAR_LINE}${FRAMES[this.frame]} ${this.shown(this.text)} (${Math.floor(elapsed / 1000)} s)`);
  }
}
