/**
 * Whether a PDF only displays, or can act: the names of active content (JavaScript, launch,
 * submit and open actions, embedded files, XFA forms, rich media) looked for in its objects and,
 * decoded, in every stream whose filters are general-purpose (object streams hide dictionaries
 * there). Image streams (DCT, JPX, CCITT, JBIG2) hold samples, not syntax. A stream that cannot be
 * decoded within bounds is taken as hiding something.
 */
import { constants, inflateSync } from 'node:zlib';

const PDF_ACTIVE =
  /\/(?:JavaScript|JS|Launch|OpenAction|AA|EmbeddedFiles?|XFA|RichMedia|SubmitForm|ImportData|GoToR|GoToE)\b/;
const IMAGE_FILTERS = new Set(['DCTDecode', 'JPXDecode', 'CCITTFaxDecode', 'JBIG2Decode']);
const MAX_STREAMS = 2_000;
const MAX_DECODED = 4 * 1024 * 1024;

/** The first name of active content, or why the document cannot be read; null for one that only displays. */
export function pdfActiveContent(content: Buffer): string | null {
  const text = content.toString('latin1');
  const plain = PDF_ACTIVE.exec(text);
  if (plain) return plain[0];
  let streams = 0;
  for (let at = text.indexOf('stream'); at !== -1; at = text.indexOf('stream', at + 6)) {
    if (text.startsWith('endstream', at - 3)) continue;
    let start = at + 6;
    if (text[start] === '\r') start++;
    if (text[start] === '\n') start++;
    const end = text.indexOf('endstream', start);
    if (end === -1) break;
    if (++streams > MAX_STREAMS) return 'too many streams to read';
    const filters = filtersOf(text.slice(Math.max(0, text.lastIndexOf('<<', at)), at));
    // Past this stream's bytes in any case: what they hold is not PDF syntax.
    const body = content.subarray(start, end);
    at = end;
    if (filters.some((filter) => IMAGE_FILTERS.has(filter))) continue;
    const decoded = decode(body, filters);
    if (decoded === null) return 'a stream that cannot be decoded';
    const found = PDF_ACTIVE.exec(decoded.toString('latin1'));
    if (found) return found[0];
  }
  return null;
}

/** `/Filter /FlateDecode` or `/Filter [/ASCII85Decode /FlateDecode]`, in the order they are undone. */
function filtersOf(dictionary: string): string[] {
  const match = /\/Filter\s*(?:\[([^\]]*)\]|\/(\w+))/.exec(dictionary);
  if (!match) return [];
  return match[2] ? [match[2]] : [...(match[1] ?? '').matchAll(/\/(\w+)/g)].map((name) => name[1] as string);
}

function decode(body: Buffer, filters: readonly string[]): Buffer | null {
  let data: Buffer = body;
  for (const filter of filters) {
    try {
      if (filter === 'FlateDecode' || filter === 'Fl')
        // Sync flush: a stream cut short still inflates as far as it goes.
        data = inflateSync(data, { maxOutputLength: MAX_DECODED, finishFlush: constants.Z_SYNC_FLUSH });
      else if (filter === 'ASCIIHexDecode' || filter === 'AHx') data = asciiHex(data);
      else if (filter === 'ASCII85Decode' || filter === 'A85') data = ascii85(data);
      else return null;
    } catch {
      return null;
    }
  }
  return data;
}

function asciiHex(data: Buffer): Buffer {
  const text = data.toString('latin1');
  const end = text.indexOf('>');
  const hex = (end === -1 ? text : text.slice(0, end)).replace(/\s+/g, '');
  if (!/^[0-9A-Fa-f]*$/.test(hex)) throw new Error('not hex');
  return Buffer.from(hex.length % 2 === 0 ? hex : `${hex}0`, 'hex');
}

/** ASCII base-85 as PDF writes it: `z` for four zero bytes, ending at `~>`. */
function ascii85(data: Buffer): Buffer {
  const text = data.toString('latin1');
  const end = text.indexOf('~>');
  const body = (end === -1 ? text : text.slice(0, end)).replace(/^<~/, '').replace(/\s+/g, '');
  const out: number[] = [];
  let group: number[] = [];
  for (const character of body) {
    if (character === 'z' && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const digit = character.charCodeAt(0) - 33;
    if (digit < 0 || digit > 84) throw new Error('not base-85');
    group.push(digit);
    if (group.length === 5) {
      out.push(...word(group, 4));
      group = [];
    }
  }
  if (group.length === 1) throw new Error('truncated base-85');
  if (group.length > 0) {
    const size = group.length - 1;
    while (group.length < 5) group.push(84);
    out.push(...word(group, size));
  }
  if (out.length > MAX_DECODED) throw new Error('too large');
  return Buffer.from(out);
}

function word(digits: readonly number[], bytes: number): number[] {
  const value = digits.reduce((sum, digit) => sum * 85 + digit, 0);
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].slice(0, bytes);
}
