import type { ArgumentMetadata } from '@nestjs/common';
import { DomainError } from '@skillhub/errors';
import { BadgeQueryDto } from '../badges/dto/badge.request.dto';
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

  describe('a query seen before', () => {
    const query: ArgumentMetadata = { type: 'query', metatype: BadgeQueryDto };
    /** A query as Express parses it: an object with no prototype. */
    const parsed = (fields: Record<string, unknown>) => Object.assign(Object.create(null) as object, fields);

    it('is answered as the first time: a new instance of the class each time, with the same fields', async () => {
      const pipeOfItsOwn = createValidationPipe();
      const first = await pipeOfItsOwn.transform(parsed({ style: 'flat', label: 'certified by' }), query);
      const again = await pipeOfItsOwn.transform(parsed({ style: 'flat', label: 'certified by' }), query);
      expect(first).toBeInstanceOf(BadgeQueryDto);
      expect(again).toBeInstanceOf(BadgeQueryDto);
      expect(again).not.toBe(first);
      expect({ ...(again as object) }).toEqual({ style: 'flat', label: 'certified by' });
      expect({ ...(again as object) }).toEqual({ ...(first as object) });
    });

    it('is refused every time when invalid, each fault named', async () => {
      const pipeOfItsOwn = createValidationPipe();
      for (let i = 0; i < 3; i++) {
        await expect(pipeOfItsOwn.transform(parsed({ style: 'neon', extra: '1' }), query)).rejects.toMatchObject({
          problems: [expect.objectContaining({ path: 'extra' }), expect.objectContaining({ path: 'style' })],
        });
      }
    });

    it('loses its `__proto__` keys before it is read, however often it comes', async () => {
      const pipeOfItsOwn = createValidationPipe();
      for (let i = 0; i < 3; i++) {
        const dto = (await pipeOfItsOwn.transform(
          parsed({ style: 'flat', ['__proto__']: ['a', 'b'] }),
          query,
        )) as object;
        expect(Object.getPrototypeOf(dto)).toBe(BadgeQueryDto.prototype);
        expect({ ...dto }).toEqual({ style: 'flat' });
      }
    });

    it('is checked again once the same fields say something else', async () => {
      const pipeOfItsOwn = createValidationPipe();
      await pipeOfItsOwn.transform(parsed({ style: 'flat' }), query);
      await expect(
        pipeOfItsOwn.transform(parsed({ style: 'flat', version: 'x'.repeat(65) }), query),
      ).rejects.toMatchObject({
        problems: [expect.objectContaining({ path: 'version' })],
      });
    });
  });
});
