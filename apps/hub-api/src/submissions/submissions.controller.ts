import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Req,
  UploadedFile,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { AuthGuard, CurrentPrincipal, RequireScope } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { PublishResponseDto } from '../skills/dto/skill-version.response.dto';
import { SubmitSkillRequestDto } from './dto/submit-skill.request.dto';
import { SubmitSkillResponseDto } from './dto/submission.response.dto';
import { SubmissionsService } from './submissions.service';
import { clientAddress } from '../common/client-address';
import { UuidParamPipe } from '../common/param.pipe';
import { uploadedBundle } from '../common/uploaded-bundle';
import { BundleUploadInterceptor } from '../common/bundle-upload.interceptor';
import { ApiProblems, BUNDLE_BODY, JSON_BODY, TOKEN_SCOPED } from '../common/dto/api-problems.decorator';

@ApiTags('submissions')
@Controller('api/v1')
export class SubmissionsController {
  constructor(private readonly submissions: SubmissionsService) {}

  @Post('skills/submit')
  @HttpCode(201)
  @ApiOperation({
    summary: "Kazma's `hub submit`: unauthenticated, so the skill is quarantined until its namespace's owner claims it",
  })
  @ApiCreatedResponse({ type: SubmitSkillResponseDto })
  @ApiProblems(JSON_BODY, {
    422: ['SKILL.INVALID_MANIFEST'],
    429: ['SUBMISSION.RATE_LIMITED'],
    503: ['REQUEST.BUSY'],
  })
  submit(@Body() dto: SubmitSkillRequestDto, @Req() req: Request): Promise<SubmitSkillResponseDto> {
    return this.submissions.submit(dto, clientAddress(req));
  }

  @Get('submissions/:id')
  @ApiOperation({ summary: 'A submission and its state (quarantined, claimed or expired)' })
  @ApiOkResponse({ type: SubmitSkillResponseDto })
  @ApiProblems({ 400: ['VALIDATION'], 404: ['SUBMISSION.NOT_FOUND'] })
  get(@Param('id', UuidParamPipe) id: string): Promise<SubmitSkillResponseDto> {
    return this.submissions.get(id);
  }

  @Post('submissions/:id/claim')
  @HttpCode(201)
  @UseGuards(AuthGuard)
  @RequireScope('publish')
  @UseInterceptors(BundleUploadInterceptor)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Claim a submission for your namespace: send its bundle, or nothing when the manifest names no code',
  })
  @ApiConsumes('application/gzip', 'multipart/form-data')
  @ApiBody({
    required: false,
    description:
      'The bundle (as for POST /api/v1/skills), or no body: the hub then packs the submitted manifest alone.',
    schema: { type: 'string', format: 'binary' },
  })
  @ApiCreatedResponse({
    type: PublishResponseDto,
    description: 'Published under your namespace; certification is queued.',
  })
  @ApiProblems(BUNDLE_BODY, TOKEN_SCOPED, {
    400: ['VALIDATION'],
    403: ['NAMESPACE.FORBIDDEN'],
    404: ['SUBMISSION.NOT_FOUND'],
    409: ['SUBMISSION.CONFLICT', 'SKILL.VERSION_EXISTS'],
    410: ['SUBMISSION.GONE'],
  })
  claim(
    @Param('id', UuidParamPipe) id: string,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @UploadedFile() file?: Express.Multer.File,
  ): Promise<PublishResponseDto> {
    return this.submissions.claim(id, principal, uploadedBundle(req, file));
  }
}
