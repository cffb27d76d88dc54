/**
 * Python literals read the way the interpreter reads them (string prefixes and escapes, integer
 * forms) and the constant folds the analyser performs on them (`%`, `.format`, `shlex.split`,
 * base64 and hex decoding), so `"\x65xec"`, `"ex" "ec"` and `"%sec" % "ex"` are all `exec`.
 */

/** A string literal's prefix letters (lower-cased) and the text between its quotes. */
export interface StringLiteral {
  prefix: string;
  body: string;
}

export function splitStringLiteral(source: string): StringLiteral | null {
  const match = /^([rRbBuUfFtT]{0,2})('''|"""|'|")/.exec(source);
  if (!match) return null;
  const quote = match[2] as string;
  const start = match[0].length;
  const end = source.length - quote.length;
  if (end < start || !source.endsWith(quote)) return null;
  return { prefix: (match[1] as string).toLowerCase(), body: source.slice(start, end) };
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

/**
 * The characters a non-raw literal body stands for, or null when it uses a named escape
 * (`\N{...}`), which only the interpreter's Unicode table can resolve.
 */
export function decodeEscapes(body: string, bytes: boolean): string | null {
  if (!body.includes('\\')) return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (char !== '\\' || i + 1 >= body.length) {
      out += char;
      continue;
    }
    const next = body[i + 1] as string;
    if (next === '\n') {
      i += 1;
      continue;
    }
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i += 1;
      continue;
    }
    const octal = /^[0-7]{1,3}/.exec(body.slice(i + 1, i + 4));
    if (octal) {
      out += String.fromCharCode(parseInt(octal[0], 8));
      i += octal[0].length;
      continue;
    }
    const width = next === 'x' ? 2 : !bytes && next === 'u' ? 4 : !bytes && next === 'U' ? 8 : 0;
    if (width > 0) {
      const hex = body.slice(i + 2, i + 2 + width);
      if (hex.length !== width || !/^[0-9a-fA-F]+$/.test(hex)) return null;
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) return null;
      out += String.fromCodePoint(code);
      i += 1 + width;
      continue;
    }
    if (!bytes && next === 'N') return null;
    out += char;
  }
  return out;
}

/** The value of an integer literal (`0x1F`, `0o755`, `1_000`), or null. */
export function parseInteger(source: string): number | null {
  const text = source.replace(/_/g, '').toLowerCase();
  const match = /^(0x[0-9a-f]+|0o[0-7]+|0b[01]+|\d+)l?$/.exec(text);
  if (!match) return null;
  const digits = match[1] as string;
  if (digits.startsWith('0x')) return parseInt(digits.slice(2), 16);
  if (digits.startsWith('0o')) return parseInt(digits.slice(2), 8);
  if (digits.startsWith('0b')) return parseInt(digits.slice(2), 2);
  return Number(digits);
}

/** `fmt % args` for constant arguments (`%s`, `%d`, `%r`, `%%`), or null when the format is beyond that. */
export function percentFormat(format: string, args: readonly (string | number)[]): string | null {
  let next = 0;
  let failed = false;
  const out = format.replace(/%([-+ #0]*\d*(?:\.\d+)?)([sdirxXf%])/g, (_all, _flags: string, type: string) => {
    if (type === '%') return '%';
    if (next >= args.length) {
      failed = true;
      return '';
    }
    const arg = args[next++] as string | number;
    if (type === 'r') return typeof arg === 'string' ? `'${arg}'` : String(arg);
    if (type === 'x' || type === 'X') return typeof arg === 'number' ? arg.toString(16) : String(arg);
    return String(arg);
  });
  return failed || next !== args.length ? null : out;
}

/** `fmt.format(*args, **kwargs)` for constant arguments and plain fields (`{}`, `{0}`, `{name}`), or null. */
export function braceFormat(
  format: string,
  args: readonly string[],
  keywords: ReadonlyMap<string, string>,
): string | null {
  let auto = 0;
  let failed = false;
  const out = format.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (all, field: string | undefined) => {
    if (all === '{{') return '{';
    if (all === '}}') return '}';
    const name = (field ?? '').split(/[!:]/)[0] as string;
    const value = name === '' ? args[auto++] : /^\d+$/.test(name) ? args[Number(name)] : keywords.get(name);
    if (value === undefined || (field ?? '').includes(':')) failed = true;
    return value ?? '';
  });
  return failed ? null : out;
}

/** The words a POSIX shell (and `shlex.split`) makes of a constant command line, or null when it is not simple. */
export function shellWords(line: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (/\s/.test(char)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (char === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return null;
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (char === '"') {
      let text = '';
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1] as string)) j++;
        text += line[j];
      }
      if (j >= line.length) return null;
      word = (word ?? '') + text;
      i = j;
    } else if (char === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[i + 1];
      i++;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** Bytes as Python's `.decode()` would give them back (UTF-8, lossy), for folding decoded payloads. */
const utf8 = new TextDecoder('utf-8');
const bytesText = (bytes: Uint8Array): string => utf8.decode(bytes);

/** A constant decoded by base64 (standard or URL-safe), or null when it is not valid base64. */
export function decodeBase64(text: string, urlSafe: boolean): string | null {
  const clean = text.replace(/\s+/g, '');
  const alphabet = urlSafe ? /^[A-Za-z0-9_-]*={0,2}$/ : /^[A-Za-z0-9+/]*={0,2}$/;
  if (!alphabet.test(clean)) return null;
  return bytesText(Buffer.from(clean, urlSafe ? 'base64url' : 'base64'));
}

/** A constant decoded from hexadecimal (`bytes.fromhex`, `binascii.unhexlify`), or null. */
export function decodeHex(text: string): string | null {
  const clean = text.replace(/\s+/g, '');
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) return null;
  return bytesText(Buffer.from(clean, 'hex'));
}

/** ROT13, the codec Python ships under `rot13` / `rot_13`. */
export const rot13 = (text: string): string =>
  text.replace(/[A-Za-z]/g, (char) => {
    const base = char <= 'Z' ? 65 : 97;
    return String.fromCharCode(((char.charCodeAt(0) - base + 13) % 26) + base);
  });
