/** hub-api: REST + OpenAPI. With no DATABASE_URL it runs on the embedded PostgreSQL under HUB_DATA_DIR. */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { isEmbedded, loadConfigOrExit } from '@skillhub/config';
import { startEmbeddedDatabase } from '@skillhub/registry';
import { ensureDevAdminToken } from './admin-token';
import { createHubApp } from './create-hub-app';

async function bootstrap(): Promise<void> {
  const logger = new Logger('hub-api');
  let config = loadConfigOrExit();

  const embedded = isEmbedded(config) ? await startEmbeddedDatabase(config.HUB_DATA_DIR) : null;
  let adminTokenFile: string | null = null;
  if (embedded && !config.HUB_ADMIN_TOKEN) {
    const { token, path } = ensureDevAdminToken(config.HUB_DATA_DIR);
    config = { ...config, HUB_ADMIN_TOKEN: token };
    adminTokenFile = path;
  }
  if (!config.HUB_ADMIN_TOKEN) logger.warn('HUB_ADMIN_TOKEN is unset: operator routes (creating tokens) are disabled.');

  const app = await createHubApp(
    config,
    embedded
      ? { url: embedded.url, embedded: true, stop: () => embedded.stop() }
      : { url: config.DATABASE_URL!, embedded: false },
  );
  await app.listen(config.PORT, config.HOST);
  const base =
    config.HUB_PUBLIC_URL ?? `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}`;
  logger.log(`Skill Hub listening on ${base}`);
  logger.log(`API docs: ${base}/docs (OpenAPI JSON: ${base}/docs-json)`);
  logger.log(embedded ? `Embedded PostgreSQL data: ${embedded.dataDir}` : 'Database: DATABASE_URL');
  if (adminTokenFile) logger.log(`Development admin token written to ${adminTokenFile}`);
}

void bootstrap();
