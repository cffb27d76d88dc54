import { Command } from 'commander';
import { createContext, csv, parseRef } from './cli-context';
import { EXIT } from './exit-codes';
import { tty } from './format';

describe('cli context', () => {
  it('parses skill references and refuses anything else as a usage error', () => {
    expect(parseRef('acme/weather')).toEqual({ author: 'acme', name: 'weather', version: undefined });
    expect(parseRef('acme/weather@1.2.3', true)).toEqual({ author: 'acme', name: 'weather', version: '1.2.3' });
    for (const bad of ['weather', 'acme/weather/x', 'acme/we ather', '@acme/weather']) {
      expect(() => parseRef(bad)).toThrow(expect.objectContaining({ exitCode: EXIT.usage }));
    }
    expect(() => parseRef('acme/weather', true)).toThrow(/not a skill reference/);
  });

  it('reads comma lists', () => {
    expect(csv(' a, b,,c ')).toEqual(['a', 'b', 'c']);
    expect(csv(undefined)).toBeUndefined();
  });

  it('prints answers without the token, as JSON when asked', () => {
    const written: string[] = [];
    const stdout = { write: (t: string) => written.push(t) };
    const ctx = createContext({ env: { SKILLHUB_TOKEN: 'shp_topsecret' }, stdout, stderr: stdout });
    const cmd = new Command('x').option('--json');
    ctx.print(cmd, { token: 'shp_topsecret' }, () => tty`human ${'shp_topsecret'}`);
    cmd.parse(['--json'], { from: 'user' });
    ctx.print(cmd, { token: 'shp_topsecret' }, () => tty`human`);
    expect(written).toEqual(['human [redacted]\n', '{\n  "token": "[redacted]"\n}\n']);
  });

  it('asks for a token, with a hint, only where one is needed', () => {
    const ctx = createContext({
      env: { HOME: '/nonexistent' },
      stdout: { write: () => 0 },
      stderr: { write: () => 0 },
    });
    const cmd = new Command('x');
    expect(ctx.client(cmd).baseUrl).toBe('http://127.0.0.1:3000');
    expect(() => ctx.client(cmd, true)).toThrow(
      expect.objectContaining({ exitCode: EXIT.other, hint: expect.stringContaining('SKILLHUB_TOKEN') }),
    );
  });
});
