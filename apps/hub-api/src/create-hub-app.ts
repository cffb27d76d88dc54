/** Builds the hub-api application (not yet listening); `main.ts` and the e2e tests share it. */
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { json, raw } from 'express';
import { createLogger, type HubConfig, nestLogger } from '@skillhub/config';
import { createApiDocument } from './api-document';
import { accessLog } from './common/access-log.middleware';
import { answerClientErrors } from './common/client-errors';
import { DISK_RESERVE, type DiskReserve } from './common/disk-reserve';
import { HubExpressAdapter } from './common/express-adapter';
import { refuseDeepJson } from './common/json-depth';
import { kazmaPathsMiddleware } from './common/kazma-paths.middleware';
import { ProblemFilter } from './common/problem.filter';
import { requestContextMiddleware, requestLogFields } from './common/request-context';
import { bodyParserProblems, refuseDeclaredOversize, refuseMalformedPath } from './common/request-problems.middleware';
import { StorableTextPipe } from './common/storable-text.pipe';
import { mountQueueBoard } from './operations/queue-board';
import { createValidationPipe } from './common/validation.pipe';
import { type DatabaseEndpoint, HubApiModule } from './hub-api.module';

export const BUNDLE_CONTENT_TYPES = [
  'application/gzip',
  'application/x-gzip',
  'application/octet-stream',
  'application/x-tar+gzip',
];
const JSON_BODY_LIMIT = '256kb';

export async function createHubApp(config: HubConfig, database: DatabaseEndpoint): Promise<INestApplication> {
  const logger = createLogger(config, { name: 'hub-api', context: requestLogFields });
  const app = await NestFactory.create<NestExpressApplication>(
    HubApiModule.forRoot(config, database),
    new HubExpressAdapter(),
    {
      bodyParser: false,
      abortOnError: false,
      logger: nestLogger(logger),
    },
  );
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.use(requestContextMiddleware);
  app.use(accessLog(logger));
  app.use(kazmaPathsMiddleware);
  app.use(refuseMalformedPath);
  // The embedded database's disk nearly full: writes are refused before their body is read.
  const disk = app.get<DiskReserve | null>(DISK_RESERVE, { strict: false });
  if (disk) app.use(disk.refuseWritesWhenLow);
  app.use(json({ limit: JSON_BODY_LIMIT, verify: refuseDeepJson }));
  // A bundle declared over the limit is refused before a byte is read; one that streams past it,
  // by body-parser (413) as it reads.
  app.use(refuseDeclaredOversize(config.BUNDLE_MAX_COMPRESSED_BYTES, BUNDLE_CONTENT_TYPES));
  app.use(raw({ type: BUNDLE_CONTENT_TYPES, limit: config.BUNDLE_MAX_COMPRESSED_BYTES }));
  app.use(bodyParserProblems);
  answerClientErrors(app.getHttpServer());
  const board = mountQueueBoard(app, config);
  // Text PostgreSQL cannot store is refused first, so validation never runs on it.
  app.useGlobalPipes(new StorableTextPipe(), createValidationPipe());
  app.useGlobalFilters(new ProblemFilter());
  app.enableShutdownHooks();

  SwaggerModule.setup('docs', app, createApiDocument(app), { jsonDocumentUrl: 'docs-json' });
  const close = app.close.bind(app);
  app.close = async () => {
    await board.close();
    await close();
  };
  return app;
}
