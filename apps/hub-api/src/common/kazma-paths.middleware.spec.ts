import { rewriteKazmaPath } from './kazma-paths.middleware';

describe('rewriteKazmaPath', () => {
  it.each([
    ['/api/v1/skills/kazma-hub://acme/weather@1.0.0', '/api/v1/skills/acme/weather/versions/1.0.0'],
    ['/api/v1/skills/kazma-hub://acme/weather@1.0.0/download', '/api/v1/skills/acme/weather/versions/1.0.0/bundle'],
    ['/api/v1/skills/kazma-hub://acme/weather', '/api/v1/skills/acme/weather'],
    ['/api/v1/skills/kazma-hub%3A%2F%2Facme%2Fweather%401.2.3-rc.1', '/api/v1/skills/acme/weather/versions/1.2.3-rc.1'],
    ['/api/v1/skills/kazma-hub://acme/weather@1.0.0?x=1', '/api/v1/skills/acme/weather/versions/1.0.0?x=1'],
    ['/api/v1/skills/kazma-hub://acme/weather/certification', '/api/v1/skills/acme/weather/certification'],
    [
      '/api/v1/skills/kazma-hub://acme/weather@1.0.0/certification',
      '/api/v1/skills/acme/weather/versions/1.0.0/certification',
    ],
    [
      '/api/v1/skills/7D9F0C2E-1A2B-4C3D-8E9F-0123456789AB/certification',
      '/api/v1/submissions/7d9f0c2e-1a2b-4c3d-8e9f-0123456789ab/certification',
    ],
  ])('%s → %s', (from, to) => {
    expect(rewriteKazmaPath(from)).toBe(to);
  });

  it.each([
    '/api/v1/skills/acme/weather',
    '/api/v1/skills/kazma-hub://acme/../admin@1.0.0',
    '/api/v1/skills/kazma-hub://Acme/weather@1.0.0',
    '/api/v1/skills/kazma-hub://acme/weather/download',
    '/api/v1/skills/kazma-hub%E0%A4%A',
    '/api/v1/tokens/kazma-hub://acme/weather',
  ])('leaves %s alone', (url) => {
    expect(rewriteKazmaPath(url)).toBeNull();
  });
});
