import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './main';

const io = () => {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      env: {},
      stdout: { write: (t: string) => (out.stdout += t) },
      stderr: { write: (t: string) => (out.stderr += t) },
    },
  };
};

describe('skillhub', () => {
  it('prints the version of its package', async () => {
    const { version } = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const { out, io: streams } = io();
      expect(await run([flag], streams)).toBe(0);
      expect(out.stdout).toBe(`${version}\n`);
    }
  });

  it('escapes what it echoes back in a usage error', async () => {
    const { out, io: streams } = io();
    expect(await run(['info', 'x\x1b]0;owned\x07'], streams)).toBe(2);
    expect(out.stderr).toContain('\\u{001B}]0;owned\\u{0007}');
    for (const raw of ['\x07', '\x1b']) expect(out.stderr).not.toContain(raw);
  });
});
