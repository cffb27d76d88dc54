import type { ArgumentMetadata } from '@nestjs/common';
import { DomainError } from '@skillhub/errors';
import { StorableTextPipe } from './storable-text.pipe';

const pipe = new StorableTextPipe();

function refusal(value: unknown, metadata: ArgumentMetadata): DomainError {
  try {
    pipe.transform(value, metadata);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('StorableTextPipe', () => {
  it('passes storable text and other values through unchanged', () => {
    const body = { reason: 'rain 🌧', n: 3, list: ['a'] };
    expect(pipe.transform(body, { type: 'body' })).toBe(body);
  });

  it('names a path parameter holding a NUL', () => {
    const error = refusal('a\u0000b', { type: 'param', data: 'author' });
    expect(error.code).toBe('VALIDATION');
    expect(error.problems).toEqual([
      { path: 'author', message: 'author holds a NUL character (U+0000)', severity: 'error' },
    ]);
  });

  it('names each query parameter and body field at fault, keys included', () => {
    expect(refusal({ q: 'ok', capabilities: ['a', 'b\u0000'] }, { type: 'query' }).problems.map((p) => p.path)).toEqual(
      ['capabilities[1]'],
    );
    const body = { manifest: { tools: { ['t\uD800']: { description: '\uDC00' } } } };
    expect(refusal(body, { type: 'body' }).problems).toEqual([
      expect.objectContaining({ path: 'manifest.tools["t\\ud800"]', message: expect.stringMatching(/^The name of/) }),
      expect.objectContaining({ path: 'manifest.tools["t\\ud800"].description' }),
    ]);
  });

  it('leaves values of custom decorators (the caller) alone', () => {
    expect(pipe.transform({ kind: 'admin\u0000' }, { type: 'custom' })).toEqual({ kind: 'admin\u0000' });
  });
});
