/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, JSON.stringify's
 * spelling of strings and numbers. For the value types used here that is RFC 8785 (JCS), so
 * equal values always give equal bytes and digests of JSON documents are reproducible.
 */

/** Throws a TypeError for anything JSON cannot carry exactly: undefined, non-finite numbers, class instances, cycles. */
export function canonicalJson(value: unknown): string {
  return write(value, '$', new Set());
}

function write(value: unknown, path: string, ancestors: Set<object>): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${path}: ${value} has no JSON form`);
    return JSON.stringify(value);
  }
  if (typeof value !== 'object') throw new TypeError(`${path}: a ${typeof value} has no JSON form`);
  if (ancestors.has(value)) throw new TypeError(`${path}: the value contains itself`);
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    // Array.from visits holes (as undefined, refused) where map would skip them and leave `[1,,3]`.
    text = `[${Array.from(value, (item, index) => write(item, `${path}[${index}]`, ancestors)).join(',')}]`;
  } else {
    const prototype: unknown = Object.getPrototypeOf(value);
    // A Date, Map or Buffer would otherwise be written as whatever its enumerable keys happen to be.
    if (prototype !== Object.prototype && prototype !== null) {
      throw new TypeError(`${path}: only plain objects have a canonical JSON form`);
    }
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${write(record[key], `${path}.${key}`, ancestors)}`);
    text = `{${members.join(',')}}`;
  }
  ancestors.delete(value);
  return text;
}
