/** Strict base64 decoding for every encoded field the lib reads. */

/**
 * Decodes `text` only when it is the canonical spelling of its bytes (standard base64 with
 * padding, or base64url without). Node's decoder silently skips characters outside the
 * alphabet and ignores stray bits, which would let many strings stand for one value; the
 * round trip refuses all of them.
 */
export function decodeBase64(text: string, encoding: 'base64' | 'base64url'): Buffer | undefined {
  const bytes = Buffer.from(text, encoding);
  return bytes.toString(encoding) === text ? bytes : undefined;
}
