import { type CursorColumn, type CursorValues, decodeCursor, encodeCursor } from './search-cursor';

const UUID = '0b5c1f8e-2d7a-4c3b-9e41-7f0a9d2c6b13';
const raw = (json: string): string => Buffer.from(json, 'utf8').toString('base64url');

describe('search cursors', () => {
  it.each<[string, CursorColumn[], CursorValues]>([
    ['updated', ['timestamptz', 'uuid'], ['2026-11-29 10:58:01.123456+00', UUID]],
    ['updated', ['timestamptz', 'uuid'], ['2024-02-29 23:59:59+05:30', UUID]],
    ['downloads', ['bigint', 'uuid'], ['9223372036854775807', UUID]],
    ['version', ['int', 'int', 'int', 'uuid'], [2147483647, 0, 12, UUID]],
    ['name', ['text', 'uuid'], ['weather-now', UUID]],
    ['relevance', ['offset'], [40]],
  ])('round-trip for %s', (sort, columns, values) => {
    expect(decodeCursor(encodeCursor(sort, values), sort, columns)).toEqual(values);
  });

  it('refuses a cursor made for another sort', () => {
    expect(decodeCursor(encodeCursor('name', [40]), 'relevance', ['offset'])).toBeNull();
  });

  it.each(['', 'not base64!', 'e30', 'abc', '1e300', raw('null'), raw('{"s":"name","v":[{}]}'), 'a'.repeat(600)])(
    'refuses the malformed cursor %j',
    (cursor) => {
      expect(decodeCursor(cursor, 'name', ['offset'])).toBeNull();
    },
  );

  // Each of these reached PostgreSQL before, which refused it (a 500).
  it.each<[string, CursorColumn[], unknown[]]>([
    ['an offset of 1e300', ['offset'], [1e300]],
    ['a negative offset', ['offset'], [-1]],
    ['a fractional offset', ['offset'], [1.5]],
    ['an offset as text', ['offset'], ['40']],
    ['"abc" as a timestamp', ['timestamptz', 'uuid'], ['abc', UUID]],
    ['February 31st', ['timestamptz', 'uuid'], ['2026-02-31 10:00:00+00', UUID]],
    ['hour 25', ['timestamptz', 'uuid'], ['2026-01-01 25:00:00+00', UUID]],
    ['"abc" as a uuid', ['timestamptz', 'uuid'], ['2026-01-01 10:00:00+00', 'abc']],
    ['a NUL in a uuid', ['bigint', 'uuid'], ['1', `${UUID}\u0000`]],
    ['a bigint past int8', ['bigint', 'uuid'], ['9223372036854775808', UUID]],
    ['a bigint as a float', ['bigint', 'uuid'], [1e300, UUID]],
    ['an int past int4', ['int', 'int', 'int', 'uuid'], [3000000000, 0, 0, UUID]],
    ['too few values', ['int', 'int', 'int', 'uuid'], [1, 0, 0]],
    ['too many values', ['offset'], [1, 2]],
    ['a NUL in a name', ['text', 'uuid'], ['a\u0000b', UUID]],
    ['a name past 200 characters', ['text', 'uuid'], ['a'.repeat(201), UUID]],
    ['a number as a name', ['text', 'uuid'], [7, UUID]],
  ])('refuses %s', (_, columns, values) => {
    expect(decodeCursor(encodeCursor('s', values as CursorValues), 's', columns)).toBeNull();
  });
});
