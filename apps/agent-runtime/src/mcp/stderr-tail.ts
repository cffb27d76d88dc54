/** The last bytes a plain (unsandboxed) server wrote to stderr, kept to say why it stopped. */
import type { Stream } from 'node:stream';

const TAIL_BYTES = 8 * 1024;

export class StderrTail {
  private tail = Buffer.alloc(0);

  get text(): string {
    return this.tail.toString('utf8');
  }

  /** Keeps the end of what `stream` writes (null: nothing to follow). */
  follow(stream: Stream | null): void {
    stream?.on('data', (chunk: Buffer) => {
      const joined = Buffer.concat([this.tail, chunk]);
      this.tail = joined.length > TAIL_BYTES ? joined.subarray(joined.length - TAIL_BYTES) : joined;
    });
  }
}
