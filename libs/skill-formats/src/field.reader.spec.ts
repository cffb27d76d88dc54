import type { Problem } from '@skillhub/errors';
import { FieldReader } from './field.reader';

function reader(root: Record<string, unknown>): { fields: FieldReader; problems: Problem[] } {
  const problems: Problem[] = [];
  return { fields: new FieldReader({ file: 'm.yaml', root, lineOf: () => undefined }, problems), problems };
}

describe('FieldReader', () => {
  it('checks the length before running the pattern', () => {
    // A pattern that backtracks catastrophically on this input: it must never run on it.
    const evil = /^(a+)+$/;
    const { fields, problems } = reader({ name: `${'a'.repeat(5_000)}!` });
    const started = Date.now();
    expect(fields.string(['name'], { max: 64, pattern: evil })).toBeNull();
    expect(Date.now() - started).toBeLessThan(1_000); // backtracking on it would take ages; the bound leaves room for a busy machine
    expect(problems).toEqual([
      { path: 'm.yaml#name', message: 'name is 5001 characters long; at most 64 are allowed', severity: 'error' },
    ]);
  });

  it('reads own properties only', () => {
    const { fields } = reader({});
    expect(fields.value(['constructor'])).toBeUndefined();
    expect(fields.value(['toString'])).toBeUndefined();
    expect(fields.has(['__proto__'])).toBe(false);
  });

  it('navigates maps and lists', () => {
    const { fields } = reader({ a: [{ b: 'c' }] });
    expect(fields.value(['a', 0, 'b'])).toBe('c');
    expect(fields.value(['a', 1, 'b'])).toBeUndefined();
    expect(fields.value(['a', 'b'])).toBeUndefined();
  });

  it('reports wrong entries of a string list and keeps the good ones', () => {
    const { fields, problems } = reader({ tags: ['ok', 7, '', 'fine'] });
    expect(fields.stringList(['tags'], { max: 10 })).toEqual(['ok', 'fine']);
    expect(problems.map((problem) => problem.message)).toEqual([
      'tags[1] must be a string, got a number (7)',
      'tags[2] must not be empty',
    ]);
  });

  it('echoes values short and escaped', () => {
    const { fields, problems } = reader({ kind: `bad\nvalue${'x'.repeat(100)}` });
    fields.oneOf(['kind'], ['a', 'b']);
    expect(problems[0]?.message).toBe(`kind must be one of a, b; got "bad\\nvalue${'x'.repeat(49)}…`);
  });

  it('tells an integer from other numbers', () => {
    const { fields, problems } = reader({ a: 1.5, b: 3, c: '3' });
    expect(fields.integer(['a'], { min: 0 })).toBeNull();
    expect(fields.integer(['b'], { min: 0 })).toBe(3);
    expect(fields.integer(['c'], { min: 0 })).toBeNull();
    expect(problems.map((problem) => problem.message)).toEqual([
      'a must be a whole number of at least 0, got 1.5',
      'c must be a number, got a string',
    ]);
  });
});
