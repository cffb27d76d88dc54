/**
 * The one place errors become HTTP: domain errors by code, Nest's HTTP exceptions,
 * body-parser errors, and anything else as an opaque 500 (logged, never echoed).
 * Every body is an RFC 9457 problem document.
 */
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError, type Problem } from '@skillhub/errors';
import { statusForCode } from './error-status';
import { currentRequestId } from './request-context';

interface ProblemFields {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: readonly Problem[];
}

type ProblemBody = ProblemFields & { instance: string; [extra: string]: unknown };

const TYPE_BASE = 'https://skillhub.dev/problems/';

@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    const requestId = currentRequestId();
    const body: ProblemBody = { ...this.toProblem(exception, req), ...(requestId ? { request_id: requestId } : {}) };
    if (body.status >= 500) {
      this.logger.error(
        `${req.method} ${req.path} failed`,
        exception instanceof Error ? exception.stack : String(exception),
      );
    }
    if (body.status === HttpStatus.TOO_MANY_REQUESTS && typeof body.retry_after === 'number') {
      res.setHeader('Retry-After', String(body.retry_after));
    }
    if (body.status === HttpStatus.UNAUTHORIZED) res.setHeader('WWW-Authenticate', 'Bearer realm="skill-hub"');
    res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
  }

  private toProblem(exception: unknown, req: Request): ProblemBody {
    const instance = req.originalUrl.split('?')[0] ?? req.path;
    if (exception instanceof DomainError) {
      const status = statusForCode(exception.code);
      return {
        type: TYPE_BASE + exception.code.toLowerCase().replace(/[._]/g, '-'),
        title: titleFor(status),
        status,
        detail: exception.message,
        code: exception.code,
        instance,
        ...(exception.problems.length ? { errors: exception.problems } : {}),
        ...exception.details,
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      // Multer's size limit: the same problem as a raw body over the limit.
      if (status === HttpStatus.PAYLOAD_TOO_LARGE) return { ...bodyTooLarge(exception.message), instance };
      const response = exception.getResponse();
      const message =
        typeof response === 'string'
          ? response
          : String((response as { message?: unknown }).message ?? exception.message);
      return {
        type: 'about:blank',
        title: titleFor(status),
        status,
        detail: message,
        code: `HTTP.${status}`,
        instance,
      };
    }
    const bodyParserError = asBodyParserError(exception);
    if (bodyParserError) return { ...bodyParserError, instance };
    return {
      type: 'about:blank',
      title: titleFor(500),
      status: 500,
      detail: 'The hub failed to handle this request; it has been logged.',
      code: 'INTERNAL',
      instance,
    };
  }
}

/** body-parser signals its own errors with `type` and `status`; its messages are safe to show. */
function asBodyParserError(e: unknown): ProblemFields | null {
  if (!(e instanceof Error) || typeof (e as { type?: unknown }).type !== 'string') return null;
  const { type, status } = e as Error & { type: string; status?: number };
  if (type === 'entity.too.large') return bodyTooLarge(e.message);
  if (type === 'entity.parse.failed') {
    return {
      type: TYPE_BASE + 'malformed-json',
      title: titleFor(400),
      status: 400,
      detail: 'The request body is not valid JSON.',
      code: 'REQUEST.MALFORMED_JSON',
      errors: [{ path: 'body', message: e.message, severity: 'error' }],
    };
  }
  const s = status && status >= 400 && status < 500 ? status : 400;
  return { type: 'about:blank', title: titleFor(s), status: s, detail: e.message, code: `HTTP.${s}` };
}

function bodyTooLarge(message: string): ProblemFields {
  return {
    type: TYPE_BASE + 'body-too-large',
    title: titleFor(413),
    status: 413,
    detail: 'The request body is larger than the hub accepts.',
    code: 'REQUEST.BODY_TOO_LARGE',
    errors: [{ path: 'body', message, severity: 'error' }],
  };
}

function titleFor(status: number): string {
  const name = HttpStatus[status];
  return name
    ? name
        .toLowerCase()
        .replace(/_/g, ' ')
        .replace(/^./, (c) => c.toUpperCase())
    : 'Error';
}
