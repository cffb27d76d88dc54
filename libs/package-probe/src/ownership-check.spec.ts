import { checkOwnership, normalizeRepositoryUrl } from './ownership-check';
import type { ReleaseFacts } from './registry-client';

const release = (fields: Partial<ReleaseFacts> = {}): ReleaseFacts => ({
  version: '1.0.0',
  withdrawn: null,
  deprecated: null,
  integrity: null,
  mcpName: null,
  repositoryUrls: [],
  ...fields,
});

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

describe('checkOwnership', () => {
  const claim = (value: string): ReleaseFacts['mcpName'] => ({ kind: 'mcpName', value });

  it('has no back-reference without a release', () => {
    expect(checkOwnership(null, { skillRef: 'acme/weather' })).toEqual({ backReference: null, matches: false });
  });

  it('matches the skill ref case-insensitively', () => {
    expect(checkOwnership(release({ mcpName: claim('Acme/Weather') }), { skillRef: 'acme/weather' })).toEqual({
      backReference: 'mcpName',
      matches: true,
    });
  });

  it('matches a claim whose namespace is exactly the publisher', () => {
    expect(checkOwnership(release({ mcpName: claim('acme/other') }), { publisher: 'acme' }).matches).toBe(true);
    expect(checkOwnership(release({ mcpName: claim('acme-evil/other') }), { publisher: 'acme' }).matches).toBe(false);
    expect(checkOwnership(release({ mcpName: claim('io.github.acme/other') }), { publisher: 'acme' }).matches).toBe(
      false,
    );
    expect(checkOwnership(release({ mcpName: claim('acme') }), { publisher: 'acme' }).matches).toBe(false);
  });

  it('matches any repository link against any expected repository', () => {
    const facts = release({ repositoryUrls: ['https://docs.acme.dev', 'git+https://github.com/acme/x.git'] });

    expect(checkOwnership(facts, { repositoryUrls: ['https://github.com/acme/x'] })).toEqual({
      backReference: 'repository',
      matches: true,
    });
  });

  it('names the claim that is there when nothing matches, and matches nothing without expectations', () => {
    const facts = release({ mcpName: claim('acme/x'), repositoryUrls: ['https://github.com/acme/x'] });

    expect(checkOwnership(facts, { skillRef: 'bob/x' })).toEqual({ backReference: 'mcpName', matches: false });
    expect(checkOwnership(facts)).toEqual({ backReference: 'mcpName', matches: false });
    expect(checkOwnership(release({ repositoryUrls: ['https://github.com/acme/x'] }))).toEqual({
      backReference: 'repository',
      matches: false,
    });
  });

  it('never matches through unreadable URLs on both sides', () => {
    expect(
      checkOwnership(release({ repositoryUrls: ['nonsense'] }), { repositoryUrls: ['also nonsense'] }).matches,
    ).toBe(false);
  });
});
