import { deflateSync } from 'node:zlib';
import { classifyFile } from './file-kind';

const text = (value: string): Buffer => Buffer.from(value, 'utf8');

describe('classifyFile', () => {
  it.each([
    ['main.py', 'print(1)\n', 'python'],
    ['scripts/setup.sh', 'echo hi\n', 'shell'],
    ['server.mjs', 'export {}\n', 'javascript'],
    ['index.tsx', 'export {}\n', 'tsx'],
    ['cast.ts', 'const n = <number>x;\n', 'typescript'],
    ['bin/run', '#!/usr/bin/env python3\nprint(1)\n', 'python'],
    ['bin/go', '#!/bin/bash\necho hi\n', 'shell'],
    ['bin/serve', '#!/usr/bin/env -S node --no-warnings\n', 'javascript'],
  ])('reads %s as %s code', (path, content, language) => {
    expect(classifyFile(path, text(content))).toEqual({ kind: 'code', language });
  });

  it.each([
    ['SKILL.md', '# Title\n'],
    ['references/notes.html', '<p>notes</p>\n'],
    ['data/table.csv', 'a,b\n1,2\n'],
    ['LICENSE', 'MIT License\n'],
  ])('reads %s as text a model may read', (path, content) => {
    expect(classifyFile(path, text(content))).toEqual({ kind: 'text' });
  });

  it('takes a PNG for an inert image whatever it is called', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(classifyFile('assets/logo.png', png)).toEqual({ kind: 'inert', format: 'PNG' });
  });

  it.each([
    ['fonts/Inter.ttf', [0x00, 0x01, 0x00, 0x00, 0x00, 0x10], 'TrueType font'],
    ['fonts/Inter.otf', [0x4f, 0x54, 0x54, 0x4f, 0x00, 0x10], 'OpenType font'],
    ['fonts/Inter.woff2', [0x77, 0x4f, 0x46, 0x32, 0x00, 0x01], 'WOFF2 font'],
  ])('takes %s for an inert font', (path, bytes, format) => {
    expect(classifyFile(path, Buffer.from(bytes))).toEqual({ kind: 'inert', format });
  });

  it.each([
    ['sounds/chime.mp3', [0x49, 0x44, 0x33, 0x04, 0x00], 'MP3'],
    ['sounds/chime.wav', [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x41, 0x56, 0x45], 'WAV'],
    ['media/demo.mp4', [0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d], 'MP4'],
  ])('takes %s for inert media', (path, bytes, format) => {
    expect(classifyFile(path, Buffer.from(bytes))).toEqual({ kind: 'inert', format });
  });

  /** A PDF of the given objects, each `stream` body deflated (and hex-encoded) when asked. */
  const pdf = (
    objects: string[],
    streams: { dictionary: string; body: string; deflate: boolean; hex?: boolean }[] = [],
  ): Buffer =>
    Buffer.concat([
      Buffer.from(`%PDF-1.7\n${objects.map((object, i) => `${i + 1} 0 obj\n${object}\nendobj\n`).join('')}`, 'latin1'),
      ...streams.map(({ dictionary, body, deflate, hex }, i) =>
        Buffer.concat([
          Buffer.from(`${objects.length + i + 1} 0 obj\n<< ${dictionary} >>\nstream\n`, 'latin1'),
          ((bytes: Buffer) => (hex ? Buffer.from(`${bytes.toString('hex')}>`) : bytes))(
            deflate ? deflateSync(Buffer.from(body, 'latin1')) : Buffer.from(body, 'latin1'),
          ),
          Buffer.from('\nendstream\nendobj\n', 'latin1'),
        ]),
      ),
      Buffer.from('%%EOF\n', 'latin1'),
    ]);

  it('takes a PDF that is only displayed for inert, compressed pages included', () => {
    const document = pdf(
      ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>'],
      [{ dictionary: '/Filter /FlateDecode', body: 'BT /F1 12 Tf (Hello) Tj ET', deflate: true }],
    );
    expect(classifyFile('docs/guide.pdf', document)).toEqual({ kind: 'inert', format: 'PDF' });
  });

  it.each([
    [
      'JavaScript in an object',
      pdf(['<< /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >>']),
      '/OpenAction',
    ],
    [
      'a launch action hidden in a compressed object stream',
      pdf(
        ['<< /Type /Catalog >>'],
        [{ dictionary: '/Type /ObjStm /Filter /FlateDecode', body: '<< /S /Launch /F (cmd.exe) >>', deflate: true }],
      ),
      '/Launch',
    ],
    [
      'JavaScript behind a chain of filters',
      pdf(
        ['<< /Type /Catalog >>'],
        [
          {
            dictionary: '/Type /ObjStm /Filter [/ASCIIHexDecode /FlateDecode]',
            body: '<< /S /JavaScript /JS (this.exportDataObject()) >>',
            deflate: true,
            hex: true,
          },
        ],
      ),
      '/JavaScript',
    ],
    [
      'a stream that claims compression but is not zlib data',
      pdf(['<< /Type /Catalog >>'], [{ dictionary: '/Filter /FlateDecode', body: 'not zlib at all', deflate: false }]),
      'a stream that cannot be decoded',
    ],
  ])('cannot analyse a PDF with %s', (_label, document, active) => {
    expect(classifyFile('docs/guide.pdf', document)).toEqual({
      kind: 'unanalysable',
      reason: `a PDF with active content (${active})`,
    });
  });

  it.each([
    ['blob', Buffer.from([0x00, 0x01, 0x00, 0x00, 0xff, 0x00]), 'binary content of an unknown type'],
    ['helper.pyc', Buffer.from([0x6f, 0x0d, 0x0d, 0x0a, 0, 0, 0, 0]), 'Python bytecode'],
    ['notes.txt', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), 'an ELF binary'],
    ['data.bin', Buffer.from([1, 2, 3, 0, 255, 254]), 'a compiled binary'],
    ['blob', Buffer.from([1, 2, 3, 0, 255, 254]), 'binary content of an unknown type'],
    ['vendor.zip', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]), 'a zip archive'],
    ['tool.rb', text('puts 1\n'), 'code in a language the hub cannot parse'],
    ['bin/tool', text('#!/usr/bin/perl\nprint 1;\n'), 'a script for an interpreter the hub cannot parse'],
    ['latin1.md', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), 'text that is not UTF-8'],
  ])('cannot analyse %s (%s)', (path, content, reason) => {
    expect(classifyFile(path, content)).toEqual({ kind: 'unanalysable', reason });
  });
});
