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
    // Kazma builds the id from the manifest's raw author; httpx and requests send a space as %20.
    [
      '/api/v1/skills/kazma-hub://Kazma%20Team/calendar/certification',
      '/api/v1/skills/kazma-team/calendar/certification',
    ],
    ['/api/v1/skills/kazma-hub://Acme/weather@1.0.0', '/api/v1/skills/acme/weather/versions/1.0.0'],
    [
      '/api/v1/skills/kazma-hub://Zo%C3%AB%20%C3%87elik/weather@2.0.0/certification',
      '/api/v1/skills/zoe-celik/weather/versions/2.0.0/certification',
    ],
    ['/api/v1/skills/kazma-hub://ACME%20Labs,%20Inc./x/certification', '/api/v1/skills/acme-labs-inc/x/certification'],
    // A KAZMA_HUB_URL ending in "/" doubles the first slash of every path.
    ['//api/v1/stats', '/api/v1/stats'],
    ['//api/v1/skills?certified=true', '/api/v1/skills?certified=true'],
    [
      '//api/v1/skills/kazma-hub://Kazma%20Team/calendar/certification',
      '/api/v1/skills/kazma-team/calendar/certification',
    ],
    [
      '///api/v1/skills/7d9f0c2e-1a2b-4c3d-8e9f-0123456789ab/certification',
      '/api/v1/submissions/7d9f0c2e-1a2b-4c3d-8e9f-0123456789ab/certification',
    ],
  ])('%s → %s', (from, to) => {
    expect(rewriteKazmaPath(from)).toBe(to);
  });

  it.each([
    '/api/v1/skills/acme/weather',
    '/api/v1/skills/kazma-hub://acme/../admin@1.0.0',
    '/api/v1/skills/kazma-hub://%E6%A0%AA%E5%BC%8F%E4%BC%9A%E7%A4%BE/weather@1.0.0',
    '/api/v1/skills/kazma-hub://../admin@1.0.0',
    '/api/v1/stats',
    '/api/v1//stats',
    '/api/v1/skills/kazma-hub://acme/weather/download',
    '/api/v1/skills/kazma-hub%E0%A4%A',
    '/api/v1/tokens/kazma-hub://acme/weather',
  ])('leaves %s alone', (url) => {
    expect(rewriteKazmaPath(url)).toBeNull();
  });
});
