import { DomainError } from '@skillhub/errors';
import { IndexParamPipe, UuidParamPipe } from './param.pipe';

describe('IndexParamPipe', () => {
  const pipe = new IndexParamPipe();

  it.each([
    ['0', 0],
    ['42', 42],
    ['999999999999999', 999_999_999_999_999],
  ])('reads %s', (text, value) => {
    expect(pipe.transform(text, { type: 'param', data: 'index' })).toBe(value);
  });

  it.each(['99999999999999999999', '9007199254740993', '-1', '1e3', '1.5', '01', '', ' 1', '0x10'])(
    'refuses %j, naming the parameter',
    (text) => {
      expect(() => pipe.transform(text, { type: 'param', data: 'index' })).toThrow(
        expect.objectContaining({ code: 'VALIDATION', problems: [expect.objectContaining({ path: 'index' })] }),
      );
    },
  );
});

describe('UuidParamPipe', () => {
  const pipe = new UuidParamPipe();

  it('accepts a UUID in either case', () => {
    expect(pipe.transform('0B5C1F8E-2d7a-4c3b-9e41-7f0a9d2c6b13', { type: 'param', data: 'id' })).toBe(
      '0B5C1F8E-2d7a-4c3b-9e41-7f0a9d2c6b13',
    );
  });

  it.each([
    'abc',
    '0b5c1f8e-2d7a-4c3b-9e41-7f0a9d2c6b1',
    '0b5c1f8e2d7a4c3b9e417f0a9d2c6b13',
    `0b5c1f8e-2d7a-4c3b-9e41-7f0a9d2c6b13\u0000`,
  ])('refuses %j', (text) => {
    expect(() => pipe.transform(text, { type: 'param', data: 'id' })).toThrow(DomainError);
  });
});
