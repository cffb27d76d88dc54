/**
 * A strict, in-memory tar reader: ustar headers, pax `x`/`g` extended headers and GNU long names.
 * It reports what each entry is and leaves the bundle rules (allowed kinds, paths) to its caller.
 */
import { TextDecoder } from 'node:util';
import { displayPath } from './bundle-rules';
import {
  BLOCK_SIZE,
  END_OF_ARCHIVE_BYTES,
  FIELD,
  GNU_MAGIC,
  TYPEFLAG,
  USTAR_MAGIC,
  field,
  headerChecksum,
  paddedSize,
} from './tar-format';

export type TarEntryKind =
  'file' | 'folder' | 'hardlink' | 'symlink' | 'char-device' | 'block-device' | 'fifo' | 'unknown';

export interface TarEntry {
  /** The name as the archive states it: pax `path`, else GNU long name, else ustar prefix + name. */
  name: string;
  kind: TarEntryKind;
  /** The raw type flag, to name an unknown kind. */
  typeflag: string;
  /** Target of a link entry (empty for other kinds). */
  linkName: string;
  mode: number;
  content: Buffer;
  /** What is wrong with the entry without breaking the archive's structure (e.g. a name that is not UTF-8). */
  problems: string[];
}

/** The archive's structure is broken, so nothing after this point can be trusted or read. */
export class TarFormatError extends Error {
  constructor(
    message: string,
    /** The entry being read, for the problem's path, when its name could be decoded. */
    readonly entryName: string | null = null,
  ) {
    super(message);
    this.name = 'TarFormatError';
  }
}

/** Extended headers carry paths and a few attributes; anything this big is not a real one. */
const MAX_EXTENDED_HEADER_BYTES = 64 * 1024;

/** Kinds POSIX stores no data for; a size on them would make readers disagree on where the next header is. */
const DATALESS_KINDS: ReadonlySet<TarEntryKind> = new Set([
  'folder',
  'hardlink',
  'symlink',
  'char-device',
  'block-device',
  'fifo',
]);

/** pax keys that would change how a global header's followers are read; other tools disagree on them. */
const GLOBAL_KEYS_NOT_HONOURED = ['path', 'linkpath', 'size'];

// ignoreBOM keeps a leading U+FEFF in the name, so it cannot be used to dodge the collision check.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** What extended headers set for the next real entry. */
interface PendingAttributes {
  path?: Buffer;
  linkPath?: Buffer;
  size?: number;
  longName?: Buffer;
  longLink?: Buffer;
  sparse?: boolean;
}

/** Yields entries in archive order; throws `TarFormatError` at the first structural fault. */
export function* readTarEntries(tar: Buffer): Generator<TarEntry, void, undefined> {
  let offset = 0;
  let pending: PendingAttributes = {};
  for (;;) {
    if (offset + BLOCK_SIZE > tar.length) {
      throw new TarFormatError(
        `the tar archive is truncated: it ends at byte ${tar.length} without an end-of-archive marker`,
      );
    }
    const header = tar.subarray(offset, offset + BLOCK_SIZE);
    if (isZero(header)) {
      checkEndOfArchive(tar, offset, pending);
      return;
    }

    const headerName = ustarName(header);
    const shownName = displayPath(lenientUtf8.decode(headerName));
    const storedChecksum = parseOctal(field(header, 'checksum'), 'checksum', shownName);
    const computedChecksum = headerChecksum(header);
    if (storedChecksum !== computedChecksum) {
      throw new TarFormatError(
        `the header of entry '${shownName}' at byte ${offset} has a bad checksum (stored ${storedChecksum}, computed ${computedChecksum})`,
        shownName,
      );
    }
    if (!hasUstarMagic(header)) {
      throw new TarFormatError(`entry '${shownName}' at byte ${offset} is not a ustar header`, shownName);
    }

    const typeflag = String.fromCharCode(field(header, 'typeflag')[0]);
    const headerSize = parseOctal(field(header, 'size'), 'size', shownName);
    const dataOffset = offset + BLOCK_SIZE;

    if (isExtendedHeader(typeflag)) {
      if (headerSize > MAX_EXTENDED_HEADER_BYTES) {
        throw new TarFormatError(
          `extended header '${shownName}' is ${headerSize} bytes, more than the ${MAX_EXTENDED_HEADER_BYTES} allowed`,
          shownName,
        );
      }
      const data = readData(tar, dataOffset, headerSize, shownName);
      pending = applyExtendedHeader(pending, typeflag, data, shownName);
      offset = dataOffset + paddedSize(headerSize);
      continue;
    }

    const problems: string[] = [];
    const name = decodeName(pending.path ?? pending.longName ?? headerName, problems);
    const shown = displayPath(name);
    const kind = kindOf(typeflag);
    const size = pending.size ?? headerSize;
    if (DATALESS_KINDS.has(kind) && size !== 0) {
      throw new TarFormatError(`entry '${shown}' is a ${kind} yet declares ${size} bytes of data`, shown);
    }
    if (pending.sparse) problems.push('the entry is a sparse file, which is not supported');
    const linkBytes = pending.linkPath ?? pending.longLink ?? trimNuls(field(header, 'linkname'));

    yield {
      name,
      kind,
      typeflag,
      linkName: lenientUtf8.decode(linkBytes),
      mode: parseOctal(field(header, 'mode'), 'mode', shown),
      content: readData(tar, dataOffset, size, shown),
      problems,
    };
    pending = {};
    offset = dataOffset + paddedSize(size);
  }
}

const checkEndOfArchive = (tar: Buffer, offset: number, pending: PendingAttributes): void => {
  if (Object.keys(pending).length > 0) {
    throw new TarFormatError('the tar archive ends with an extended header that no entry follows');
  }
  if (offset + END_OF_ARCHIVE_BYTES > tar.length) {
    throw new TarFormatError('the tar archive is truncated: it ends after a single zero block');
  }
  if (!isZero(tar.subarray(offset + BLOCK_SIZE, offset + END_OF_ARCHIVE_BYTES))) {
    throw new TarFormatError(`the tar archive has a stray zero block at byte ${offset}`);
  }
  // Writers pad with zeros up to a record; anything else there is hidden data no extractor shows.
  if (!isZero(tar.subarray(offset + END_OF_ARCHIVE_BYTES))) {
    throw new TarFormatError('data follows the end-of-archive marker');
  }
};

const applyExtendedHeader = (
  pending: PendingAttributes,
  typeflag: string,
  data: Buffer,
  shownName: string,
): PendingAttributes => {
  switch (typeflag) {
    case TYPEFLAG.gnuLongName:
      return { ...pending, longName: trimNuls(data) };
    case TYPEFLAG.gnuLongLink:
      return { ...pending, longLink: trimNuls(data) };
    case TYPEFLAG.paxGlobal: {
      // `git archive` writes one with a commit id comment; only keys that alter entries are refused.
      for (const key of parsePaxRecords(data, shownName).keys()) {
        if (GLOBAL_KEYS_NOT_HONOURED.includes(key) || key.startsWith('GNU.sparse.')) {
          throw new TarFormatError(`a global pax header sets '${key}', which this reader does not honour`, shownName);
        }
      }
      return pending;
    }
    default:
      return applyPaxRecords(pending, parsePaxRecords(data, shownName), shownName);
  }
};

const applyPaxRecords = (
  pending: PendingAttributes,
  records: Map<string, Buffer>,
  shownName: string,
): PendingAttributes => {
  const next = { ...pending };
  for (const [key, value] of records) {
    // An empty value unsets the attribute (POSIX pax), so the ustar field applies again.
    if (key === 'path') next.path = value.length > 0 ? value : undefined;
    else if (key === 'linkpath') next.linkPath = value.length > 0 ? value : undefined;
    else if (key === 'size') next.size = value.length > 0 ? parsePaxSize(value, shownName) : undefined;
    else if (key.startsWith('GNU.sparse.')) next.sparse = true;
  }
  for (const key of Object.keys(next) as (keyof PendingAttributes)[]) {
    if (next[key] === undefined) delete next[key];
  }
  return next;
};

/** Records are `<length> <key>=<value>\n`, the length counting the whole record in bytes. */
const parsePaxRecords = (data: Buffer, shownName: string): Map<string, Buffer> => {
  const records = new Map<string, Buffer>();
  const malformed = (): TarFormatError =>
    new TarFormatError(`the pax header of entry '${shownName}' has a malformed record`, shownName);
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space < 0) throw malformed();
    const lengthText = data.toString('latin1', offset, space);
    if (!/^[1-9][0-9]{0,9}$/.test(lengthText)) throw malformed();
    const end = offset + Number(lengthText);
    if (end > data.length || end <= space + 1 || data[end - 1] !== 0x0a) throw malformed();
    const record = data.subarray(space + 1, end - 1);
    const equals = record.indexOf(0x3d);
    if (equals <= 0) throw malformed();
    records.set(record.toString('utf8', 0, equals), record.subarray(equals + 1));
    offset = end;
  }
  return records;
};

const parsePaxSize = (value: Buffer, shownName: string): number => {
  const text = value.toString('latin1');
  const size = /^[0-9]{1,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(size)) {
    throw new TarFormatError(`the pax header of entry '${shownName}' has a malformed size '${text}'`, shownName);
  }
  return size;
};

/** Octal text, space- or NUL-terminated. GNU base-256 only matters for sizes far beyond any bundle limit. */
const parseOctal = (bytes: Buffer, what: string, shownName: string): number => {
  if ((bytes[0] & 0x80) !== 0) {
    throw new TarFormatError(`entry '${shownName}' stores its ${what} in base-256, which is not supported`, shownName);
  }
  const text = bytes
    .toString('latin1')
    .replace(/^ +/, '')
    .replace(/[\0 ]+$/, '');
  if (!/^[0-7]*$/.test(text)) {
    throw new TarFormatError(`entry '${shownName}' has a malformed ${what} field`, shownName);
  }
  return text === '' ? 0 : parseInt(text, 8);
};

const readData = (tar: Buffer, offset: number, size: number, shownName: string): Buffer => {
  if (offset + size > tar.length) {
    throw new TarFormatError(
      `the tar archive is truncated: entry '${shownName}' declares ${size} bytes but only ${Math.max(tar.length - offset, 0)} remain`,
      shownName,
    );
  }
  return tar.subarray(offset, offset + size);
};

/** The magic and version fields together: `ustar\0` `00` for POSIX, `ustar ` ` \0` for GNU. */
const magicOf = (header: Buffer): Buffer =>
  header.subarray(FIELD.magic.offset, FIELD.version.offset + FIELD.version.length);

const hasUstarMagic = (header: Buffer): boolean => {
  const magic = magicOf(header);
  return magic.equals(USTAR_MAGIC) || magic.equals(GNU_MAGIC);
};

/**
 * Only trailing NULs end a name; one inside it is kept, so the path rules see and refuse it rather
 * than this reader silently cutting `evil\0../../x` down to `evil`.
 */
const ustarName = (header: Buffer): Buffer => {
  const name = trimNuls(field(header, 'name'));
  // GNU's own magic reuses the prefix field for other data.
  if (!magicOf(header).equals(USTAR_MAGIC)) return name;
  const prefix = trimNuls(field(header, 'prefix'));
  return prefix.length > 0 ? Buffer.concat([prefix, Buffer.from('/'), name]) : name;
};

const isExtendedHeader = (typeflag: string): boolean =>
  typeflag === TYPEFLAG.paxExtended ||
  typeflag === TYPEFLAG.paxGlobal ||
  typeflag === TYPEFLAG.gnuLongName ||
  typeflag === TYPEFLAG.gnuLongLink;

const kindOf = (typeflag: string): TarEntryKind => {
  switch (typeflag) {
    case TYPEFLAG.file:
    case TYPEFLAG.oldFile:
    case TYPEFLAG.contiguous:
      return 'file';
    case TYPEFLAG.folder:
      return 'folder';
    case TYPEFLAG.hardlink:
      return 'hardlink';
    case TYPEFLAG.symlink:
      return 'symlink';
    case TYPEFLAG.charDevice:
      return 'char-device';
    case TYPEFLAG.blockDevice:
      return 'block-device';
    case TYPEFLAG.fifo:
      return 'fifo';
    default:
      return 'unknown';
  }
};

const decodeName = (bytes: Buffer, problems: string[]): string => {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    problems.push('the name is not valid UTF-8');
    return lenientUtf8.decode(bytes);
  }
};

const trimNuls = (bytes: Buffer): Buffer => {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return bytes.subarray(0, end);
};

const isZero = (bytes: Buffer): boolean => {
  for (const byte of bytes) if (byte !== 0) return false;
  return true;
};
