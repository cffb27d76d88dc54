/**
 * What a bundle file is, for the certifier: code it parses, text a model may read, an inert image,
 * or something it cannot analyse (bytecode, binaries, archives, code in a language it has no
 * parser for). Decided from the bytes as well as the name: a `.txt` that is an ELF binary is a
 * binary, and a script named `run` with a `#!/bin/sh` line is shell.
 */
import type { Language } from './analysis.types';
import { pdfActiveContent } from './pdf-content';

export type FileKind =
  | { kind: 'code'; language: Language }
  | { kind: 'text' }
  | { kind: 'inert'; format: string }
  | { kind: 'unanalysable'; reason: string };

const CODE_EXTENSIONS: Readonly<Record<string, Language>> = {
  '.py': 'python',
  '.pyw': 'python',
  '.sh': 'shell',
  '.bash': 'shell',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
};

/** Files shells read by name when they start, or when a folder is entered (direnv's `.envrc`). */
const SHELL_NAMES = new Set(
  '.envrc .bashrc .bash_profile .bash_login .bash_logout .profile .zshrc .zshenv .zprofile .zlogin .kshrc .mkshrc'.split(
    ' ',
  ),
);

/** Code in languages the certifier has no parser for: it cannot prove what they do. */
const OTHER_CODE = new Set(
  '.zsh .ksh .fish .csh .rb .php .pl .pm .lua .ps1 .psm1 .bat .cmd .vbs .applescript .scpt .r .jl .go .rs .c .cc .cpp .h .java .kt .swift .cs .exs .ex .tcl .awk'.split(
    ' ',
  ),
);

/** Compiled, packed or executable forms: nothing in them can be read, whatever their content. */
const OPAQUE_EXTENSIONS: Readonly<Record<string, string>> = Object.fromEntries(
  [
    ['.pyc .pyo .pyd', 'Python bytecode'],
    ['.so .dylib .dll .exe .o .a .node .bin .elf .com', 'a compiled binary'],
    ['.wasm', 'WebAssembly'],
    ['.class .jar .war', 'Java bytecode'],
    ['.zip .tar .gz .tgz .bz2 .xz .zst .7z .rar .whl .egg .deb .rpm .apk .dmg .iso', 'an archive'],
    ['.pickle .pkl .joblib .npy .npz .pt .pth .ckpt .h5 .onnx .safetensors', 'serialized data that can carry code'],
  ].flatMap(([extensions, reason]) => (extensions as string).split(' ').map((extension) => [extension, reason])),
);

/** Magic numbers of formats that are only ever displayed. */
const INERT_FORMATS: readonly {
  format: string;
  magic: readonly number[];
  offset?: number;
  /** Only under these names (a font's four magic bytes are common elsewhere). */
  extensions?: readonly string[];
}[] = [
  { format: 'PNG', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { format: 'JPEG', magic: [0xff, 0xd8, 0xff] },
  { format: 'GIF', magic: [0x47, 0x49, 0x46, 0x38] },
  { format: 'WebP', magic: [0x57, 0x45, 0x42, 0x50], offset: 8 },
  { format: 'ICO', magic: [0x00, 0x00, 0x01, 0x00] },
  // Fonts, named as fonts: glyph outlines and tables a renderer reads; nothing in them runs.
  { format: 'TrueType font', magic: [0x00, 0x01, 0x00, 0x00], extensions: ['.ttf', '.ttc'] },
  { format: 'OpenType font', magic: [0x4f, 0x54, 0x54, 0x4f], extensions: ['.otf'] },
  { format: 'WOFF font', magic: [0x77, 0x4f, 0x46, 0x46], extensions: ['.woff'] },
  { format: 'WOFF2 font', magic: [0x77, 0x4f, 0x46, 0x32], extensions: ['.woff2'] },
  { format: 'BMP', magic: [0x42, 0x4d], extensions: ['.bmp'] },
  { format: 'TIFF', magic: [0x49, 0x49, 0x2a, 0x00], extensions: ['.tif', '.tiff'] },
  { format: 'TIFF', magic: [0x4d, 0x4d, 0x00, 0x2a], extensions: ['.tif', '.tiff'] },
  // Audio and video: samples a player decodes.
  { format: 'MP3', magic: [0x49, 0x44, 0x33], extensions: ['.mp3'] },
  { format: 'MP3', magic: [0xff, 0xfb], extensions: ['.mp3'] },
  { format: 'WAV', magic: [0x57, 0x41, 0x56, 0x45], offset: 8, extensions: ['.wav'] },
  { format: 'Ogg', magic: [0x4f, 0x67, 0x67, 0x53], extensions: ['.ogg', '.oga', '.opus'] },
  { format: 'FLAC', magic: [0x66, 0x4c, 0x61, 0x43], extensions: ['.flac'] },
  { format: 'MP4', magic: [0x66, 0x74, 0x79, 0x70], offset: 4, extensions: ['.mp4', '.m4a', '.mov', '.heic', '.avif'] },
  { format: 'WebM', magic: [0x1a, 0x45, 0xdf, 0xa3], extensions: ['.webm', '.mkv'] },
];

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d];

/** Magic numbers of executables and archives, whatever the file is called. */
const OPAQUE_MAGIC: readonly { reason: string; magic: readonly number[] }[] = [
  { reason: 'an ELF binary', magic: [0x7f, 0x45, 0x4c, 0x46] },
  { reason: 'a Mach-O binary', magic: [0xcf, 0xfa, 0xed, 0xfe] },
  { reason: 'a Mach-O binary', magic: [0xca, 0xfe, 0xba, 0xbe] },
  { reason: 'a Windows executable', magic: [0x4d, 0x5a] },
  { reason: 'WebAssembly', magic: [0x00, 0x61, 0x73, 0x6d] },
  { reason: 'a zip archive', magic: [0x50, 0x4b, 0x03, 0x04] },
  { reason: 'a gzip archive', magic: [0x1f, 0x8b] },
];

const SHEBANG_LANGUAGES: readonly { pattern: RegExp; language: Language }[] = [
  { pattern: /^python(?:\d+(?:\.\d+)?)?$/, language: 'python' },
  { pattern: /^(?:sh|bash|dash)$/, language: 'shell' },
  { pattern: /^(?:node|nodejs)$/, language: 'javascript' },
  { pattern: /^(?:deno|bun|ts-node|tsx)$/, language: 'typescript' },
];

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function classifyFile(path: string, content: Buffer): FileKind {
  const extension = extensionOf(path);
  const magic = OPAQUE_MAGIC.find(({ magic: bytes }) => startsWith(content, bytes));
  if (magic) return { kind: 'unanalysable', reason: magic.reason };
  const opaque = OPAQUE_EXTENSIONS[extension];
  if (opaque) return { kind: 'unanalysable', reason: opaque };
  const inert = INERT_FORMATS.find(
    ({ magic: bytes, offset, extensions }) =>
      startsWith(content, bytes, offset) && (extensions === undefined || extensions.includes(extension)),
  );
  if (inert) return { kind: 'inert', format: inert.format };
  if (startsWith(content, PDF_MAGIC)) {
    const active = pdfActiveContent(content);
    return active === null
      ? { kind: 'inert', format: 'PDF' }
      : { kind: 'unanalysable', reason: `a PDF with active content (${active})` };
  }

  const shebang = shebangLanguage(content);
  if (shebang === 'unknown')
    return { kind: 'unanalysable', reason: 'a script for an interpreter the hub cannot parse' };
  const language = CODE_EXTENSIONS[extension] ?? shebang ?? (SHELL_NAMES.has(basename(path)) ? 'shell' : null);
  if (language) return { kind: 'code', language };
  if (OTHER_CODE.has(extension)) return { kind: 'unanalysable', reason: 'code in a language the hub cannot parse' };
  if (content.includes(0)) return { kind: 'unanalysable', reason: 'binary content of an unknown type' };
  if (!isUtf8(content)) return { kind: 'unanalysable', reason: 'text that is not UTF-8' };
  return { kind: 'text' };
}

function isUtf8(content: Buffer): boolean {
  try {
    utf8.decode(content);
    return true;
  } catch {
    return false;
  }
}

/** The language a `#!` line names, 'unknown' for another interpreter, or null without one. */
function shebangLanguage(content: Buffer): Language | 'unknown' | null {
  if (content[0] !== 0x23 || content[1] !== 0x21) return null;
  const end = content.indexOf(0x0a);
  const line = content.subarray(2, end === -1 ? Math.min(content.length, 256) : Math.min(end, 256)).toString('utf8');
  const words = line.trim().split(/\s+/);
  // `#!/usr/bin/env -S python3 -u` and `#!/usr/bin/env python3` name the interpreter after env.
  const program = basename(words[0] ?? '') === 'env' ? words.slice(1).find((word) => !word.startsWith('-')) : words[0];
  const name = basename(program ?? '');
  return SHEBANG_LANGUAGES.find(({ pattern }) => pattern.test(name))?.language ?? 'unknown';
}

const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

function startsWith(content: Buffer, bytes: readonly number[], offset = 0): boolean {
  return content.length >= offset + bytes.length && bytes.every((byte, i) => content[offset + i] === byte);
}

/** Lower-cased extension with its dot (`.py`), or '' when the name has none. */
export function extensionOf(path: string): string {
  const name = basename(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}
