import { randomBytes } from 'node:crypto';
import type { Problem } from '@skillhub/errors';
import { BundleInvalidError, BundleTooLargeError } from './bundle.errors';
import { readBundle } from './read-bundle';
import { sha256Hex } from './digest';
import { gnuLongNameEntry, gzip, paxEntry, rawBundle, rawEntry, rawTar, type RawEntry } from './testing/raw-tar';

const catchError = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error to be thrown');
};

const expectInvalid = (bytes: Buffer, limits?: Parameters<typeof readBundle>[1]): BundleInvalidError => {
  const error = catchError(() => readBundle(bytes, limits));
  expect(error).toBeInstanceOf(BundleInvalidError);
  expect((error as BundleInvalidError).code).toBe('BUNDLE.INVALID');
  return error as BundleInvalidError;
};

const expectTooLarge = (bytes: Buffer, limits?: Parameters<typeof readBundle>[1]): BundleTooLargeError => {
  const error = catchError(() => readBundle(bytes, limits));
  expect(error).toBeInstanceOf(BundleTooLargeError);
  expect((error as BundleTooLargeError).code).toBe('BUNDLE.TOO_LARGE');
  return error as BundleTooLargeError;
};

const problemAt = (error: BundleInvalidError, path: string): Problem => {
  const problem = error.problems.find((p) => p.path === path);
  if (!problem) throw new Error(`no problem at '${path}' in ${JSON.stringify(error.problems)}`);
  expect(problem.severity).toBe('error');
  return problem;
};

const SKILL_MD: RawEntry = { name: 'SKILL.md', content: '# Skill\n' };

describe('readBundle', () => {
  describe('well-formed bundles', () => {
    it('reads files at the archive root, sorted, with digests and sizes', () => {
      const bytes = rawBundle(
        { name: 'scripts/', type: '5', mode: 0o755 },
        { name: 'scripts/run.sh', content: 'echo hi\n', mode: 0o755 },
        { name: 'SKILL.md', content: '# Skill\n' },
        { name: 'README.md', content: 'readme' },
      );

      const bundle = readBundle(bytes);

      expect(bundle.rootFolder).toBeNull();
      expect(bundle.sha256).toBe(sha256Hex(bytes));
      expect(bundle.size).toBe(bytes.length);
      expect(bundle.uncompressedSize).toBe(8 + 8 + 6);
      expect(bundle.files.map((f) => f.path)).toEqual(['README.md', 'SKILL.md', 'scripts/run.sh']);
      const run = bundle.files[2];
      expect(run).toMatchObject({ size: 8, mode: 0o755, sha256: sha256Hex('echo hi\n') });
      expect(run.content.toString()).toBe('echo hi\n');
      expect(run.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(bundle.files[1].mode).toBe(0o644);
    });

    it('strips a single top-level folder and reports its name', () => {
      const bundle = readBundle(
        rawBundle(
          { name: 'my-skill/', type: '5' },
          { name: 'my-skill/SKILL.md', content: 'x' },
          { name: 'my-skill/docs/guide.md', content: 'y' },
        ),
      );
      expect(bundle.rootFolder).toBe('my-skill');
      expect(bundle.files.map((f) => f.path)).toEqual(['SKILL.md', 'docs/guide.md']);
    });

    it('infers the top-level folder when the archive has no folder entries', () => {
      const bundle = readBundle(rawBundle({ name: 'my-skill/SKILL.md', content: 'x' }));
      expect(bundle.rootFolder).toBe('my-skill');
      expect(bundle.files.map((f) => f.path)).toEqual(['SKILL.md']);
    });

    it('keeps entries at the root when they sit under several top-level folders', () => {
      const bundle = readBundle(rawBundle({ name: 'a/x.md', content: 'x' }, { name: 'b/y.md', content: 'y' }));
      expect(bundle.rootFolder).toBeNull();
      expect(bundle.files.map((f) => f.path)).toEqual(['a/x.md', 'b/y.md']);
    });

    it('keeps entries at the root when a file sits next to the only folder', () => {
      const bundle = readBundle(rawBundle(SKILL_MD, { name: 'docs/guide.md', content: 'y' }));
      expect(bundle.rootFolder).toBeNull();
      expect(bundle.files.map((f) => f.path)).toEqual(['SKILL.md', 'docs/guide.md']);
    });

    it("strips a leading './' and ignores the './' entry that `tar -C dir .` writes", () => {
      const bundle = readBundle(
        rawBundle(
          { name: './', type: '5' },
          { name: './my-skill/', type: '5' },
          { name: './my-skill/SKILL.md', content: 'x' },
        ),
      );
      expect(bundle.rootFolder).toBe('my-skill');
      expect(bundle.files.map((f) => f.path)).toEqual(['SKILL.md']);
    });

    it('reads a long path from a pax extended header', () => {
      const longPath = `${'deep-folder/'.repeat(12)}SKILL.md`;
      expect(Buffer.byteLength(longPath)).toBeGreaterThan(100);
      const tar = rawTar(paxEntry({ path: longPath }), rawEntry({ name: 'truncated-name', content: 'x' }));

      const bundle = readBundle(gzip(tar));

      expect(bundle.rootFolder).toBe('deep-folder');
      expect(bundle.files.map((f) => f.path)).toEqual([longPath.slice('deep-folder/'.length)]);
    });

    it('takes the size from a pax header over the ustar field', () => {
      const tar = rawTar(paxEntry({ size: '5' }), rawEntry({ name: 'SKILL.md', content: 'hello', size: 0 }));
      expect(readBundle(gzip(tar)).files[0].content.toString()).toBe('hello');
    });

    it('reads a GNU long name', () => {
      const longName = `${'n'.repeat(150)}.md`;
      const tar = rawTar(gnuLongNameEntry(longName), rawEntry({ name: 'n'.repeat(100), content: 'x', magic: 'gnu' }));
      expect(readBundle(gzip(tar)).files.map((f) => f.path)).toEqual([longName]);
    });

    it('joins the ustar prefix and name fields', () => {
      const bundle = readBundle(rawBundle({ prefix: 'a/b', name: 'SKILL.md', content: 'x' }, { name: 'c.md' }));
      expect(bundle.files.map((f) => f.path)).toEqual(['a/b/SKILL.md', 'c.md']);
    });

    it("reads contiguous ('7') and pre-POSIX ('\\0') entries as regular files", () => {
      const bundle = readBundle(
        rawBundle({ name: 'a.md', type: '7', content: 'a' }, { name: 'b.md', type: '\0', content: 'b' }),
      );
      expect(bundle.files.map((f) => f.path)).toEqual(['a.md', 'b.md']);
    });

    it('accepts the global pax header `git archive` writes', () => {
      const tar = rawTar(paxEntry({ comment: 'a'.repeat(40) }, 'g'), rawEntry(SKILL_MD));
      expect(readBundle(gzip(tar)).files.map((f) => f.path)).toEqual(['SKILL.md']);
    });

    it('returns NFC paths', () => {
      const bundle = readBundle(rawBundle({ name: 'cafe\u0301.md', content: 'x' }, SKILL_MD));
      expect(bundle.files.map((f) => f.path)).toContain('caf\u00e9.md');
    });

    it('keeps only the execute bit of a mode', () => {
      const bundle = readBundle(rawBundle({ name: 'a.sh', mode: 0o4777 }, { name: 'b.md', mode: 0o600 }));
      expect(bundle.files.map((f) => f.mode)).toEqual([0o755, 0o644]);
    });

    it('accepts zero padding up to a full tar record', () => {
      const tar = rawTar(rawEntry(SKILL_MD));
      const padded = Buffer.concat([tar, Buffer.alloc(10240 - tar.length)]);
      expect(readBundle(gzip(padded)).files).toHaveLength(1);
    });

    it('keeps a leading byte order mark in a name rather than dropping it', () => {
      const bundle = readBundle(rawBundle({ name: '\ufeffa.md' }, { name: 'a.md' }));
      expect(bundle.files.map((f) => f.path)).toEqual(['a.md', '\ufeffa.md']);
    });
  });

  describe('size limits', () => {
    it('refuses input over maxCompressedBytes before looking at it', () => {
      const error = expectTooLarge(Buffer.alloc(2048, 0x41), { maxCompressedBytes: 1024 });
      expect(error.message).toContain('2048');
      expect(error.details).toEqual({ limit: 'maxCompressedBytes', max: 1024 });
    });

    it('stops a gzip bomb while decompressing (30 MiB of zeros)', () => {
      const bomb = rawBundle({ name: 'zeros.bin', content: Buffer.alloc(30 * 1024 * 1024) });
      expect(bomb.length).toBeLessThan(64 * 1024);

      const error = expectTooLarge(bomb);

      expect(error.limit).toBe('maxCompressionRatio');
      expect(error.message).toContain('compression ratio');
    });

    it('stops a ratio bomb under custom limits', () => {
      const bytes = rawBundle({ name: 'a.txt', content: Buffer.alloc(2 * 1024 * 1024, 'a') });
      const error = expectTooLarge(bytes, { maxCompressionRatio: 10 });
      expect(error.limit).toBe('maxCompressionRatio');
      expect(error.message).toContain('10 times');
    });

    it('stops decompressing at the uncompressed cap when the ratio is not the binding limit', () => {
      const bytes = rawBundle({ name: 'noise.bin', content: randomBytes(64 * 1024) });
      const error = expectTooLarge(bytes, { maxUncompressedBytes: 1024, maxEntries: 4 });
      expect(error.limit).toBe('maxUncompressedBytes');
      expect(error.message).toContain('uncompressed limit of 1024');
    });

    it('does not mistake a tiny bundle padded to a tar record for a bomb', () => {
      const tar = rawTar(rawEntry({ name: 'SKILL.md' }));
      const bytes = gzip(Buffer.concat([tar, Buffer.alloc(10240 - tar.length)]));
      expect(10240 / bytes.length).toBeGreaterThan(100);
      expect(readBundle(bytes).files).toHaveLength(1);
    });

    it('refuses files that total more than maxUncompressedBytes', () => {
      const bytes = rawBundle({ name: 'a.txt', content: 'a'.repeat(600) }, { name: 'b.txt', content: 'b'.repeat(600) });
      const error = expectTooLarge(bytes, { maxUncompressedBytes: 1000 });
      expect(error.message).toBe('the files total 1200 bytes, more than the uncompressed limit of 1000');
      expect(error.limit).toBe('maxUncompressedBytes');
    });

    it('refuses more than maxEntries entries', () => {
      const names = ['a', 'b', 'c', 'd', 'e'].map((n) => ({ name: `${n}.md` }));
      const error = expectTooLarge(rawBundle(...names), { maxEntries: 3 });
      expect(error.message).toBe('the archive has more than 3 entries');
      expect(error.limit).toBe('maxEntries');
    });

    it('refuses a limit that is not a positive number and keeps defaults for undefined ones', () => {
      const bytes = rawBundle(SKILL_MD);
      expect(() => readBundle(bytes, { maxEntries: 0 })).toThrow(RangeError);
      expect(readBundle(bytes, { maxEntries: undefined }).files).toHaveLength(1);
    });
  });

  describe('gzip layer', () => {
    it.each([
      ['zip bytes', Buffer.from('PK\u0003\u0004rest-of-a-zip')],
      ['a plain tar', rawTar(rawEntry(SKILL_MD))],
      ['an empty body', Buffer.alloc(0)],
    ])('refuses %s as not gzip', (_label, bytes) => {
      const error = expectInvalid(bytes);
      expect(error.message).toContain('not a gzip stream');
    });

    it('refuses a gzip stream whose checksum does not match', () => {
      const bytes = rawBundle(SKILL_MD);
      bytes[bytes.length - 8] ^= 0xff;
      expect(problemAt(expectInvalid(bytes), '').message).toBe('the gzip stream is corrupted');
    });

    it('refuses a truncated gzip stream', () => {
      const bytes = rawBundle(SKILL_MD);
      expect(problemAt(expectInvalid(bytes.subarray(0, bytes.length - 10)), '').message).toBe(
        'the gzip stream is truncated',
      );
    });
  });

  describe('tar structure', () => {
    it('refuses a header with a bad checksum and names the entry', () => {
      const error = expectInvalid(rawBundle({ name: 'SKILL.md', content: 'x', checksumDelta: 1 }));
      expect(problemAt(error, 'SKILL.md').message).toMatch(/bad checksum/);
    });

    it('refuses an archive cut inside an entry', () => {
      const entry = rawEntry({ name: 'big.md', content: 'z'.repeat(2000) });
      const error = expectInvalid(gzip(entry.subarray(0, 1024)));
      expect(problemAt(error, 'big.md').message).toMatch(/truncated: entry 'big.md' declares 2000 bytes/);
    });

    it('refuses an archive without an end-of-archive marker', () => {
      const error = expectInvalid(gzip(rawEntry(SKILL_MD)));
      expect(problemAt(error, '').message).toMatch(/truncated/);
    });

    it('refuses an archive that ends after a single zero block', () => {
      const error = expectInvalid(gzip(Buffer.concat([rawEntry(SKILL_MD), Buffer.alloc(512)])));
      expect(problemAt(error, '').message).toMatch(/single zero block/);
    });

    it('refuses data hidden after the end-of-archive marker', () => {
      const tar = Buffer.concat([rawTar(rawEntry(SKILL_MD)), rawEntry({ name: 'hidden.md', content: 'x' })]);
      expect(problemAt(expectInvalid(gzip(tar)), '').message).toBe('data follows the end-of-archive marker');
    });

    it('refuses a header without the ustar magic', () => {
      const error = expectInvalid(rawBundle({ name: 'old.md', magic: Buffer.alloc(8) }));
      expect(problemAt(error, 'old.md').message).toMatch(/not a ustar header/);
    });

    it('refuses a pax header that no entry follows', () => {
      const error = expectInvalid(gzip(rawTar(rawEntry(SKILL_MD), paxEntry({ path: 'x.md' }))));
      expect(problemAt(error, '').message).toMatch(/extended header that no entry follows/);
    });

    it('refuses a malformed pax record', () => {
      const tar = rawTar(rawEntry({ name: 'PaxHeader', type: 'x', content: '99 path=x\n' }), rawEntry(SKILL_MD));
      expect(problemAt(expectInvalid(gzip(tar)), 'PaxHeader').message).toMatch(/malformed record/);
    });

    it('refuses a global pax header that sets a path', () => {
      const tar = rawTar(paxEntry({ path: 'elsewhere.md' }, 'g'), rawEntry(SKILL_MD));
      expect(problemAt(expectInvalid(gzip(tar)), 'PaxHeader').message).toMatch(/global pax header sets 'path'/);
    });

    it('refuses a folder that declares data', () => {
      const error = expectInvalid(rawBundle({ name: 'docs/', type: '5', content: 'smuggled' }, SKILL_MD));
      expect(problemAt(error, 'docs/').message).toBe("entry 'docs/' is a folder yet declares 8 bytes of data");
    });

    it('refuses a GNU sparse file declared in pax', () => {
      const tar = rawTar(paxEntry({ 'GNU.sparse.size': '100' }), rawEntry({ name: 'sparse.bin', content: 'x' }));
      expect(problemAt(expectInvalid(gzip(tar)), 'sparse.bin').message).toMatch(/sparse/);
    });

    it('reports problems found before a structural fault', () => {
      const tar = Buffer.concat([
        rawEntry({ name: 'link', type: '2', linkname: '/etc/passwd' }),
        rawEntry({ name: 'broken.md', checksumDelta: 7 }),
      ]);
      const error = expectInvalid(gzip(tar));
      expect(error.problems.map((p) => p.path)).toEqual(['link', 'broken.md']);
    });
  });

  describe('entry kinds', () => {
    it.each([
      ['1', 'hard link', 'hard link to'],
      ['2', 'symbolic link', 'symbolic link to'],
      ['3', 'character device', 'character device'],
      ['4', 'block device', 'block device'],
      ['6', 'FIFO', 'FIFO'],
      ['S', 'GNU sparse entry', "unsupported type 'S'"],
      ['V', 'volume label', "unsupported type 'V'"],
    ])("refuses type '%s' (%s)", (type, _label, expected) => {
      const error = expectInvalid(rawBundle(SKILL_MD, { name: 'special', type, linkname: 'SKILL.md' }));
      expect(error.problems).toHaveLength(1);
      expect(problemAt(error, 'special').message).toContain(expected);
    });

    it('names the target of a link', () => {
      const error = expectInvalid(rawBundle(SKILL_MD, { name: 'passwd', type: '2', linkname: '/etc/passwd' }));
      expect(problemAt(error, 'passwd').message).toBe(
        "the entry is a symbolic link to '/etc/passwd'; links are not allowed",
      );
    });
  });

  describe('paths', () => {
    it.each([
      ['../x', "'..' segment"],
      ['a/../../x', "'..' segment"],
      ['/etc/passwd', 'absolute'],
      ['C:/Windows/x', 'absolute'],
      ['a\\b.txt', 'backslash'],
      ['a//b.txt', 'empty'],
      ['a/./b.txt', "'.' segment"],
      ['regular-file/', 'empty'],
    ])("refuses '%s'", (name, expected) => {
      const error = expectInvalid(rawBundle(SKILL_MD, { name, content: 'x' }));
      expect(error.problems).toHaveLength(1);
      expect(problemAt(error, name).message).toContain(expected);
      expect(error.message).toContain(name);
    });

    it("refuses a folder named '/'", () => {
      const error = expectInvalid(rawBundle(SKILL_MD, { name: '/', type: '5' }));
      expect(problemAt(error, '/').message).toBe('the path is absolute');
    });

    it('refuses a NUL inside a name and shows it escaped', () => {
      const name = Buffer.from('evil\0../../x.md');
      const error = expectInvalid(rawBundle(SKILL_MD, { name }));
      expect(problemAt(error, 'evil\\u0000../../x.md').message).toContain('NUL');
    });

    it('refuses a NUL inside a pax path', () => {
      const tar = rawTar(rawEntry(SKILL_MD), paxEntry({ path: 'a\0b.md' }), rawEntry({ name: 'ab.md' }));
      expect(problemAt(expectInvalid(gzip(tar)), 'a\\u0000b.md').message).toContain('NUL');
    });

    it('refuses an empty name', () => {
      const error = expectInvalid(rawBundle(SKILL_MD, { name: '' }));
      expect(error.problems.map((p) => p.message)).toEqual(['the name is empty']);
    });

    it('refuses a name that is not UTF-8', () => {
      const error = expectInvalid(rawBundle(SKILL_MD, { name: Buffer.from([0x61, 0xff, 0x2e, 0x6d, 0x64]) }));
      expect(problemAt(error, 'a\ufffd.md').message).toBe('the name is not valid UTF-8');
    });

    it('checks the pax path, not the harmless ustar name under it', () => {
      const tar = rawTar(rawEntry(SKILL_MD), paxEntry({ path: '../../outside.md' }), rawEntry({ name: 'inside.md' }));
      expect(problemAt(expectInvalid(gzip(tar)), '../../outside.md').message).toContain("'..'");
    });

    it('checks a GNU long name', () => {
      const tar = rawTar(rawEntry(SKILL_MD), gnuLongNameEntry('/etc/cron.d/x'), rawEntry({ name: 'x', magic: 'gnu' }));
      expect(problemAt(expectInvalid(gzip(tar)), '/etc/cron.d/x').message).toContain('absolute');
    });

    it('refuses a path longer than maxPathBytes', () => {
      const longPath = `${'d/'.repeat(300)}x.md`;
      const tar = rawTar(rawEntry(SKILL_MD), paxEntry({ path: longPath }), rawEntry({ name: 'x.md' }));
      const error = expectInvalid(gzip(tar));
      expect(problemAt(error, longPath).message).toBe('the path is 604 bytes long, more than the limit of 512');
      expect(
        problemAt(expectInvalid(rawBundle({ name: 'abcdef.md' }), { maxPathBytes: 5 }), 'abcdef.md'),
      ).toBeDefined();
    });
  });

  describe('collisions', () => {
    it('refuses names that differ only in case and names both', () => {
      const error = expectInvalid(rawBundle({ name: 'A.txt' }, { name: 'a.txt' }));
      expect(problemAt(error, 'a.txt').message).toBe(
        "'a.txt' and 'A.txt' collide after Unicode NFC normalization and case folding",
      );
    });

    it('refuses composed and decomposed spellings of the same name', () => {
      const composed = 'caf\u00e9.md';
      const decomposed = 'cafe\u0301.md';
      const error = expectInvalid(rawBundle({ name: composed }, { name: decomposed }));
      const problem = problemAt(error, decomposed);
      expect(problem.message).toContain(`'${decomposed}'`);
      expect(problem.message).toContain(`'${composed}'`);
    });

    it('refuses folders that differ only in case', () => {
      const error = expectInvalid(rawBundle({ name: 'Docs/a.md' }, { name: 'docs/b.md' }));
      expect(problemAt(error, 'docs').message).toContain("'Docs'");
    });

    it('refuses a file and a folder with the same path', () => {
      const error = expectInvalid(rawBundle({ name: 'x' }, { name: 'x/', type: '5' }, SKILL_MD));
      expect(problemAt(error, 'x').message).toBe("'x' is both a file and a folder");
    });

    it('refuses a file that another entry uses as a folder', () => {
      const error = expectInvalid(rawBundle({ name: 'x' }, { name: 'x/y.md' }));
      expect(problemAt(error, 'x').message).toBe("'x' is both a file and a folder");
    });

    it('refuses the same file twice', () => {
      const error = expectInvalid(rawBundle({ name: 'a.md', content: '1' }, { name: 'a.md', content: '2' }));
      expect(problemAt(error, 'a.md').message).toBe("'a.md' appears more than once");
    });

    it('allows the same folder twice', () => {
      const bundle = readBundle(
        rawBundle({ name: 'd/', type: '5' }, { name: 'd/', type: '5' }, { name: 'd/a.md' }, SKILL_MD),
      );
      expect(bundle.files.map((f) => f.path)).toEqual(['SKILL.md', 'd/a.md']);
    });
  });

  describe('empty archives', () => {
    it('refuses an archive with no entries', () => {
      expect(problemAt(expectInvalid(gzip(rawTar())), '').message).toBe('the archive contains no files');
    });

    it('refuses an archive with only folders', () => {
      const error = expectInvalid(rawBundle({ name: 'a/', type: '5' }, { name: 'a/b/', type: '5' }));
      expect(problemAt(error, '').message).toBe('the archive contains no files');
    });
  });

  it('reports every problem at once', () => {
    const error = expectInvalid(
      rawBundle(
        SKILL_MD,
        { name: 'link', type: '2', linkname: '../../secret' },
        { name: 'hard', type: '1', linkname: 'SKILL.md' },
        { name: '../escape.md' },
        { name: '/etc/passwd' },
        { name: 'win\\path.md' },
        { name: 'pipe', type: '6' },
        { name: 'README.md' },
        { name: 'readme.md' },
      ),
    );

    expect(error.problems.map((p) => p.path)).toEqual([
      'link',
      'hard',
      '../escape.md',
      '/etc/passwd',
      'win\\path.md',
      'pipe',
      'readme.md',
    ]);
    expect(error.message).toBe(
      "invalid bundle: 7 problems, the first: 'link': the entry is a symbolic link to '../../secret'; links are not allowed",
    );
  });
});
