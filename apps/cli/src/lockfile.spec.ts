import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT } from './exit-codes';
import {
  certificateDigest,
  lockDifferences,
  readLockfile,
  writeLockfile,
  type LockEntry,
  type Lockfile,
} from './lockfile';

const entry = (version: string): LockEntry => ({
  range: '^1.0.0',
  version,
  bundle_sha256: 'a'.repeat(64),
  certificate_sha256: 'b'.repeat(64),
  log_index: 3,
});

describe('skillhub-lock.json', () => {
  let dir: string;
  let path: string;
  const lock = (skills: Record<string, LockEntry>): Lockfile => ({
    lockfile_version: 1,
    hub: 'http://hub.example',
    log_origin: 'hub.example/log',
    skills,
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skillhub-lock-'));
    path = join(dir, 'skillhub-lock.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the same file for the same installs, whatever their order, and reads it back', () => {
    writeLockfile(path, lock({ 'b/two': entry('1.0.0'), 'a/one': entry('1.2.0') }));
    const first = readFileSync(path, 'utf8');
    writeLockfile(path, lock({ 'a/one': entry('1.2.0'), 'b/two': entry('1.0.0') }));
    expect(readFileSync(path, 'utf8')).toBe(first);
    expect(first.endsWith('}\n')).toBe(true);
    expect(Object.keys(readLockfile(path)!.skills)).toEqual(['a/one', 'b/two']);
  });

  it('is null when absent, and refuses a lock it cannot trust, naming the entry', () => {
    expect(readLockfile(path)).toBeNull();
    const cases: Array<[unknown, RegExp]> = [
      ['{', /not valid JSON/],
      [{ ...lock({}), lockfile_version: 2 }, /lockfile_version must be 1/],
      [lock({ 'a/one': { ...entry('1.0.0'), bundle_sha256: 'x' } }), /a\/one: bundle_sha256 is not a SHA-256/],
      [lock({ 'a/one': { ...entry('1.0.0'), log_index: -1 } }), /a\/one: log_index is not an index/],
      [lock({ one: entry('1.0.0') }), /"one" is not author\/name/],
    ];
    for (const [content, message] of cases) {
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
      expect(() => readLockfile(path)).toThrow(
        expect.objectContaining({ exitCode: EXIT.refused, message: expect.stringMatching(message) }),
      );
    }
  });

  it('names every field a served version changed', () => {
    const locked = entry('1.0.0');
    expect(lockDifferences(locked, { version: '1.0.0', bundle_sha256: 'a'.repeat(64) })).toEqual([]);
    expect(lockDifferences(locked, { version: '1.0.0', certificate_sha256: 'c'.repeat(64), log_index: 4 })).toEqual([
      `certificate_sha256 is ${'c'.repeat(64)} on the hub, ${'b'.repeat(64)} in the lock`,
      'log_index is 4 on the hub, 3 in the lock',
    ]);
  });

  it('digests a certificate by its canonical JSON, not by how it was spaced in transit', () => {
    expect(certificateDigest({ payload: 'p', signatures: [{ keyid: 'k', sig: 's' }] })).toBe(
      certificateDigest(JSON.parse('{ "signatures": [ { "sig": "s", "keyid": "k" } ], "payload": "p" }')),
    );
  });
});
