/**
 * Builds tar archives byte by byte for tests, including ones no honest tool writes (links, devices,
 * hostile names, bad checksums). Written apart from `tar-writer.ts` so the two cannot share a bug.
 */
import { gzipSync } from 'node:zlib';

export interface RawEntry {
  /** Bytes go into the name field as they are, so a test can plant a NUL or invalid UTF-8. */
  name: string | Buffer;
  /** Type flag character; '0' (regular file) unless set. */
  type?: string;
  content?: Buffer | string;
  /** Size written in the header; the length of `content` unless set. */
  size?: number;
  mode?: number;
  linkname?: string;
  prefix?: string;
  /** 'posix' writes `ustar\0` `00`, 'gnu' writes `ustar  \0`, a Buffer writes those 8 bytes as given. */
  magic?: 'posix' | 'gnu' | Buffer;
  /** Added to the correct checksum: anything but 0 breaks the header. */
  checksumDelta?: number;
}

const octal = (value: number, length: number): string => `${value.toString(8).padStart(length - 1, '0')}\0`;

export const rawHeader = (entry: RawEntry): Buffer => {
  const header = Buffer.alloc(512);
  const content = toBuffer(entry.content ?? '');
  (typeof entry.name === 'string' ? Buffer.from(entry.name) : entry.name).copy(header, 0, 0, 100);
  header.write(octal(entry.mode ?? 0o644, 8), 100, 'latin1');
  header.write(octal(0, 8), 108, 'latin1');
  header.write(octal(0, 8), 116, 'latin1');
  header.write(octal(entry.size ?? content.length, 12), 124, 'latin1');
  header.write(octal(0, 12), 136, 'latin1');
  header.write(entry.type ?? '0', 156, 'latin1');
  if (entry.linkname) header.write(entry.linkname, 157, 'utf8');
  const magic = entry.magic ?? 'posix';
  const magicBytes =
    magic === 'posix'
      ? Buffer.from('ustar\x0000', 'latin1')
      : magic === 'gnu'
        ? Buffer.from('ustar  \x00', 'latin1')
        : magic;
  magicBytes.copy(header, 257);
  if (entry.prefix) header.write(entry.prefix, 345, 'utf8');
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${octal(sum + (entry.checksumDelta ?? 0), 7)} `, 148, 'latin1');
  return header;
};

/** A header followed by its content padded to a whole block. */
export const rawEntry = (entry: RawEntry): Buffer => {
  const content = toBuffer(entry.content ?? '');
  return Buffer.concat([rawHeader(entry), content, Buffer.alloc((512 - (content.length % 512)) % 512)]);
};

/** A pax extended header ('x', or 'g' for a global one) holding `records`. */
export const paxEntry = (records: Record<string, string>, type: 'x' | 'g' = 'x'): Buffer => {
  const data = Buffer.concat(
    Object.entries(records).map(([key, value]) => {
      const body = ` ${key}=${value}\n`;
      let length = Buffer.byteLength(body) + 1;
      while (String(length).length + Buffer.byteLength(body) !== length) length++;
      return Buffer.from(`${length}${body}`);
    }),
  );
  return rawEntry({ name: 'PaxHeader', type, content: data });
};

/** A GNU 'L' header whose data is the long name of the entry that follows. */
export const gnuLongNameEntry = (name: string): Buffer =>
  rawEntry({ name: '././@LongLink', type: 'L', content: `${name}\0`, magic: 'gnu' });

/** Entries followed by the two zero blocks that end an archive. */
export const rawTar = (...entries: Buffer[]): Buffer => Buffer.concat([...entries, Buffer.alloc(1024)]);

export const gzip = (tar: Buffer): Buffer => gzipSync(tar);

/** The usual case: a gzipped archive of the given entries. */
export const rawBundle = (...entries: RawEntry[]): Buffer => gzip(rawTar(...entries.map(rawEntry)));

const toBuffer = (content: Buffer | string): Buffer => (typeof content === 'string' ? Buffer.from(content) : content);
