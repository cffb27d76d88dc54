import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/dto/api-problems.decorator';
import { UuidParamPipe } from '../common/param.pipe';
import { CertificationStatusService } from './certification-status.service';
import { CertificationStatusDto } from './dto/certification-status.response.dto';

/**
 * Kazma sends `GET /api/v1/skills/{id}/certification` with a submission id or a
 * `kazma-hub://` id; the Kazma paths middleware maps both onto these routes.
 */
@ApiTags('certification')
@Controller('api/v1')
export class CertificationsController {
  constructor(private readonly status: CertificationStatusService) {}

  @Get('skills/:author/:name/versions/:version/certification')
  @ApiOperation({
    summary:
      "A version's certification: Kazma's fields, the state and the full report (a version only submitted: quarantined)",
  })
  @ApiOkResponse({ type: CertificationStatusDto })
  @ApiProblems({ 404: ['SKILL.NOT_FOUND'] })
  forVersion(
    @Param('author') author: string,
    @Param('name') name: string,
    @Param('version') version: string,
  ): Promise<CertificationStatusDto> {
    return this.status.forSkillOrSubmission(author, name, version);
  }

  @Get('skills/:author/:name/certification')
  @ApiOperation({
    summary:
      "The listed version's certification (Kazma's `badge <author>/<name>`); a skill only submitted: quarantined",
  })
  @ApiOkResponse({ type: CertificationStatusDto })
  @ApiProblems({ 404: ['SKILL.NOT_FOUND'] })
  forSkill(@Param('author') author: string, @Param('name') name: string): Promise<CertificationStatusDto> {
    return this.status.forSkillOrSubmission(author, name);
  }

  @Get('submissions/:id/certification')
  @ApiOperation({ summary: "A Kazma submission's certification (Kazma's `status <submission_id>`)" })
  @ApiOkResponse({ type: CertificationStatusDto })
  @ApiProblems({ 400: ['VALIDATION'], 404: ['SUBMISSION.NOT_FOUND'] })
  forSubmission(@Param('id', UuidParamPipe) id: string): Promise<CertificationStatusDto> {
    return this.status.forSubmission(id);
  }
}
