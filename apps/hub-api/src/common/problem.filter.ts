/**
 * The one place errors become HTTP: domain errors by code, Nest's HTTP exceptions, the database's
 * refusals of what a client sent, and anything else as an opaque 500 (logged, never echoed).
 * Every body is an RFC 9457 problem document.
 */
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { EntityNotFoundError, QueryFailedError } from 'typeorm';
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
    const retries = body.status === HttpStatus.TOO_MANY_REQUESTS || body.status === HttpStatus.SERVICE_UNAVAILABLE;
    if (retries && typeof body.retry_after === 'number') {
      res.setHeader('Retry-After', String(body.retry_after));
    }
    if (body.status === HttpStatus.UNAUTHORIZED) res.setHeader('WWW-Authenticate', 'Bearer realm="skill-hub"');
    res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
  }

  private toProblem(exception: unknown, req: Request): ProblemBody {
    const instance = req.originalUrl.split('?')[0] ?? req.path;
    const domain = this.asDomainError(exception, req);
    if (domain) {
      const status = statusForCode(domain.code);
      return {
        type: TYPE_BASE + domain.code.toLowerCase().replace(/[._]/g, '-'),
        title: titleFor(status),
        status,
        detail: domain.message,
        code: domain.code,
        instance,
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
      return {
        type: 'about:blank',
        title: titleFor(status),
        status,
        detail: message,
        code: `HTTP.${status}`,
        instance,
      };
    }
    return {
      type: 'about:blank',
      title: titleFor(500),
      status: 500,
      detail: 'The hub failed to handle this request; it has been logged.',
      code: 'INTERNAL',
      instance,
    };
  }

  /** Errors other layers raise that mean the same as a domain error, as that error. */
  private asDomainError(exception: unknown, req: Request): DomainError | null {
    if (exception instanceof DomainError) return exception;
    // A lookup that had to find its row (`findOneOrFail`) did not: whatever was named does not exist.
    if (exception instanceof EntityNotFoundError) {
      return new DomainError('RECORD.NOT_FOUND', 'Nothing on this hub matches what the request names.');
    }
    // Class 22 (data exception): PostgreSQL refused a value the request carried past validation.
    // Still the client's fault, so a 400; logged, as it means a check is missing before the query.
    if (
      exception instanceof QueryFailedError &&
      /^22/.test(String((exception.driverError as { code?: unknown }).code))
    ) {
      this.logger.warn(`${req.method} ${req.path}: the database refused a request value`, exception.stack);
      return new DomainError('REQUEST.INVALID', 'A value in the request cannot be stored or compared.', [
        { path: 'request', message: 'a value the database refuses (out of range, or not text)', severity: 'error' },
      ]);
    }
    // Multer's size limit: the same problem as a raw body over the limit.
    if (exception instanceof HttpException && exception.getStatus() === HttpStatus.PAYLOAD_TOO_LARGE) {
      return new DomainError('REQUEST.BODY_TOO_LARGE', 'The request body is larger than the hub accepts.', [
        { path: 'body', message: exception.message, severity: 'error' },
      ]);
    }
    return null;
  }
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
