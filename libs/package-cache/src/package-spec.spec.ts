import { InvalidPackageSpecError, PACKAGE_CACHE_INVALID_SPEC } from './package-cache.errors';
import { assertPackageSpec, packageEntryKey } from './package-spec';

const INTEGRITY = `sha512-${Buffer.alloc(64, 7).toString('base64')}`;

const reasonsFor = (name: string, version = '1.2.3', integrity = INTEGRITY): readonly string[] => {
  try {
    assertPackageSpec({ name, version, integrity });
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidPackageSpecError);
    expect((error as InvalidPackageSpecError).code).toBe(PACKAGE_CACHE_INVALID_SPEC);
    return (error as InvalidPackageSpecError).reasons;
  }
};

describe('assertPackageSpec', () => {
  it.each(['@modelcontextprotocol/server-memory', 'mcp-server-kubernetes', 'a.b_c~d', '@a/b'])('accepts %s', (name) => {
    expect(reasonsFor(name)).toEqual([]);
  });

  it.each([
    '../x',
    '@scope/../x',
    '@scope/a/b',
    '.hidden',
    '_private',
    'Upper',
    'has space',
    '',
    'node_modules',
    'a%2fb',
    '/abs',
    'x'.repeat(215),
  ])('refuses the name %p', (name) => {
    expect(reasonsFor(name)).toEqual([`'${name.slice(0, 100)}' is not an npm package name`]);
  });

  it.each(['1.2.3-beta.1', '2026.8.31', '0.0.1'])('accepts the exact version %s', (version) => {
    expect(reasonsFor('pkg', version)).toEqual([]);
  });

  it.each(['latest', '^1.2.3', '1.2', 'v1.2.3', '1.2.3+build.5', '01.2.3', '1.2.3 || 2.0.0', '../1.0.0'])(
    'refuses the version %p',
    (version) => {
      expect(reasonsFor('pkg', version)).toEqual([`'${version}' is not an exact version`]);
    },
  );

  it.each([
    'sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=',
    `sha256-${Buffer.alloc(32).toString('base64')}`,
    `${INTEGRITY} sha512-${Buffer.alloc(64, 8).toString('base64')}`,
    'sha512-../../etc',
  ])('refuses the integrity %p', (integrity) => {
    expect(reasonsFor('pkg', '1.0.0', integrity)).toEqual([`'${integrity.slice(0, 100)}' is not a sha512 integrity`]);
  });

  it('lists every reason at once, with control characters masked', () => {
    expect(reasonsFor('A\nB', 'next', 'md5-x')).toEqual([
      "'A?B' is not an npm package name",
      "'next' is not an exact version",
      "'md5-x' is not a sha512 integrity",
    ]);
  });
});

describe('packageEntryKey', () => {
  it('gives each exact reference its own entry', () => {
    const spec = { name: 'pkg', version: '1.0.0', integrity: INTEGRITY };
    const other = `sha512-${Buffer.alloc(64, 9).toString('base64')}`;

    expect(packageEntryKey(spec)).toMatch(/^[0-9a-f]{64}$/);
    expect(
      new Set([spec, { ...spec, integrity: other }, { ...spec, version: '1.0.1' }].map(packageEntryKey)).size,
    ).toBe(3);
  });
});
