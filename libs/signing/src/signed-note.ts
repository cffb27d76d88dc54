/**
 * C2SP signed notes (c2sp.org/signed-note, as golang.org/x/mod/sumdb/note writes them) with
 * Ed25519 keys: the text, a blank line, then lines `— <name> <base64(key hash || signature)>`.
 * The signature covers the text bytes, final newline included.
 */
import type { KeyObject } from 'node:crypto';
import { decodeBase64 } from './base64';
import { sha256 } from '@skillhub/bundle';
import { signEd25519, verifyEd25519 } from './hub-key';
import { BadSignatureError, MalformedNoteError, UnknownKeyError } from './signing.errors';

// The note format's algorithm byte for Ed25519, hashed into the key id.
const ALGORITHM_ED25519 = 0x01;
const KEY_HASH_BYTES = 4;
const SIGNATURE_PREFIX = '\u2014 '; // em dash, space
// Verifiers are expected to bound the work a note can cause; the Go reference stops at 100 lines.
const MAX_SIGNATURES = 100;
// No Unicode spaces (they separate fields), no "+" (it separates verifier-key fields), no controls.
const NAME_PATTERN = /^[^\s+\p{Cc}]+$/u;

export function signNote(text: string, name: string, privateKey: KeyObject): string {
  assertName(name);
  assertText(text);
  const signature = signEd25519(Buffer.from(text, 'utf8'), privateKey);
  const blob = Buffer.concat([keyHash(name, privateKey), signature]).toString('base64');
  return `${text}\n${SIGNATURE_PREFIX}${name} ${blob}\n`;
}

/**
 * Returns the note's text once a signature line under `name` verifies with one of `publicKeys`.
 * Lines by other names or keys are ignored: witnesses may add cosignatures.
 */
export function openNote(note: string, name: string, publicKeys: readonly KeyObject[]): string {
  const split = note.lastIndexOf('\n\n');
  if (split === -1) throw new MalformedNoteError('no blank line before the signatures');
  const text = note.slice(0, split + 1);
  assertText(text);
  const lines = note.slice(split + 2).split('\n');
  if (lines.pop() !== '') throw new MalformedNoteError('the last signature line must end with a newline');
  if (lines.length === 0) throw new MalformedNoteError('no signature lines');
  if (lines.length > MAX_SIGNATURES) throw new MalformedNoteError(`more than ${MAX_SIGNATURES} signature lines`);
  const message = Buffer.from(text, 'utf8');
  const candidates = publicKeys
    .filter((publicKey) => publicKey.asymmetricKeyType === 'ed25519')
    .map((publicKey) => ({ publicKey, hash: keyHash(name, publicKey) }));
  let failedKnownKey = false;
  for (const line of lines) {
    const signature = parseSignatureLine(line);
    if (signature.name !== name) continue;
    for (const { publicKey } of candidates.filter(({ hash }) => hash.equals(signature.keyHash))) {
      if (verifyEd25519(message, signature.signature, publicKey)) return text;
      failedKnownKey = true;
    }
  }
  if (failedKnownKey) throw new BadSignatureError(`The signature of ${name} on the note does not verify`);
  throw new UnknownKeyError(`The note carries no signature of ${name} by a trusted key`);
}

/** The first 4 bytes of SHA-256(name || "\n" || 0x01 || raw public key): how a signature line names its key. */
function keyHash(name: string, key: KeyObject): Buffer {
  // JWK's `x` is the raw 32-byte Ed25519 public key, for a private key object as well as a public one.
  const rawKey = Buffer.from(key.export({ format: 'jwk' }).x ?? '', 'base64url');
  return sha256(name, '\n', Buffer.from([ALGORITHM_ED25519]), rawKey).subarray(0, KEY_HASH_BYTES);
}

function parseSignatureLine(line: string): { name: string; keyHash: Buffer; signature: Buffer } {
  const fields = line.startsWith(SIGNATURE_PREFIX) ? line.slice(SIGNATURE_PREFIX.length).split(' ') : [];
  const blob = fields.length === 2 ? decodeBase64(fields[1], 'base64') : undefined;
  if (blob === undefined || blob.length <= KEY_HASH_BYTES || !NAME_PATTERN.test(fields[0])) {
    throw new MalformedNoteError('a signature line is not "— <name> <base64>"');
  }
  return { name: fields[0], keyHash: blob.subarray(0, KEY_HASH_BYTES), signature: blob.subarray(KEY_HASH_BYTES) };
}

function assertName(name: string): void {
  if (!NAME_PATTERN.test(name)) throw new MalformedNoteError('a key name must be non-empty, without spaces or "+"');
}

function assertText(text: string): void {
  if (!text.endsWith('\n')) throw new MalformedNoteError('the text must end with a newline');
  // Newline is the only control character a note may hold; anything else could hide text from a reader.
  if (/[\p{Cc}]/u.test(text.replace(/\n/g, ''))) throw new MalformedNoteError('the text holds control characters');
  // A lone surrogate would be signed as U+FFFD and read back as something else.
  if (Buffer.from(text, 'utf8').toString('utf8') !== text) {
    throw new MalformedNoteError('the text is not valid Unicode');
  }
}
