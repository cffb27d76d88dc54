/**
 * Signed checkpoints of the transparency log (c2sp.org/tlog-checkpoint): a signed note whose
 * text is `<origin>\n<size>\n<base64 root>\n`, then one extension line `timestamp <ISO time>`
 * so a consumer can tell a stale checkpoint. Standard checkpoint readers skip extension lines;
 * the note is signed under the origin as key name.
 */
import type { KeyObject } from 'node:crypto';
import { decodeBase64 } from './base64';
import { isCanonicalIsoTime } from './iso-time';
import { openNote, signNote } from './signed-note';
import { MalformedNoteError } from './signing.errors';

export interface Checkpoint {
  /** The log's identity, e.g. `skillhub.example.com/log`; also the name the checkpoint is signed under. */
  origin: string;
  treeSize: number;
  /** The RFC 6962 root of the first `treeSize` leaves. */
  rootHash: Buffer;
  timestamp: Date;
}

const TIMESTAMP_PREFIX = 'timestamp ';
const TREE_SIZE_PATTERN = /^(?:0|[1-9]\d{0,15})$/;
const ROOT_HASH_BYTES = 32;

export function signCheckpoint(checkpoint: Checkpoint, privateKey: KeyObject): string {
  const { origin, treeSize, rootHash, timestamp } = checkpoint;
  if (!Number.isSafeInteger(treeSize) || treeSize < 0) {
    throw new MalformedNoteError('the tree size must be an integer ≥ 0');
  }
  if (rootHash.length !== ROOT_HASH_BYTES) throw new MalformedNoteError('the root hash must be 32 bytes');
  if (Number.isNaN(timestamp.getTime())) throw new MalformedNoteError('the timestamp is not a valid time');
  const text = `${origin}\n${treeSize}\n${rootHash.toString('base64')}\n${TIMESTAMP_PREFIX}${timestamp.toISOString()}\n`;
  return signNote(text, origin, privateKey);
}

/** Verifies the log's signature (any of `publicKeys`, for rotation) and that the checkpoint is this origin's. */
export function verifyCheckpoint(note: string, origin: string, publicKeys: readonly KeyObject[]): Checkpoint {
  const lines = openNote(note, origin, publicKeys).split('\n');
  lines.pop(); // the text ends with a newline
  if (lines.length !== 4) throw new MalformedNoteError('a checkpoint has origin, size, root and timestamp lines');
  const [noteOrigin, size, root, timestampLine] = lines;
  // The signature name was already `origin`; the text must agree, or a log could vouch for another's tree.
  if (noteOrigin !== origin) throw new MalformedNoteError(`the checkpoint is for ${noteOrigin}, not ${origin}`);
  const treeSize = TREE_SIZE_PATTERN.test(size) ? Number(size) : Number.NaN;
  if (!Number.isSafeInteger(treeSize)) throw new MalformedNoteError('the tree size is not a decimal integer');
  const rootHash = decodeBase64(root, 'base64');
  if (rootHash?.length !== ROOT_HASH_BYTES) throw new MalformedNoteError('the root hash is not 32 bytes of base64');
  const time = timestampLine.startsWith(TIMESTAMP_PREFIX) ? timestampLine.slice(TIMESTAMP_PREFIX.length) : '';
  if (!isCanonicalIsoTime(time)) throw new MalformedNoteError('the timestamp line is not "timestamp <ISO time>"');
  return { origin, treeSize, rootHash, timestamp: new Date(time) };
}
