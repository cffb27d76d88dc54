import { normalizeRepositoryUrl } from './repository-url';

describe('normalizeRepositoryUrl', () => {
  it.each([
    'https://github.com/acme/weather-mcp',
    'https://github.com/acme/weather-mcp/',
    'https://GitHub.com/acme/weather-mcp.git',
    'git+https://github.com/acme/weather-mcp.git',
    'git+ssh://git@github.com/acme/weather-mcp.git',
    'git://github.com/acme/weather-mcp.git',
    'git@github.com:acme/weather-mcp.git',
    'http://github.com/acme/weather-mcp#readme',
    'https://user:token@github.com/acme/weather-mcp?tab=readme',
  ])('normalizes %p', (url) => {
    expect(normalizeRepositoryUrl(url)).toBe('https://github.com/acme/weather-mcp');
  });

  it('keeps the path case (only hosts are case-insensitive)', () => {
    expect(normalizeRepositoryUrl('https://github.com/Acme/Weather')).toBe('https://github.com/Acme/Weather');
  });

  it.each(['', 'not a url', 'file:///etc/passwd', 'javascript:alert(1)', `https://github.com/${'a'.repeat(3_000)}`])(
    'refuses %p',
    (url) => {
      expect(normalizeRepositoryUrl(url)).toBeNull();
    },
  );
});
