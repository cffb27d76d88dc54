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
  @ApiProperty({ enum: CERTIFICATION_LEVELS, description: '`none` unless a certificate holds now.' })
  level: CertificationLevel;
  @ApiProperty({ nullable: true, type: String }) issued_at: string | null;
  @ApiProperty({ nullable: true, type: String }) expires_at: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'boolean' }, description: 'Every requirement by name.' })
  requirements_met: Record<string, boolean>;
  @ApiProperty({ enum: CERTIFICATION_STATES }) status: CertificationState;
  @ApiPropertyOptional({ nullable: true, type: Number }) policy_version?: number | null;
  @ApiPropertyOptional({
    nullable: true,
    type: 'object',
    additionalProperties: true,
    description: 'Every finding with rule, file, line and fix hint (filled by the certifier).',
  })
  report?: object | null;
}
