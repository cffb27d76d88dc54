/**
 * The access log: one line per request, written when the response ends, with the method, the
 * path as sent (never the query string, which can carry search text), the status (499 when the
 * client closed the connection first), the duration and the request id. Nothing is taken from the headers, so no token or Authorization value can
 * reach it. Mounted right after the request context, before anything that can refuse a request,
 * so a body or a path refused early is logged too.
 */
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { pinoHttp, startTime } from 'pino-http';
import { currentRequestId } from './request-context';

interface AccessLine {
  fields: { context: 'http'; request_id: unknown; method: string; path: string; status: number; duration_ms: number };
  message: string;
}

/** nginx's status for a request whose client closed the connection before the answer. */
const CLIENT_CLOSED = 499;

function accessLine(req: Request, res: Response): AccessLine {
  const path = req.originalUrl.split('?')[0] ?? '';
  const ms = Date.now() - res[startTime];
  const status = res.writableFinished ? res.statusCode : CLIENT_CLOSED;
  return {
    fields: { context: 'http', request_id: req.id, method: req.method, path, status, duration_ms: ms },
    message: `${req.method} ${path} ${status} ${ms}ms${res.writableFinished ? '' : ' (the client closed the connection)'}`,
  };
}

export function accessLog(logger: Logger): RequestHandler {
  return pinoHttp<Request, Response>({
    logger,
    // The id the request context gave the request (and echoed as X-Request-Id).
    genReqId: () => currentRequestId() ?? randomUUID(),
    // The line is written by `logger` itself, not by a child bound to the request.
    quietResLogger: true,
    // What `req.log` would bind: never the headers.
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
    },
    // A client that went away is no failure of the hub's (its work was stopped: request-context.ts).
    customLogLevel: (_req, res, err) =>
      !res.writableFinished ? 'info' : err || res.statusCode >= 500 ? 'error' : 'info',
    customSuccessObject: (req, res) => accessLine(req, res).fields,
    customSuccessMessage: (req, res) => accessLine(req, res).message,
    // The failure itself is logged, with its stack, where it is handled (the problem filter).
    customErrorObject: (req, res) => accessLine(req, res).fields,
    customErrorMessage: (req, res) => accessLine(req, res).message,
  });
}
