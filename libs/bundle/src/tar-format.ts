/** The ustar header layout (POSIX.1-1988, with pax and GNU extensions) shared by the tar reader and writer. */

export const BLOCK_SIZE = 512;

/** Two zero blocks close an archive. */
export const END_OF_ARCHIVE_BYTES = 2 * BLOCK_SIZE;

/** Most writers pad the archive to a 20-block record; the reader must budget for that padding. */
export const RECORD_SIZE = 20 * BLOCK_SIZE;

/** Byte offset and length of each header field. */
export const FIELD = {
  name: { offset: 0, length: 100 },
  mode: { offset: 100, length: 8 },
  uid: { offset: 108, length: 8 },
  gid: { offset: 116, length: 8 },
  size: { offset: 124, length: 12 },
  mtime: { offset: 136, length: 12 },
  checksum: { offset: 148, length: 8 },
  typeflag: { offset: 156, length: 1 },
  linkname: { offset: 157, length: 100 },
  magic: { offset: 257, length: 6 },
  version: { offset: 263, length: 2 },
  uname: { offset: 265, length: 32 },
  gname: { offset: 297, length: 32 },
  devmajor: { offset: 329, length: 8 },
  devminor: { offset: 337, length: 8 },
  prefix: { offset: 345, length: 155 },
} as const;

export type FieldName = keyof typeof FIELD;

export const TYPEFLAG = {
  file: '0',
  /** Pre-POSIX writers left the flag NUL for regular files. */
  oldFile: '\0',
  hardlink: '1',
  symlink: '2',
  charDevice: '3',
  blockDevice: '4',
  folder: '5',
  fifo: '6',
  /** "Contiguous file": a regular file with an allocation hint nobody honours. */
  contiguous: '7',
  paxExtended: 'x',
  paxGlobal: 'g',
  gnuLongName: 'L',
  gnuLongLink: 'K',
} as const;

/** "ustar\0" + "00": POSIX. */
export const USTAR_MAGIC = Buffer.from('ustar\u000000', 'latin1');
/** "ustar " + " \0": GNU tar's pre-POSIX spelling; its prefix field holds other data. */
export const GNU_MAGIC = Buffer.from('ustar  \u0000', 'latin1');

export const field = (header: Buffer, name: FieldName): Buffer => {
  const { offset, length } = FIELD[name];
  return header.subarray(offset, offset + length);
};

/** Unsigned byte sum of the header with its own checksum field counted as spaces. */
export const headerChecksum = (header: Buffer): number => {
  const { offset, length } = FIELD.checksum;
  let sum = 0;
  for (let i = 0; i < BLOCK_SIZE; i++) {
    sum += i >= offset && i < offset + length ? 0x20 : header[i];
  }
  return sum;
};

export const paddedSize = (size: number): number => Math.ceil(size / BLOCK_SIZE) * BLOCK_SIZE;
