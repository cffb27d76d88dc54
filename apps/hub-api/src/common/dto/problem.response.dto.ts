import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One problem found in a request or a skill: where it is, what it is, and whether it blocks. */
export class FieldProblemDto {
  @ApiProperty({
    description:
      'Where: a request field (`namespace`), a part of the request (`body`, `content-type`), or a file and field of the bundle.',
    example: 'skill_manifest.yaml: version',
  })
  path: string;

  @ApiProperty({ example: 'version must be semver (1.2.3)' })
  message: string;

  @ApiProperty({ enum: ['error', 'warning'], example: 'error', description: 'Errors refuse the request.' })
  severity: 'error' | 'warning';
}

/**
 * The body of every refusal and failure (RFC 9457, `application/problem+json`). Members beyond
 * these are extensions the problem's code defines (`existing_bundle_sha256`, `limit`), so the
 * document allows them.
 */
export class ProblemDto {
  @ApiProperty({
    description:
      "A URI naming the problem: `https://skillhub.dev/problems/<code>` for the hub's own, else `about:blank`.",
    example: 'https://skillhub.dev/problems/skill-version-exists',
  })
  type: string;

  @ApiProperty({ description: "The HTTP status's reason phrase.", example: 'Conflict' })
  title: string;

  @ApiProperty({ type: 'integer', description: 'The HTTP status, repeated.', example: 409 })
  status: number;

  @ApiProperty({
    description: 'What went wrong and what to do, for a human.',
    example:
      'acme-labs/weather@1.0.0 is already published with other bytes; versions are immutable, publish a new version.',
  })
  detail: string;

  @ApiProperty({
    description:
      'The stable, machine-readable code (`SKILL.VERSION_EXISTS`); `HTTP.<status>` for refusals made before the hub read the request, `INTERNAL` for its own failures.',
    example: 'SKILL.VERSION_EXISTS',
  })
  code: string;

  @ApiPropertyOptional({
    description: 'The path of the request (without its query); absent when the request was not readable HTTP.',
    example: '/api/v1/skills',
  })
  instance?: string;

  @ApiPropertyOptional({ type: [FieldProblemDto], description: 'Every problem found, all at once.' })
  errors?: FieldProblemDto[];

  @ApiPropertyOptional({
    description: "The request's id, as in the hub's logs (and the X-Request-Id header).",
    example: '3f1c2a9e-6b4d-4f0a-9a51-0c8f7e2d1b6a',
  })
  request_id?: string;

  @ApiPropertyOptional({
    type: 'integer',
    description: 'With 429 and 503: seconds to wait before trying again (also sent as Retry-After).',
    example: 12,
  })
  retry_after?: number;
}
