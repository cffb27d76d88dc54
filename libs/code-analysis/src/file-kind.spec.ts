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
