/**
 * Each request's id, from `X-Request-Id` when the caller (or a proxy) sent a sane one,
 * else a new UUID; echoed back, written on the access log line, on every line logged while
 * the request is handled, and in problem bodies, so a user's error report can be matched to
 * the log. And its signal, aborted when the client closes the connection before the answer is
 * sent, so work done for it (a search's statements) stops with it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const storage = new AsyncLocalStorage<{ requestId: string; signal: AbortSignal }>();
const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;

/** Aborted once the client of the request being handled has gone without its answer. */
export const currentRequestSignal = (): AbortSignal | undefined => storage.getStore()?.signal;

/** The fields of every line logged while a request is handled (see `createLogger`'s `context`). */
export function requestLogFields(): { request_id: string } | undefined {
  const requestId = currentRequestId();
  return requestId ? { request_id: requestId } : undefined;
}

export function requestContextMiddleware(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', requestId);
  const gone = new AbortController();
  const abort = (): void => {
    if (!res.writableFinished) gone.abort();
  };
  // The client's end of the connection (its FIN) is known before the socket closes: an HTTP/1.1
  // client that sent it reads no answer (Node's server does not keep such a socket half open).
  const { socket } = req;
  socket.once('end', abort);
  res.once('close', () => {
    socket.off('end', abort);
    abort();
  });
  storage.run({ requestId, signal: gone.signal }, next);
}
