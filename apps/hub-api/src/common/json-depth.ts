/**
 * A cap on how deeply a JSON body nests, checked on its bytes before it is parsed: validation and
 * transformation walk bodies recursively, and 10,000 levels overflow their stack. No body the API
 * takes nests anywhere near the cap (a submitted manifest is refused past 32 levels anyway).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '@skillhub/errors';

export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

export class JsonTooDeepError extends DomainError {
  constructor() {
    super('invalid', 'REQUEST.TOO_DEEP', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`, [
      { path: 'body', message: `arrays and objects may nest at most ${MAX_JSON_DEPTH} levels deep`, severity: 'error' },
    ]);
  }
}

/**
 * The deepest nesting of arrays and objects in JSON text, stopping as soon as it passes `max`.
 * Bytes, not characters: no byte of a multi-byte UTF-8 character is ASCII, so brackets and quotes
 * are found as they are in the text.
 */
export function jsonDepth(bytes: Uint8Array, max = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (OPENERS.has(byte)) {
      deepest = Math.max(deepest, ++depth);
      if (deepest > max) break;
    } else if (CLOSERS.has(byte)) {
      depth--;
    }
  }
  return deepest;
}

/** body-parser's `verify` hook: runs on the raw bytes before `JSON.parse`. */
export function refuseDeepJson(_req: IncomingMessage, _res: ServerResponse, body: Buffer): void {
  if (jsonDepth(body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new JsonTooDeepError();
}
