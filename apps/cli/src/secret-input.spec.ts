import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { EXIT } from './exit-codes';
import { readSecret } from './secret-input';

/** A terminal: raw mode recorded, keys typed once the prompt is shown. */
class FakeTty extends EventEmitter {
  isTTY = true;
  raw: boolean[] = [];
  constructor(private readonly keys: string) {
    super();
  }
  setRawMode(raw: boolean) {
    this.raw.push(raw);
  }
  pause() {}
  resume() {
    setImmediate(() => this.emit('data', Buffer.from(this.keys)));
  }
}

describe('readSecret', () => {
  const prompt = () => {
    const written: string[] = [];
    return { written, write: (t: string) => written.push(t) };
  };

  it('reads the first line of piped stdin, trimmed', async () => {
    expect(await readSecret(Readable.from(['shp_abc', 'def\nignored\n']), prompt(), 'token')).toBe('shp_abcdef');
  });

  it('refuses empty input and no stdin as usage errors', async () => {
    await expect(readSecret(Readable.from(['\n']), prompt(), 'token')).rejects.toMatchObject({ exitCode: EXIT.usage });
    await expect(readSecret(undefined, prompt(), 'token')).rejects.toMatchObject({ message: 'no token given' });
  });

  it('prompts on a terminal without echoing, with backspace, and restores the terminal', async () => {
    const tty = new FakeTty('shp_xy\u007fz\r');
    const out = prompt();
    expect(await readSecret(tty, out, 'token')).toBe('shp_xz');
    expect(out.written.join('')).toBe('token: \n');
    expect(tty.raw).toEqual([true, false]);
  });

  it('stops on Ctrl-C, and with pipedOnly reads a terminal as a pipe', async () => {
    await expect(readSecret(new FakeTty('shp\u0003'), prompt(), 'token')).rejects.toMatchObject({
      message: 'cancelled',
    });
    const tty = new FakeTty('shp_piped\n');
    tty.resume = function (this: FakeTty) {
      setImmediate(() => {
        this.emit('data', Buffer.from('shp_piped\n'));
        this.emit('end');
      });
    };
    expect(await readSecret(tty, prompt(), 'token', true)).toBe('shp_piped');
    expect(tty.raw).toEqual([]);
  });
});
