import { NAMESPACE_SLUG_PATTERN, slugify } from './slugify';

describe('slugify', () => {
  it.each([
    ['Kazma Team', 'kazma-team'],
    ['ACME Labs, Inc.', 'acme-labs-inc'],
    ['Zoë Çelik', 'zoe-celik'],
    ['  --Dr. José  Ñúñez--  ', 'dr-jose-nunez'],
    ['ﬁnance ＬＡＢ', 'finance-lab'],
    ['user_name.v2', 'user-name-v2'],
    ['42', '42'],
  ])('%j → %j', (author, slug) => {
    expect(slugify(author)).toBe(slug);
    expect(slug).toMatch(NAMESPACE_SLUG_PATTERN);
  });

  it('caps the slug at 39 characters without a trailing hyphen', () => {
    const slug = slugify('The Extraordinarily Long Name Of A Company Limited');
    expect(slug).toBe('the-extraordinarily-long-name-of-a-comp');
    expect(slugify(`${'a'.repeat(38)} b`)).toBe('a'.repeat(38));
  });

  it('returns an empty string when no Latin letter or digit is left', () => {
    expect(slugify('株式会社')).toBe('');
    expect(slugify('!!!')).toBe('');
    expect('').not.toMatch(NAMESPACE_SLUG_PATTERN);
  });
});

describe('NAMESPACE_SLUG_PATTERN', () => {
  it.each(['-kazma', 'Kazma', 'a'.repeat(40), 'ka zma'])('refuses %j', (slug) => {
    expect(slug).not.toMatch(NAMESPACE_SLUG_PATTERN);
  });
});
