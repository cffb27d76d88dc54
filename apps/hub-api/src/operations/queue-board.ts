/**
 * Bull Board for the `certification` queue at /admin/queues, for the operator only:
 * the HUB_ADMIN_TOKEN as a bearer token, or as the password of HTTP Basic (so a browser
 * can open it). Everything else gets 401 before Bull Board sees the request.
 *
 * A browser sends cached Basic credentials with any request, a cross-site form post included, so a
 * write (anything but GET and HEAD) on Basic must come from the board's own pages: the browser's
 * `Sec-Fetch-Site: same-origin`, or an `Origin` naming this host; a bearer token is never sent by a
 * browser on its own and needs neither. Every answer carries a CSP that runs only the board's own
 * scripts, loads nothing from elsewhere, and forbids framing.
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

const BOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface Presented {
  secret: string;
  /** Sent by the browser on its own (HTTP Basic), so it proves nothing about which page asked. */
  ambient: boolean;
}

function presentedSecret(header: string | undefined): Presented | null {
  if (!header) return null;
  const bearer = /^Bearer\s+(\S{1,200})$/i.exec(header);
  if (bearer) return { secret: bearer[1]!, ambient: false };
  const basic = /^Basic\s+([A-Za-z0-9+/=]{1,400})$/i.exec(header);
  if (!basic) return null;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  return { secret: decoded.slice(decoded.indexOf(':') + 1), ambient: true };
}

/** A request the board's own pages made: what the browser says of its origin, checked against this host. */
function sameOrigin(req: Request): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = req.headers.origin;
  if (origin === undefined || req.headers.host === undefined) return false;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

const READS = new Set(['GET', 'HEAD']);

export function mountQueueBoard(app: INestApplication, config: HubConfig): Queue {
  const queue = new Queue(CERTIFICATION_QUEUE, {
    connection: app.get<Redis>(PRODUCER_REDIS),
    prefix: config.REDIS_PREFIX,
  });
  queue.on('error', () => undefined);
  const adapter = new ExpressAdapter().setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({ queues: [new BullMQAdapter(queue)], serverAdapter: adapter });
  app.use(QUEUE_BOARD_PATH, (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', BOARD_CSP);
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('Cache-Control', 'no-store');
    const presented = presentedSecret(req.headers.authorization);
    const operator =
      config.HUB_ADMIN_TOKEN !== undefined &&
      presented !== null &&
      secretsEqual(presented.secret, config.HUB_ADMIN_TOKEN);
    if (!operator) {
      res.setHeader('WWW-Authenticate', 'Basic realm="skill-hub operator", charset="UTF-8"');
      res.status(401).type('text/plain').send('The queue board is for the hub operator (HUB_ADMIN_TOKEN).\n');
      return;
    }
    if (presented.ambient && !READS.has(req.method) && !sameOrigin(req)) {
      res
        .status(403)
        .type('text/plain')
        .send('A change to the queue board must come from its own pages (or carry the admin token as a bearer).\n');
      return;
    }
    next();
  });
  app.use(QUEUE_BOARD_PATH, adapter.getRouter() as (req: Request, res: Response, next: NextFunction) => void);
  return queue;
}
