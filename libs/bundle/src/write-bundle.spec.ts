import { gunzipSync } from 'node:zlib';
import { BundleInvalidError } from './bundle.errors';
import type { BundleInputFile } from './bundle.types';
import { readBundle } from './read-bundle';
import { writeBundle } from './write-bundle';

const FILES: BundleInputFile[] = [
  { path: 'SKILL.md', content: '# Skill\n' },
  { path: 'scripts/run.sh', content: Buffer.from('#!/bin/sh\necho hi\n'), mode: 0o755 },
  { path: 'docs/guide.md', content: 'guide' },
  { path: 'docs/deep/notes.txt', content: '' },
];

interface RawHeader {
  name: string;
  type: string;
  fields: Record<'mode' | 'uid' | 'gid' | 'mtime' | 'uname' | 'gname' | 'magic', string>;
}

/** Walks the tar without the production reader, to check what the writer put in each header. */
const headersOf = (bundle: Buffer): RawHeader[] => {
  const tar = gunzipSync(bundle);
  const text = (offset: number, length: number): string => tar.toString('latin1', offset, offset + length);
  const headers: RawHeader[] = [];
  let offset = 0;
  while (tar[offset] !== 0) {
    const size = parseInt(text(offset + 124, 11), 8);
    headers.push({
      name: tar.toString('utf8', offset, offset + 100).replace(/\0+$/, ''),
      type: text(offset + 156, 1),
      fields: {
        mode: text(offset + 100, 8),
        uid: text(offset + 108, 8),
        gid: text(offset + 116, 8),
        mtime: text(offset + 136, 12),
        uname: text(offset + 265, 32),
        gname: text(offset + 297, 32),
        magic: text(offset + 257, 8),
      },
    });
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return headers;
};

const catchInvalid = (fn: () => unknown): BundleInvalidError => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BundleInvalidError);
    expect((error as BundleInvalidError).code).toBe('BUNDLE.INVALID');
    return error as BundleInvalidError;
  }
  throw new Error('expected BundleInvalidError');
};

describe('writeBundle', () => {
  it('round-trips through readBundle', () => {
    const bundle = readBundle(writeBundle(FILES));

    expect(bundle.rootFolder).toBeNull();
    expect(bundle.files.map((f) => [f.path, f.content.toString(), f.mode])).toEqual([
      ['SKILL.md', '# Skill\n', 0o644],
      ['docs/deep/notes.txt', '', 0o644],
      ['docs/guide.md', 'guide', 0o644],
      ['scripts/run.sh', '#!/bin/sh\necho hi\n', 0o755],
    ]);
  });

  it('round-trips a root folder', () => {
    const bundle = readBundle(writeBundle(FILES, { rootFolder: 'my-skill' }));
    expect(bundle.rootFolder).toBe('my-skill');
    expect(bundle.files.map((f) => f.path)).toEqual([
      'SKILL.md',
      'docs/deep/notes.txt',
      'docs/guide.md',
      'scripts/run.sh',
    ]);
  });

  it('round-trips a path longer than the 100-byte ustar name field through a pax header', () => {
    const longPath = `${'nested-folder/'.repeat(10)}file-with-a-long-name-é.md`;
    const bytes = writeBundle([
      { path: 'SKILL.md', content: 'x' },
      { path: longPath, content: 'deep' },
    ]);

    expect(headersOf(bytes).map((h) => h.type)).toContain('x');
    const file = readBundle(bytes).files.find((f) => f.path === longPath);
    expect(file?.content.toString()).toBe('deep');
  });

  it('writes the same bytes on every call and for any input order', () => {
    const first = writeBundle(FILES, { rootFolder: 'my-skill' });
    const second = writeBundle(FILES, { rootFolder: 'my-skill' });
    const reordered = writeBundle([...FILES].reverse(), { rootFolder: 'my-skill' });
    expect(second.equals(first)).toBe(true);
    expect(reordered.equals(first)).toBe(true);
  });

  it('writes another gzip level when asked, as deterministically and holding the same tar', () => {
    const fast = writeBundle(FILES, { level: 6 });
    expect(writeBundle([...FILES].reverse(), { level: 6 }).equals(fast)).toBe(true);
    expect(gunzipSync(fast).equals(gunzipSync(writeBundle(FILES)))).toBe(true);
  });

  it('changes the bytes when a file changes', () => {
    const changed = FILES.map((f) => (f.path === 'SKILL.md' ? { ...f, content: '# Skill!\n' } : f));
    expect(writeBundle(changed).equals(writeBundle(FILES))).toBe(false);
  });

  it('emits folders as entries in path byte order, before their contents', () => {
    expect(headersOf(writeBundle(FILES, { rootFolder: 'my-skill' })).map((h) => `${h.type} ${h.name}`)).toEqual([
      '5 my-skill/',
      '0 my-skill/SKILL.md',
      '5 my-skill/docs/',
      '5 my-skill/docs/deep/',
      '0 my-skill/docs/deep/notes.txt',
      '0 my-skill/docs/guide.md',
      '5 my-skill/scripts/',
      '0 my-skill/scripts/run.sh',
    ]);
  });

  it('zeroes owners and times and writes ustar headers', () => {
    const headers = headersOf(writeBundle(FILES));
    for (const { fields } of headers) {
      expect(fields).toMatchObject({
        uid: '0000000\0',
        gid: '0000000\0',
        mtime: '00000000000\0',
        uname: '\0'.repeat(32),
        gname: '\0'.repeat(32),
        magic: 'ustar\u000000',
      });
    }
    const modes = Object.fromEntries(headers.map((h) => [h.name, h.fields.mode]));
    expect(modes).toMatchObject({ 'SKILL.md': '0000644\0', 'scripts/run.sh': '0000755\0', 'docs/': '0000755\0' });
  });

  it('writes a gzip header with no timestamp and a fixed OS byte', () => {
    const bytes = writeBundle(FILES);
    expect([...bytes.subarray(0, 4)]).toEqual([0x1f, 0x8b, 0x08, 0x00]);
    expect(bytes.readUInt32LE(4)).toBe(0);
    expect(bytes[9]).toBe(3);
  });

  it('stores paths NFC-normalized', () => {
    const bytes = writeBundle([
      { path: 'cafe\u0301.md', content: 'x' },
      { path: 'SKILL.md', content: 'y' },
    ]);
    expect(headersOf(bytes).map((h) => h.name)).toContain('caf\u00e9.md');
  });

  it('normalizes modes to 0644 or 0755', () => {
    const bytes = writeBundle([
      { path: 'a.sh', content: '', mode: 0o4750 },
      { path: 'b.md', content: '', mode: 0o666 },
    ]);
    expect(readBundle(bytes).files.map((f) => f.mode)).toEqual([0o755, 0o644]);
  });

  it('refuses every bad input at once', () => {
    const error = catchInvalid(() =>
      writeBundle([
        { path: 'SKILL.md', content: 'ok' },
        { path: '../escape.md', content: '' },
        { path: '/etc/passwd', content: '' },
        { path: 'a\\b.md', content: '' },
        { path: 'nul\0.md', content: '' },
        { path: '', content: '' },
        { path: './dot.md', content: '' },
        { path: 'folder/', content: '' },
        { path: 'A.md', content: '' },
        { path: 'a.md', content: '' },
        { path: 'mode.md', content: '', mode: -1 },
      ]),
    );

    expect(error.problems.map((p) => p.path)).toEqual([
      '../escape.md',
      '/etc/passwd',
      'a\\b.md',
      'nul\\u0000.md',
      '',
      './dot.md',
      'folder/',
      'a.md',
      'mode.md',
    ]);
  });

  it('refuses a file and a folder with the same path', () => {
    const error = catchInvalid(() =>
      writeBundle([
        { path: 'x', content: '' },
        { path: 'x/y.md', content: '' },
      ]),
    );
    expect(error.problems.map((p) => [p.path, p.message])).toEqual([['x', "'x' is both a file and a folder"]]);
  });

  it('refuses NFC and NFD spellings of the same name', () => {
    const error = catchInvalid(() =>
      writeBundle([
        { path: 'caf\u00e9.md', content: '' },
        { path: 'cafe\u0301.md', content: '' },
      ]),
    );
    expect(error.problems[0].message).toContain('collide');
  });

  it('refuses an empty file list', () => {
    expect(catchInvalid(() => writeBundle([])).message).toBe('invalid bundle: a bundle needs at least one file');
  });

  it.each(['a/b', '..', '', 'back\\slash'])("refuses the root folder '%s'", (rootFolder) => {
    const error = catchInvalid(() => writeBundle(FILES, { rootFolder }));
    expect(error.problems[0].path).toBe(rootFolder);
  });

  it('refuses a path that the root folder pushes over the path limit', () => {
    const path = `${'p'.repeat(505)}.md`;
    expect(() => writeBundle([{ path, content: '' }])).not.toThrow();
    const error = catchInvalid(() => writeBundle([{ path, content: '' }], { rootFolder: 'skill' }));
    expect(error.problems[0]).toMatchObject({ path, message: expect.stringContaining('514 bytes') });
  });
});
