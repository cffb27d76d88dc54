/**
 * A deterministic ustar writer: every header field that could vary between machines (owner, times)
 * is zero or empty, so the same entries always give the same bytes.
 */
import {
  BLOCK_SIZE,
  END_OF_ARCHIVE_BYTES,
  FIELD,
  TYPEFLAG,
  USTAR_MAGIC,
  headerChecksum,
  paddedSize,
} from './tar-format';

export interface TarWriteEntry {
  /** Relative POSIX path, already validated; a folder's path has no trailing `/`. */
  path: string;
  kind: 'file' | 'folder';
  mode: number;
  /** File data; empty for folders. */
  content: Buffer;
}

/** The name GNU tar and Python give pax headers; readers that know pax ignore it. */
const PAX_HEADER_NAME = Buffer.from('././@PaxHeader');

/** Writes the entries in the order given, closed by the end-of-archive marker. */
export const writeTar = (entries: readonly TarWriteEntry[]): Buffer => {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const name = Buffer.from(entry.kind === 'folder' ? `${entry.path}/` : entry.path, 'utf8');
    if (name.length > FIELD.name.length) {
      const records = paxRecord('path', name);
      blocks.push(header(PAX_HEADER_NAME, 0o644, records.length, TYPEFLAG.paxExtended), pad(records));
    }
    const typeflag = entry.kind === 'folder' ? TYPEFLAG.folder : TYPEFLAG.file;
    blocks.push(header(truncateUtf8(name, FIELD.name.length), entry.mode, entry.content.length, typeflag));
    blocks.push(pad(entry.content));
  }
  blocks.push(Buffer.alloc(END_OF_ARCHIVE_BYTES));
  return Buffer.concat(blocks);
};

const header = (name: Buffer, mode: number, size: number, typeflag: string): Buffer => {
  const block = Buffer.alloc(BLOCK_SIZE);
  name.copy(block, FIELD.name.offset);
  writeOctal(block, 'mode', mode);
  writeOctal(block, 'uid', 0);
  writeOctal(block, 'gid', 0);
  // 11 octal digits reach 8 GiB, beyond the largest Buffer Node allocates, so no base-256 fallback is needed.
  writeOctal(block, 'size', size);
  writeOctal(block, 'mtime', 0);
  block.write(typeflag, FIELD.typeflag.offset, 'latin1');
  USTAR_MAGIC.copy(block, FIELD.magic.offset);
  writeOctal(block, 'devmajor', 0);
  writeOctal(block, 'devminor', 0);
  const checksum = headerChecksum(block);
  // Six digits, NUL, space: the spelling every tar has written since V7.
  block.write(`${checksum.toString(8).padStart(6, '0')}\0 `, FIELD.checksum.offset, 'latin1');
  return block;
};

type OctalField = 'mode' | 'uid' | 'gid' | 'size' | 'mtime' | 'devmajor' | 'devminor';

const writeOctal = (block: Buffer, name: OctalField, value: number): void => {
  const { offset, length } = FIELD[name];
  block.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, 'latin1');
};

/** `<length> <key>=<value>\n` where the length counts its own digits too. */
const paxRecord = (key: string, value: Buffer): Buffer => {
  const body = Buffer.concat([Buffer.from(` ${key}=`), value, Buffer.from('\n')]);
  let length = body.length + 1;
  while (String(length).length + body.length !== length) length = String(length).length + body.length;
  return Buffer.concat([Buffer.from(String(length)), body]);
};

const pad = (data: Buffer): Buffer => {
  const padding = paddedSize(data.length) - data.length;
  return padding === 0 ? data : Buffer.concat([data, Buffer.alloc(padding)]);
};

/** The ustar name readers fall back on when they ignore pax; cut on a character boundary so it stays UTF-8. */
const truncateUtf8 = (bytes: Buffer, max: number): Buffer => {
  if (bytes.length <= max) return bytes;
  let end = max;
  // Step back over continuation bytes (10xxxxxx) to the start of the character that does not fit.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
};
