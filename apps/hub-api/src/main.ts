/** hub-api: REST + OpenAPI. With no DATABASE_URL it runs on the embedded PostgreSQL under HUB_DATA_DIR. */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { isEmbedded, loadConfigOrExit } from '@skillhub/config';
import { startEmbeddedDatabaseProcess } from '@skillhub/database';
import { ensureDevSecret, newAdminToken, newEncryptionKey } from './dev-secrets';
import { createHubApp } from './create-hub-app';

async function bootstrap(): Promise<void> {
  const logger = new Logger('hub-api');
  let config = loadConfigOrExit();

  // A database that ended on its own is started again; the hub answers 503 meanwhile.
  const embedded = isEmbedded(config)
    ? await startEmbeddedDatabaseProcess(config.HUB_DATA_DIR, (message) => logger.warn(message))
    : null;
  let adminTokenFile: string | null = null;
  if (embedded) {
    if (!config.HUB_ADMIN_TOKEN) {
      const { value, path } = ensureDevSecret(config.HUB_DATA_DIR, 'admin-token', newAdminToken);
      config = { ...config, HUB_ADMIN_TOKEN: value };
      adminTokenFile = path;
    }
    config.HUB_ENCRYPTION_KEY ??= ensureDevSecret(config.HUB_DATA_DIR, 'encryption-key', newEncryptionKey).value;
  } else if (!config.HUB_ENCRYPTION_KEY) {
    console.error('HUB_ENCRYPTION_KEY is required with DATABASE_URL: 64 hex characters (e.g. `openssl rand -hex 32`).');
    process.exit(1);
  }

  const app = await createHubApp(
    config,
    embedded
      ? { url: embedded.url, embedded: true, stop: () => embedded.stop(), dataDir: config.HUB_DATA_DIR }
      : { url: config.DATABASE_URL!, embedded: false },
  );
  // After the app exists, so that this goes through its logger.
  if (!config.HUB_ADMIN_TOKEN) logger.warn('HUB_ADMIN_TOKEN is unset: operator routes (creating tokens) are disabled.');
  await app.listen(config.PORT, config.HOST);
  const base =
    config.HUB_PUBLIC_URL ?? `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}`;
  logger.log(`Skill Hub listening on ${base}`);
  logger.log(`API docs: ${base}/docs (OpenAPI JSON: ${base}/docs-json)`);
  logger.log(embedded ? `Embedded PostgreSQL data: ${embedded.dataDir}` : 'Database: DATABASE_URL');
  if (embedded) logger.log('Certification jobs: on Redis (REDIS_URL) while it answers, in this process otherwise');
  if (adminTokenFile) logger.log(`Development admin token written to ${adminTokenFile}`);
}

void bootstrap();
