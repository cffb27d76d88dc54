import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { isURL, IsObject, IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';

/** `git@github.com:acme/weather.git`: how git itself writes an SSH remote. */
const SCP_LIKE_REMOTE = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^\s:]\S*$/;

const isSourceUrl = (value: unknown): boolean =>
  typeof value === 'string' &&
  (SCP_LIKE_REMOTE.test(value) ||
    isURL(value, { protocols: ['http', 'https', 'git', 'ssh', 'git+https', 'git+ssh'], require_tld: false }));

/**
 * Kazma's CLI sends `""` for an option left out (`--source-url` defaults to it): that is no value,
 * not an invalid one.
 */
const emptyAsAbsent = ({ value }: { value: unknown }): unknown => (value === '' ? undefined : value);

/** Exactly what Kazma's `kazma hub submit` sends. */
export class SubmitSkillRequestDto {
  @ApiProperty({
    description: 'The parsed skill_manifest.yaml.',
    type: 'object',
    additionalProperties: true,
    example: {
      name: 'weather',
      version: '1.0.0',
      description: 'Reports the current weather and a three-day forecast for a city.',
      author: 'acme-labs',
      license: 'MIT',
      entry_point: 'weather_skill:WeatherSkill',
    },
  })
  @IsObject()
  manifest: Record<string, unknown>;

  @ApiPropertyOptional({
    description:
      'Where the source lives: a URL, or a git remote such as `git@github.com:acme/weather.git`. `""` is none.',
    example: 'https://github.com/acme-labs/weather',
  })
  @Transform(emptyAsAbsent)
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @ValidateBy(
    { name: 'isSourceUrl', validator: { validate: isSourceUrl } },
    { message: 'source_url must be a URL or a git remote (user@host:path)' },
  )
  source_url?: string;

  @ApiPropertyOptional({
    description: 'The submitter\'s self-declared id (not authenticated). `""` is none.',
    example: 'alice@example.com',
  })
  @Transform(emptyAsAbsent)
  @IsOptional()
  @IsString()
  @MaxLength(200)
  submitter_id?: string;
}
