import { isLoopback } from './gateway-http';

describe('isLoopback', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '::ffff:127.0.0.1'])('%s is only this machine', (host) => {
    expect(isLoopback(host)).toBe(true);
  });

  it.each([
    '0.0.0.0',
    '::',
    '',
    '10.0.0.1',
    '128.0.0.1',
    '127.0.0.1.evil.example',
    'localhost.example',
    '::ffff:10.0.0.1',
  ])('%s may be reached from elsewhere', (host) => {
    expect(isLoopback(host)).toBe(false);
  });
});
