/**
 * Each request's id, from `X-Request-Id` when the caller (or a proxy) sent a sane one,
 * else a new UUID; echoed back, written on the access log line and in problem bodies, so
 * a user's error report can be matched to the log.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

const storage = new AsyncLocalStorage<{ requestId: string }>();
const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;
const logger = new Logger('http');

export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;

export function requestContextMiddleware(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', requestId);
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // The path only: query strings can carry search text, never credentials, but stay out of logs anyway.
    logger.log({
      request_id: requestId,
      method: req.method,
      path: req.originalUrl.split('?')[0],
      status: res.statusCode,
      duration_ms: Math.round(ms * 10) / 10,
    });
  });
  storage.run({ requestId }, next);
}
