import { tmpdir } from 'node:os';
import { testRedisUrl } from './test-env';

/**
 * The environment of hub-api started as its own process on the embedded database, as a shell
 * would give it (nothing of jest's, which sets NODE_ENV=test): listening on `port`, its data
 * under `dataDir`, its Redis keys under `redisPrefix`, no live tool probe and no detonation.
 */
export function embeddedHubEnv(port: number, dataDir: string, redisPrefix: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    HOST: '127.0.0.1',
    PORT: String(port),
    HUB_DATA_DIR: dataDir,
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: redisPrefix,
    LIVE_PROBE: 'false',
    DETONATION: 'false',
  };
}
