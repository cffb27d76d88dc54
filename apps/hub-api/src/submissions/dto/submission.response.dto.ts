import { ApiProperty } from '@nestjs/swagger';
import { SUBMISSION_STATUSES } from '@skillhub/database';
import { EXAMPLE } from '../../common/dto/api-examples';

/** The fields Kazma's CLI reads after `submit`, plus what a human needs to claim it. */
export class SubmitSkillResponseDto {
  @ApiProperty({ example: EXAMPLE.submissionId }) submission_id: string;
  @ApiProperty({ example: 'kazma-hub://acme-labs/weather@1.0.0' }) skill_id: string;
  @ApiProperty({ enum: [...SUBMISSION_STATUSES, 'expired'], example: 'quarantined' }) status: string;
  @ApiProperty({
    example:
      'Received kazma-hub://acme-labs/weather@1.0.0. It is quarantined (not listed, not installable) until an owner of namespace "acme-labs" claims it with a token; unclaimed, it expires at 2025-10-28T09:30:00.000Z.',
  })
  message: string;
  @ApiProperty({ description: 'When it is dropped unless claimed.', example: '2025-10-28T09:30:00.000Z' })
  expires_at: string;
  @ApiProperty({ example: `/api/v1/submissions/${EXAMPLE.submissionId}/claim` }) claim_url: string;
}
