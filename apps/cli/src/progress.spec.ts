import { Progress } from './progress';

const stream = (isTTY: boolean) => {
  const writes: string[] = [];
  return { writes, isTTY, write: (text: string) => writes.push(text) };
};

describe('Progress', () => {
  // Fake timers (Date.now too): frames and the 250 ms delay are asserted exactly, whatever the load.
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('off a terminal prints one line per change of step, nothing for quiet steps, and no control codes', () => {
    const out = stream(false);
    const progress = new Progress(out);
    progress.step('uploading', { quiet: true });
    progress.step('certification: pending');
    progress.step('certification: pending');
    progress.step('certification: certified');
    progress.done('published: acme/weather@1.0.0');
    expect(out.writes).toEqual([
      'certification: pending\n',
      'certification: certified\n',
      'published: acme/weather@1.0.0\n',
    ]);
  });

  it('on a terminal spins in place with the step and seconds elapsed, then erases itself', () => {
    const out = stream(true);
    const progress = new Progress(out);
    progress.step('certification: pending');
    jest.advanceTimersByTime(450);
    progress.step('certification: certified');
    progress.done();
    const frames = out.writes.filter((w) => w.includes('certification: pending'));
    expect(frames).toHaveLength(2); // frames every 80 ms, drawn from 250 ms on: at 320 and 400
    expect(frames.every((w) => w.startsWith('\r\x1b[2K') && /\(\d+ s\)$/.test(w))).toBe(true);
    expect(out.writes.some((w) => w.includes('certification: certified'))).toBe(true);
    expect(out.writes.at(-1)).toBe('\r\x1b[2K');
    expect(out.writes.join('')).not.toContain('\n');
  });

  it('on a terminal shows nothing for a step that ends within a moment', () => {
    const out = stream(true);
    const progress = new Progress(out);
    progress.step('skillhub info', { quiet: true });
    jest.advanceTimersByTime(100);
    progress.done();
    expect(out.writes).toEqual([]);
  });

  it('escapes what the hub sent, on a terminal and off it', () => {
    for (const isTTY of [true, false]) {
      const out = stream(isTTY);
      const progress = new Progress(out);
      progress.step('certification: \x1b[32mcertified\x1b[0m');
      jest.advanceTimersByTime(350);
      progress.done('warning: \u202Eevil\nfake line');
      const written = out.writes.join('').replaceAll('\r\x1b[2K', '');
      expect(written).toContain('certification: \\u{001B}[32mcertified\\u{001B}[0m');
      expect(written).toContain('warning: \\u{202E}evil\\nfake line\n');
      for (const raw of ['\x1b', '\u202e']) expect(written).not.toContain(raw);
    }
  });

  it('redacts what it prints', () => {
    const out = stream(true);
    const progress = new Progress(out, (t) => t.replace('shp_secret', '[redacted]'));
    progress.step('calling with shp_secret');
    jest.advanceTimersByTime(350);
    progress.done('done with shp_secret');
    expect(out.writes.join('')).not.toContain('shp_secret');
    expect(out.writes.join('')).toContain('[redacted]');
  });
});
