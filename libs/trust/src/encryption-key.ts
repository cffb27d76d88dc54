import type { HubConfig } from '@skillhub/config';
import { parseSecretKey } from '@skillhub/signing';

/** The key that seals secrets at rest; a hub that must seal or open one refuses to run without it. */
export function encryptionKey(config: Pick<HubConfig, 'HUB_ENCRYPTION_KEY'>): Buffer {
  if (!config.HUB_ENCRYPTION_KEY) {
    throw new Error('HUB_ENCRYPTION_KEY is not set: 64 hex characters (e.g. `openssl rand -hex 32`)');
  }
  return parseSecretKey(config.HUB_ENCRYPTION_KEY);
}
