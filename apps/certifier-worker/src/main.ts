/**
 * certifier-worker: a BullMQ worker process for hubs on PostgreSQL (HTTP only for
 * metrics, when WORKER_METRICS_PORT is set).
 * With the embedded database the same processor runs inside hub-api instead.
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createLogger, loadConfigOrExit, nestLogger } from '@skillhub/config';
import { CertifierWorkerModule } from './certifier-worker.module';

async function bootstrap(): Promise<void> {
  const config = loadConfigOrExit();
  if (!config.DATABASE_URL) {
    console.error(
      'DATABASE_URL is required: the worker runs beside a hub on PostgreSQL (the embedded hub certifies in-process).',
    );
    process.exit(1);
  }
  if (!config.HUB_ENCRYPTION_KEY) {
    console.error("HUB_ENCRYPTION_KEY is required: it opens the signing key and the namespaces' Kazma secrets.");
    process.exit(1);
  }
  const app = await NestFactory.createApplicationContext(CertifierWorkerModule.forRoot(config, config.DATABASE_URL), {
    logger: nestLogger(createLogger(config, { name: 'certifier-worker' })),
  });
  app.enableShutdownHooks();
  new Logger('certifier-worker').log('ready');
}

bootstrap().catch((err: Error) => {
  console.error(`certifier-worker failed to start: ${err.message}`);
  process.exit(1);
});
