import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonStateFile } from './json-state-file';

describe('JsonStateFile', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'json-state-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads null before anything is written, then what was written last', () => {
    const file = new JsonStateFile<{ n: number }>(join(dir, 'trust', 'state.json'));
    expect(file.read()).toBeNull();
    file.write({ n: 1 });
    file.write({ n: 2 });
    expect(file.read()).toEqual({ n: 2 });
  });

  it('creates its folder private to the owner, and the file readable by the owner alone', () => {
    const path = join(dir, 'trust', 'state.json');
    new JsonStateFile(path).write([]);
    expect(statSync(join(dir, 'trust')).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('leaves no staged copy behind', () => {
    new JsonStateFile(join(dir, 'state.json')).write({ a: 1 });
    expect(readdirSync(dir)).toEqual(['state.json']);
    expect(readFileSync(join(dir, 'state.json'), 'utf8')).toBe('{\n  "a": 1\n}');
  });

  it('refuses a file that exists but is not JSON, naming it', () => {
    const path = join(dir, 'state.json');
    writeFileSync(path, '{"a":');
    expect(() => new JsonStateFile(path).read()).toThrow(`${path} is unreadable`);
  });
});
