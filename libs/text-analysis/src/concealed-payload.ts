/**
 * Instructions that hide what they instruct: a text that gives the reader a payload (an opaque
 * run of characters or numbers, or split pieces) and tells it how to turn that into what it must
 * do (decode, XOR, undo an affine map, interleave parts, reverse). A reviewer cannot read what the
 * model will end up following, whatever the scheme, so the shape itself is refused: no scheme has
 * to be known, and none has to be decoded.
 */

export interface ConcealedPayload {
  /** UTF-16 offset of the decoding instruction. */
  index: number;
  /** What gives it away, for the message: the instruction and the kind of payload. */
  instruction: string;
  payload: string;
}

/** Verbs that turn a payload into text, in an imperative or a heading. */
const DECODING =
  /(?<![\p{L}\p{N}])(?:decode|decrypt|deobfuscate|de-obfuscate|unscramble|descramble|xor|reassemble|reconstruct|interleave|reverse|unshift|rotate|inv\(|modular inverse|décode[rz]?|déchiffre[rz]?|entschlüssel\w*|dekodier\w*|decodifica\w*|descifra\w*|解码|解密|расшифр\w*|декодир\w*)(?![\p{L}\p{N}])/giu;

/** The result is to be read and acted on: "interpret bytes as UTF-8 text", "follow the result", "run it". */
const ACT_ON_RESULT =
  /(?<![\p{L}])(?:interpret|treat|follow|execute|run|obey|carry out)\b[^.\n]{0,60}\b(?:result\w*|decoded|output|bytes|text|instructions?|commands?|steps)\b|installation instructions|on the fly/iu;

/** An opaque payload: a long run of one encoding's alphabet, or a long list of numbers. */
const PAYLOADS: readonly { what: string; pattern: RegExp }[] = [
  { what: 'a list of numbers', pattern: /(?:\b\d{1,3}\s*[,;]\s*){23,}\d{1,3}\b/ },
  { what: 'an encoded run', pattern: /[!-~]{48,}/ },
  { what: 'a payload', pattern: /\bpayload\b|\bpart\d\w*\s*[:=]|\bsplit variables\b/i },
];

/** How far apart, in characters, a payload and the instruction that decodes it may be. */
const REACH = 3000;
/** Decoding words looked at per text: each costs a window's scan, and a text of nothing else is built to waste time. */
const MAX_LOOKS = 64;

export function findConcealedPayloads(text: string): ConcealedPayload[] {
  const found: ConcealedPayload[] = [];
  let looks = 0;
  for (const match of text.matchAll(DECODING)) {
    if (++looks > MAX_LOOKS) break;
    const start = Math.max(0, match.index - REACH);
    const around = text.slice(start, match.index + REACH);
    if (!ACT_ON_RESULT.test(around)) continue;
    const payload = PAYLOADS.find(({ pattern }) => pattern.test(around));
    if (!payload) continue;
    // An ordinary sentence of words is not a payload, however long: the run must hold no space and mix classes.
    if (payload.what === 'an encoded run' && !opaqueRun(around)) continue;
    found.push({ index: match.index, instruction: match[0], payload: payload.what });
    break;
  }
  return found;
}

/** A run of 48 or more non-space characters that mixes three classes of characters (not a URL or a path). */
function opaqueRun(text: string): boolean {
  for (const [run] of text.matchAll(/[!-~]{48,}/g)) {
    if (/^(?:https?:|\/|\.\/|~\/|[\w.-]+@)|:\/\//.test(run)) continue;
    const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^\w]/].filter((pattern) => pattern.test(run)).length;
    if (classes >= 3) return true;
  }
  return false;
}
