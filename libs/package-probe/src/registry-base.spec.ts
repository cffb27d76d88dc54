import { PackageProbeConfigError } from './package-probe.errors';
import { RegistryBase, escapeSegment } from './registry-base';

describe('RegistryBase', () => {
  it('builds URLs under a base, with or without a path prefix', () => {
    expect(new RegistryBase('https://registry.npmjs.org/', 'npmBaseUrl').url(['left-pad'])).toBe(
      'https://registry.npmjs.org/left-pad',
    );
    expect(new RegistryBase('https://mirror.example/npm', 'npmBaseUrl').url(['a', '1.0.0'])).toBe(
      'https://mirror.example/npm/a/1.0.0',
    );
  });

  it('refuses to build a URL that leaves the base', () => {
    const base = new RegistryBase('https://mirror.example/npm', 'npmBaseUrl');

    expect(() => base.url(['..', 'admin'])).toThrow('outside https://mirror.example/npm');
  });

  it('contains only URLs of the same origin under the same path', () => {
    const base = new RegistryBase('https://mirror.example/npm', 'npmBaseUrl');

    expect(base.contains(new URL('https://mirror.example/npm/x'))).toBe(true);
    expect(base.contains(new URL('https://mirror.example/npmx'))).toBe(false);
    expect(base.contains(new URL('https://mirror.example/pypi/x'))).toBe(false);
    expect(base.contains(new URL('http://mirror.example/npm/x'))).toBe(false);
    expect(base.contains(new URL('https://mirror.example:8443/npm/x'))).toBe(false);
  });

  it.each(['registry.npmjs.org', 'file:///tmp', 'https://registry.npmjs.org/?q=1', 'https://registry.npmjs.org/#x'])(
    'refuses the base %p',
    (raw) => {
      expect(() => new RegistryBase(raw, 'npmBaseUrl')).toThrow(PackageProbeConfigError);
    },
  );
});

describe('escapeSegment', () => {
  it('escapes everything a URL path would read', () => {
    expect(escapeSegment('a/../b?c#d e%')).toBe('a%2F..%2Fb%3Fc%23d%20e%25');
  });

  it.each(['', '.', '..'])('refuses the dot segment %p', (segment) => {
    expect(() => escapeSegment(segment)).toThrow('not a usable path segment');
  });
});
