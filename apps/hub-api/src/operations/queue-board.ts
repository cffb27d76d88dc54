/**
 * Bull Board for the `certification` queue at /admin/queues, for the operator only:
 * the HUB_ADMIN_TOKEN as a bearer token, or as the password of HTTP Basic (so a browser
 * can open it). Everything else gets 401 before Bull Board sees the request.
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { INestApplication } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import type { HubConfig } from '@skillhub/config';
import { CERTIFICATION_QUEUE, PRODUCER_REDIS } from '@skillhub/queue';
import { secretsEqual } from '../auth/token-secret';

export const QUEUE_BOARD_PATH = '/admin/queues';

function presentedSecret(header: string | undefined): string | null {
  if (!header) return null;
  const bearer = /^Bearer\s+(\S{1,200})$/i.exec(header);
  if (bearer) return bearer[1]!;
  const basic = /^Basic\s+([A-Za-z0-9+/=]{1,400})$/i.exec(header);
  if (!basic) return null;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1);
}

export function mountQueueBoard(app: INestApplication, config: HubConfig): Queue {
  const queue = new Queue(CERTIFICATION_QUEUE, {
    connection: app.get<Redis>(PRODUCER_REDIS),
    prefix: config.REDIS_PREFIX,
  });
  queue.on('error', () => undefined);
  const adapter = new ExpressAdapter().setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({ queues: [new BullMQAdapter(queue)], serverAdapter: adapter });
  app.use(QUEUE_BOARD_PATH, (req: Request, res: Response, next: NextFunction) => {
    const secret = presentedSecret(req.headers.authorization);
    if (config.HUB_ADMIN_TOKEN && secret !== null && secretsEqual(secret, config.HUB_ADMIN_TOKEN)) return next();
    res.setHeader('WWW-Authenticate', 'Basic realm="skill-hub operator", charset="UTF-8"');
    res.status(401).type('text/plain').send('The queue board is for the hub operator (HUB_ADMIN_TOKEN).\n');
  });
  app.use(QUEUE_BOARD_PATH, adapter.getRouter() as (req: Request, res: Response, next: NextFunction) => void);
  return queue;
}
