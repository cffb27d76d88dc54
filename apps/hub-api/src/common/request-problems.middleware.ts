/**
 * Faults of a request found before any route runs (a path that does not decode, a body that does
 * not parse) become domain errors naming the part of the request at fault, so the problem filter
 * answers them like any other invalid field.
 */
import type { NextFunction, Request, Response } from 'express';
import { DomainError, type ErrorKind, type Problem } from '@skillhub/errors';

const refused = (kind: ErrorKind, code: string, detail: string, problem: Problem): DomainError =>
  new DomainError(kind, code, detail, [problem]);

/** Before routing: Express would fail to decode such a parameter and say only which bytes. */
export function refuseMalformedPath(req: Request, _res: Response, next: NextFunction): void {
  const segments = req.path.split('/');
  const bad = segments.findIndex((segment) => {
    try {
      decodeURIComponent(segment);
      return false;
    } catch {
      return true;
    }
  });
  if (bad === -1) return next();
  next(
    refused('invalid', 'REQUEST.INVALID', 'The path is not valid percent-encoded UTF-8.', {
      path: 'path',
      message: `path segment ${bad} does not decode (a "%" not followed by two hex digits, or bytes that are not UTF-8)`,
      severity: 'error',
    }),
  );
}

interface BodyParserError extends Error {
  type: string;
  status?: number;
}

const isBodyParserError = (e: unknown): e is BodyParserError =>
  e instanceof Error && typeof (e as { type?: unknown }).type === 'string';

/** After the body parsers: their errors carry a `type`; their messages are safe to show. */
export function bodyParserProblems(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  if (err instanceof DomainError || !isBodyParserError(err)) return next(err);
  const field = (path: string): Problem => ({ path, message: err.message, severity: 'error' });
  switch (err.type) {
    case 'entity.parse.failed':
      return next(refused('invalid', 'REQUEST.MALFORMED_JSON', 'The request body is not valid JSON.', field('body')));
    case 'entity.too.large':
      return next(
        refused(
          'too-large',
          'REQUEST.BODY_TOO_LARGE',
          'The request body is larger than the hub accepts.',
          field('body'),
        ),
      );
    case 'charset.unsupported':
      return next(
        refused('unsupported-media-type', 'REQUEST.UNSUPPORTED_MEDIA_TYPE', err.message, field('content-type')),
      );
    case 'encoding.unsupported':
      return next(
        refused('unsupported-media-type', 'REQUEST.UNSUPPORTED_MEDIA_TYPE', err.message, field('content-encoding')),
      );
    default:
      return next(refused('invalid', 'REQUEST.INVALID', err.message, field('body')));
  }
}

/** What a multipart upload adds around the bundle (boundaries, part headers) at most. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * Before any body is read: a bundle upload whose declared Content-Length is over the limit is
 * refused at once (413), and the connection closed after the answer, rather than read (and, by
 * body-parser, drained to its end) first. A body that declares no length is still stopped by the
 * parsers at the limit while it streams.
 */
export function refuseDeclaredOversize(
  maxBundleBytes: number,
  bundleTypes: readonly string[],
): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    const declared = Number(req.headers['content-length']);
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const multipart = type === 'multipart/form-data';
    const max = multipart ? maxBundleBytes + MULTIPART_OVERHEAD_BYTES : maxBundleBytes;
    if ((!multipart && !bundleTypes.includes(type)) || !Number.isFinite(declared) || declared <= max) return next();
    res.setHeader('connection', 'close');
    next(
      refused('too-large', 'REQUEST.BODY_TOO_LARGE', 'The request body is larger than the hub accepts.', {
        path: 'content-length',
        message: `declares ${declared} bytes; at most ${max} are accepted`,
        severity: 'error',
      }),
    );
  };
}
