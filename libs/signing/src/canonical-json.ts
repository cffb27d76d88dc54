/**
 * Canonical JSON, the one of the tree: the bytes certificates, revocation lists, publisher
 * signatures and tool-definition pins are hashed and signed over. Object keys sorted by UTF-16
 * code units at every depth, array order kept, no whitespace, strings and numbers spelled as
 * `JSON.stringify` spells them: for JSON values that is RFC 8785 (JCS), so equal values always
 * give equal bytes and digests are reproducible.
 *
 * Strict by design: anything JSON cannot carry exactly throws NotCanonicalJsonError, naming
 * where it is, instead of being dropped or coerced. That is undefined (as a value, an array
 * item or an object member: JSON.stringify would drop the member, so two different values
 * would sign alike), functions, symbols, bigints, NaN and the infinities, class instances (a
 * Date, Map or Buffer would be written as whatever its enumerable keys happen to be), cycles,
 * and nesting deeper than MAX_JSON_DEPTH.
 */
import { NotCanonicalJsonError } from './signing.errors';

/** Deeper than any real document or input schema; keeps recursion far from the stack limit. */
export const MAX_JSON_DEPTH = 100;

export function canonicalJson(value: unknown): string {
  return write(value, '$', 0, new Set());
}

function write(value: unknown, path: string, depth: number, ancestors: Set<object>): string {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new NotCanonicalJsonError(`${value} has no JSON spelling`, path);
      return JSON.stringify(value);
    case 'object':
      if (value === null) return 'null';
      break;
    default:
      throw new NotCanonicalJsonError(`a value of type ${typeof value} has no JSON spelling`, path);
  }
  if (depth >= MAX_JSON_DEPTH) throw new NotCanonicalJsonError(`nested deeper than ${MAX_JSON_DEPTH} levels`, path);
  if (ancestors.has(value)) throw new NotCanonicalJsonError('the value contains itself', path);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      // Array.from visits holes (as undefined, refused) where map would skip them and leave `[1,,3]`.
      return `[${Array.from(value, (item, index) => write(item, `${path}[${index}]`, depth + 1, ancestors)).join(',')}]`;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      throw new NotCanonicalJsonError('only plain objects have a JSON spelling', path);
    }
    const record = value as Record<string, unknown>;
    // The default sort compares UTF-16 code units, the order RFC 8785 prescribes.
    const members = Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${write(record[key], `${path}.${key}`, depth + 1, ancestors)}`);
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}
