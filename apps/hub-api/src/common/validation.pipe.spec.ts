import type { ArgumentMetadata } from '@nestjs/common';
import { DomainError } from '@skillhub/errors';
import { RevokeRequestDto } from '../trust/dto/trust.dto';
import { createValidationPipe } from './validation.pipe';

const pipe = createValidationPipe();
const body: ArgumentMetadata = { type: 'body', metatype: RevokeRequestDto };

async function refusal(value: unknown): Promise<DomainError> {
  try {
    await pipe.transform(value, body);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('the validation pipe', () => {
  it('accepts a valid body', async () => {
    await expect(pipe.transform({ reason: 'a real reason' }, body)).resolves.toEqual({ reason: 'a real reason' });
  });

  it.each([
    ['a list', ['a', 'b'], 'a list'],
    ['a string', 'reason', 'a string'],
    ['null', null, 'null'],
  ])('refuses %s as the body, naming the body (not fields "0", "1")', async (_, value, got) => {
    const error = await refusal(value);
    expect(error.problems).toEqual([
      { path: 'body', message: `the body must be a JSON object, got ${got}`, severity: 'error' },
    ]);
  });

  it('names each missing field when there is no body', async () => {
    expect((await refusal(undefined)).problems.map((p) => p.path)).toContain('reason');
  });

  it('refuses bytes a bundle parser read, as the wrong media type', async () => {
    const error = await refusal(Buffer.from('\x1f\x8b'));
    expect(error.code).toBe('REQUEST.UNSUPPORTED_MEDIA_TYPE');
    expect(error.problems).toEqual([expect.objectContaining({ path: 'content-type' })]);
  });

  it('names unknown fields and wrong types', async () => {
    const error = await refusal({ reason: 3, extra: true });
    expect(error.problems.map((p) => p.path).sort()).toEqual(['extra', 'reason', 'reason', 'reason']);
  });
});
