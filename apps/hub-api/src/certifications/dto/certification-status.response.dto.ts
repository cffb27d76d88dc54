import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CERTIFICATION_LEVELS, type CertificationLevel } from '@skillhub/database';

export const CERTIFICATION_STATES = [
  'pending',
  'certified',
  'failed',
  'inconclusive',
  'revoked',
  'expired',
  'quarantined',
] as const;
export type CertificationState = (typeof CERTIFICATION_STATES)[number];

/** Kazma's certification answer (`skill_id … requirements_met`), plus the state and the full report. */
export class CertificationStatusDto {
  @ApiProperty({ example: 'kazma-hub://acme-labs/weather@1.0.0' }) skill_id: string;
  @ApiProperty({
    enum: CERTIFICATION_LEVELS,
    description: '`none` unless a certificate holds now.',
    example: 'standard',
  })
  level: CertificationLevel;
  @ApiProperty({ nullable: true, type: String, example: '2025-10-21T09:30:00.000Z' }) issued_at: string | null;
  @ApiProperty({ nullable: true, type: String, example: '2026-10-21T09:30:00.000Z' }) expires_at: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'boolean' },
    description: 'Every requirement by name.',
    example: { manifest_valid: true, security_lint_pass: true, license_present: true, signature_valid: false },
  })
  requirements_met: Record<string, boolean>;
  @ApiProperty({ enum: CERTIFICATION_STATES, example: 'certified' }) status: CertificationState;
  @ApiPropertyOptional({ nullable: true, type: Number, example: 2 }) policy_version?: number | null;
  @ApiPropertyOptional({
    nullable: true,
    type: 'object',
    additionalProperties: true,
    description: 'Every finding with rule, file, line and fix hint (filled by the certifier).',
    example: {
      status: 'certified',
      level: 'basic',
      findings: [
        {
          rule: 'C5.unpinned-package',
          check: 'C5',
          severity: 'low',
          file: 'skill_manifest.yaml',
          line: 14,
          message: 'requests is not pinned to one version',
          fixHint: 'pin it: requests==2.32.3',
        },
      ],
    },
  })
  report?: object | null;
}
