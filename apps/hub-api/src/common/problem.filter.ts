/**
 * The one place errors become HTTP responses: domain errors by their kind, Nest's HTTP exceptions,
 * the database's refusals of what a client sent, and anything else as an opaque 500 (logged, never
 * echoed). `errorResponse` is the mapping; the filter sends it as an RFC 9457 problem document and
 * the pages (web.controller.ts) as HTML, so an error answers with one status, title and detail
 * wherever it is met.
 */
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { EntityNotFoundError, QueryFailedError } from 'typeorm';
import { databaseUnavailable } from '@skillhub/database';
import { AbandonedError, DomainError, httpStatusOf, type Problem } from '@skillhub/errors';
import { currentRequestId } from './request-context';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: readonly Problem[];
  [extra: string]: unknown;
}

export interface ErrorResponse {
  problem: ProblemBody;
  headers: Readonly<Record<string, string>>;
  /** How the failure is logged: a 5xx is the hub's own, a value the database refused means a check is missing. */
  log: { level: 'error' | 'warn'; message: string } | null;
}

const TYPE_BASE = 'https://skillhub.dev/problems/';

export function errorResponse(exception: unknown): ErrorResponse {
  const refused = databaseRefusal(exception);
  const problem = toProblem(refused ?? exception);
  const headers: Record<string, string> = {};
  const retries = problem.status === HttpStatus.TOO_MANY_REQUESTS || problem.status === HttpStatus.SERVICE_UNAVAILABLE;
  if (retries && typeof problem.retry_after === 'number') headers['Retry-After'] = String(problem.retry_after);
  if (problem.status === HttpStatus.UNAUTHORIZED) headers['WWW-Authenticate'] = 'Bearer realm="skill-hub"';
  // A caller that went away reads nothing and is no failure of the hub's.
  const log: ErrorResponse['log'] =
    exception instanceof AbandonedError
      ? null
      : problem.status === HttpStatus.SERVICE_UNAVAILABLE
        ? { level: 'warn', message: `cannot serve now: ${problem.detail}` }
        : problem.status >= 500
          ? { level: 'error', message: 'failed' }
          : refused
            ? { level: 'warn', message: 'the database refused a request value' }
            : null;
  return { problem, headers, log };
}

@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    const { problem, headers, log } = errorResponse(exception);
    if (log) {
      this.logger[log.level](
        `${req.method} ${req.path}: ${log.message}`,
        exception instanceof Error ? exception.stack : String(exception),
      );
    }
    const requestId = currentRequestId();
    const body = {
      ...problem,
      instance: req.originalUrl.split('?')[0] ?? req.path,
      ...(requestId ? { request_id: requestId } : {}),
    };
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
  }
}

function toProblem(exception: unknown): ProblemBody {
  const domain = asDomainError(exception);
  if (domain) {
    const status = httpStatusOf(domain.kind);
    return {
      type: TYPE_BASE + domain.code.toLowerCase().replace(/[._]/g, '-'),
      title: titleFor(status),
      status,
      detail: domain.message,
      code: domain.code,
      ...(domain.problems.length ? { errors: domain.problems } : {}),
      ...domain.details,
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    const message =
      typeof response === 'string'
        ? response
        : String((response as { message?: unknown }).message ?? exception.message);
    return { type: 'about:blank', title: titleFor(status), status, detail: message, code: `HTTP.${status}` };
  }
  return {
    type: 'about:blank',
    title: titleFor(500),
    status: 500,
    detail: 'The hub failed to handle this request; it has been logged.',
    code: 'INTERNAL',
  };
}

/**
 * Class 22 (data exception): PostgreSQL refused a value the request carried past validation.
 * Still the client's fault, so a 400; logged, as it means a check is missing before the query.
 */
function databaseRefusal(exception: unknown): DomainError | null {
  if (!(exception instanceof QueryFailedError)) return null;
  if (!/^22/.test(String((exception.driverError as { code?: unknown }).code))) return null;
  return new DomainError('invalid', 'REQUEST.INVALID', 'A value in the request cannot be stored or compared.', [
    { path: 'request', message: 'a value the database refuses (out of range, or not text)', severity: 'error' },
  ]);
}

/** Errors other layers raise that mean the same as a domain error, as that error. */
function asDomainError(exception: unknown): DomainError | null {
  if (exception instanceof DomainError) return exception;
  // The database down, restarting, out of connections or of disk: the request may succeed later (503).
  const unavailable = databaseUnavailable(exception);
  if (unavailable) return unavailable;
  // A lookup that had to find its row (`findOneOrFail`) did not: whatever was named does not exist.
  if (exception instanceof EntityNotFoundError) {
    return new DomainError('not-found', 'RECORD.NOT_FOUND', 'Nothing on this hub matches what the request names.');
  }
  // Multer's size limit: the same problem as a raw body over the limit.
  if (exception instanceof HttpException && exception.getStatus() === HttpStatus.PAYLOAD_TOO_LARGE) {
    return new DomainError('too-large', 'REQUEST.BODY_TOO_LARGE', 'The request body is larger than the hub accepts.', [
      { path: 'body', message: exception.message, severity: 'error' },
    ]);
  }
  return null;
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
