/**
 * Documents a route's refusals: for each status it can answer, the problem codes behind it, each
 * with an example problem document (`application/problem+json`, schema ProblemDto). Every route
 * also documents 500 (`INTERNAL`), which any of them can answer.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiResponse, getSchemaPath, type HeadersObject } from '@nestjs/swagger';
import type { Problem } from '@skillhub/errors';
import { EXAMPLE } from './api-examples';
import { ProblemDto } from './problem.response.dto';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

export type ProblemStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 503;
/** Every route documents 500 besides the statuses it names. */
type DocumentedStatus = ProblemStatus | 500;

interface ExampleProblem {
  detail: string;
  errors?: Problem[];
  /** Extension members the code defines. */
  extras?: Record<string, unknown>;
}

const field = (path: string, message: string): Problem => ({ path, message, severity: 'error' });

/** One example per code the routes document; a code missing here fails the build of the document. */
const EXAMPLES: Record<string, ExampleProblem> = {
  VALIDATION: {
    detail: 'The request has invalid fields.',
    errors: [field('per_page', 'per_page must not be greater than 100')],
  },
  'REQUEST.INVALID': {
    detail: 'The path is not valid percent-encoded UTF-8.',
    errors: [
      field(
        'path',
        'path segment 4 does not decode (a "%" not followed by two hex digits, or bytes that are not UTF-8)',
      ),
    ],
  },
  'REQUEST.MALFORMED_JSON': {
    detail: 'The request body is not valid JSON.',
    errors: [field('body', 'Unexpected end of JSON input')],
  },
  'REQUEST.TOO_DEEP': {
    detail: 'The JSON body nests deeper than 64 levels.',
    errors: [field('body', 'arrays and objects may nest at most 64 levels deep')],
  },
  'REQUEST.BODY_TOO_LARGE': {
    detail: 'The request body is larger than the hub accepts.',
    errors: [field('body', 'request entity too large')],
  },
  'REQUEST.UNSUPPORTED_MEDIA_TYPE': {
    detail: 'This route reads a JSON body.',
    errors: [field('content-type', 'send the body as application/json')],
  },
  'REQUEST.RATE_LIMITED': {
    detail: 'Too many publishes from this token; try again in 12 s.',
    extras: { retry_after: 12 },
  },
  'REQUEST.BUSY': {
    detail: 'The hub is busy reading other uploads; try again shortly.',
    extras: { retry_after: 2 },
  },
  'AUTH.REQUIRED': { detail: 'This route needs a token: send "Authorization: Bearer <token>".' },
  'AUTH.INVALID': { detail: 'The token is expired.' },
  'AUTH.FORBIDDEN': { detail: 'This token lacks the "manage" scope.' },
  'NAMESPACE.FORBIDDEN': {
    detail:
      'Namespace "acme-labs" is not claimed yet, and this token may not claim it (it needs the "claim" scope, or ask the operator).',
  },
  'SKILL.NOT_FOUND': { detail: 'No skill kazma-hub://acme-labs/weather@1.0.0 on this hub.' },
  'SKILL.VERSION_EXISTS': {
    detail:
      'kazma-hub://acme-labs/weather@1.0.0 is already published with other bytes; versions are immutable, publish a new version.',
    extras: { existing_bundle_sha256: EXAMPLE.bundleSha256 },
  },
  'SKILL.INVALID_MANIFEST': {
    detail: 'The skill has 1 problem; see errors.',
    errors: [field('skill_manifest.yaml: version', 'version must be semver (1.2.3)')],
  },
  'BUNDLE.INVALID': {
    detail: 'invalid bundle: the bundle is not a gzip stream (it does not start with 1f 8b)',
    errors: [field('', 'the bundle is not a gzip stream (it does not start with 1f 8b)')],
  },
  'BUNDLE.TOO_LARGE': {
    detail: 'the bundle is 6291456 bytes, more than the limit of 5242880',
    extras: { limit: 'maxCompressedBytes', max: 5_242_880 },
  },
  'BUNDLE.UNPROCESSABLE': {
    detail: 'The bundle took longer than 10 s to read; it is refused.',
    errors: [field('body', 'reading stopped after 10000 ms')],
  },
  'BUNDLE.UNSUPPORTED_MEDIA_TYPE': {
    detail: 'Send the bundle as the body (Content-Type: application/gzip) or as the multipart field "bundle".',
    errors: [field('body', 'no bundle found in the request')],
  },
  'SEARCH.INVALID': {
    detail: 'Use either page/per_page or limit/cursor, not both.',
    errors: [field('cursor', 'Use either page/per_page or limit/cursor, not both.')],
  },
  'SUBMISSION.NOT_FOUND': { detail: `No submission ${EXAMPLE.submissionId}.` },
  'SUBMISSION.CONFLICT': { detail: `Submission ${EXAMPLE.submissionId} was already claimed.` },
  'SUBMISSION.GONE': { detail: `Submission ${EXAMPLE.submissionId} expired unclaimed; submit it again.` },
  'SUBMISSION.RATE_LIMITED': {
    detail: 'Too many unauthenticated submissions from this address; publish with a token instead.',
    extras: { retry_after: 60 },
  },
  'TOKEN.NOT_FOUND': { detail: `No token ${EXAMPLE.tokenId} is visible to you.` },
  'TOKEN.INVALID': {
    detail: 'Name a namespace or a publisher for the token.',
    errors: [field('namespace', 'namespace or publisher is required')],
  },
  'TRUST.NOT_FOUND': { detail: 'kazma-hub://acme-labs/weather@1.0.0 holds no certificate.' },
  'LOG.INVALID': {
    detail: 'tree_size must be between 1 and 42',
    errors: [field('tree_size', 'tree_size must be between 1 and 42')],
  },
  'CERTIFICATE.CONFLICT': { detail: 'kazma-hub://acme-labs/weather@1.0.0 is already revoked.' },
  'PUBLISHER_KEY.INVALID': {
    detail: 'public_key: not a public key PEM',
    errors: [field('public_key', 'not a public key PEM')],
  },
  'PUBLISHER_KEY.EXISTS': {
    detail: `Key ${EXAMPLE.keyId} is already registered with acme-labs (a removed key cannot come back: generate a new one).`,
  },
  'PUBLISHER_KEY.CONFLICT': { detail: 'acme-labs already has 10 active keys; remove one first.' },
  'RECORD.NOT_FOUND': { detail: 'Nothing on this hub matches what the request names.' },
  INTERNAL: { detail: 'The hub failed to handle this request; it has been logged.' },
};

/** What each status means on this API; a route adds the codes it answers with. */
const MEANING: Record<DocumentedStatus, string> = {
  400: 'The request cannot be read, or a field is invalid: `errors` names each one.',
  401: 'No token, or one the hub does not accept (unknown, expired or revoked).',
  403: 'The token may not do this (a missing scope, another namespace, or an operator-only route).',
  404: 'Nothing on this hub matches what the path names.',
  409: 'The request conflicts with what is stored.',
  410: 'What the path names existed, and is gone.',
  413: 'The body, or the bundle once unpacked, is larger than the hub accepts.',
  415: 'The body is not of a type this route reads.',
  422: 'The bundle was read, and its skill is invalid: `errors` lists every problem with its file and field.',
  429: 'Too many requests: wait `retry_after` seconds (the Retry-After header says the same).',
  500: 'The hub failed; the failure is logged, and nothing about it is echoed.',
  503: 'The hub is busy: wait `retry_after` seconds (the Retry-After header says the same).',
};

const TITLES: Record<DocumentedStatus, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable entity',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
};

const RETRY_AFTER: HeadersObject = {
  'Retry-After': { description: 'Seconds to wait, as `retry_after`.', schema: { type: 'integer', example: 12 } },
};
const HEADERS: Partial<Record<DocumentedStatus, HeadersObject>> = {
  401: { 'WWW-Authenticate': { description: 'Always `Bearer realm="skill-hub"`.', schema: { type: 'string' } } },
  429: RETRY_AFTER,
  503: RETRY_AFTER,
};

/** `instance` is left to the document, which knows the route's path (api-document.ts). */
function exampleOf(status: DocumentedStatus, code: string): object {
  const example = EXAMPLES[code];
  if (!example) throw new Error(`ApiProblems: no example problem for ${code}`);
  return {
    type: `https://skillhub.dev/problems/${code.toLowerCase().replace(/[._]/g, '-')}`,
    title: TITLES[status],
    status,
    detail: example.detail,
    code,
    ...(example.errors ? { errors: example.errors } : {}),
    request_id: '3f1c2a9e-6b4d-4f0a-9a51-0c8f7e2d1b6a',
    ...example.extras,
  };
}

export type ProblemCodes = Partial<Record<ProblemStatus, readonly string[]>>;

/** Any route with a JSON body. */
export const JSON_BODY: ProblemCodes = {
  400: ['VALIDATION', 'REQUEST.MALFORMED_JSON', 'REQUEST.TOO_DEEP'],
  413: ['REQUEST.BODY_TOO_LARGE'],
  415: ['REQUEST.UNSUPPORTED_MEDIA_TYPE'],
};

/** Any route that reads a bundle (raw, or the multipart field `bundle`), off the event loop. */
export const BUNDLE_BODY: ProblemCodes = {
  400: ['REQUEST.INVALID', 'BUNDLE.INVALID'],
  413: ['REQUEST.BODY_TOO_LARGE', 'BUNDLE.TOO_LARGE'],
  415: ['REQUEST.UNSUPPORTED_MEDIA_TYPE', 'BUNDLE.UNSUPPORTED_MEDIA_TYPE'],
  422: ['SKILL.INVALID_MANIFEST', 'BUNDLE.UNPROCESSABLE'],
  503: ['REQUEST.BUSY'],
};

/** Any route behind AuthGuard. */
export const TOKEN_REQUIRED: ProblemCodes = { 401: ['AUTH.REQUIRED', 'AUTH.INVALID'] };

/** Any route behind AuthGuard that asks for a scope or for the operator. */
export const TOKEN_SCOPED: ProblemCodes = { ...TOKEN_REQUIRED, 403: ['AUTH.FORBIDDEN'] };

/**
 * `@ApiProblems(JSON_BODY, TOKEN_SCOPED, { 404: ['SKILL.NOT_FOUND'] })`: the codes a route
 * answers with, by status; the groups' codes for one status add up.
 */
export function ApiProblems(...groups: ProblemCodes[]): MethodDecorator {
  const byStatus = new Map<DocumentedStatus, string[]>();
  const always: Partial<Record<DocumentedStatus, readonly string[]>> = { 500: ['INTERNAL'] };
  for (const group of [...groups, always]) {
    for (const [status, codes] of Object.entries(group) as Array<[string, readonly string[]]>) {
      const known = byStatus.get(Number(status) as DocumentedStatus) ?? [];
      byStatus.set(Number(status) as DocumentedStatus, [...known, ...codes.filter((code) => !known.includes(code))]);
    }
  }
  const entries = [...byStatus].sort(([a], [b]) => a - b);
  return applyDecorators(
    ...entries.map(([status, codes]) =>
      ApiResponse({
        status,
        description: `${MEANING[status]} Codes: ${codes.map((code) => `\`${code}\``).join(', ')}.`,
        headers: HEADERS[status],
        content: {
          [PROBLEM_MEDIA_TYPE]: {
            schema: { $ref: getSchemaPath(ProblemDto) },
            examples: Object.fromEntries(
              codes.map((code) => [code, { summary: code, value: exampleOf(status, code) }]),
            ),
          },
        },
      }),
    ),
  );
}
