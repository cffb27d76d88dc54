import { ApiProperty } from '@nestjs/swagger';
import { SUBMISSION_STATUSES } from '@skillhub/database';

/** The fields Kazma's CLI reads after `submit`, plus what a human needs to claim it. */
export class SubmitSkillResponseDto {
  @ApiProperty() submission_id: string;
  @ApiProperty({ example: 'kazma-hub://acme-labs/weather@1.0.0' }) skill_id: string;
  @ApiProperty({ enum: [...SUBMISSION_STATUSES, 'expired'] }) status: string;
  @ApiProperty() message: string;
  @ApiProperty() expires_at: string;
  @ApiProperty({ example: '/api/v1/submissions/7d9…/claim' }) claim_url: string;
}
