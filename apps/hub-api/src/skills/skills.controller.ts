import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
  UploadedFile,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiHeader,
  ApiNotModifiedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AuthGuard, CurrentPrincipal, RequireScope } from '../auth/auth.guard';
import { AuthService } from '../auth/auth.service';
import type { Principal } from '../auth/principal';
import { PublishSkillQueryDto } from './dto/publish-skill.request.dto';
import { PublishResponseDto, SkillResponseDto, SkillVersionResponseDto } from './dto/skill-version.response.dto';
import { UpdateVersionStatusRequestDto } from './dto/update-version-status.request.dto';
import { ValidateSkillResponseDto } from './dto/validate-skill.response.dto';
import { DownloadCounter } from './download-counter.service';
import { SkillPublisher } from './skill-publisher.service';
import { SkillsQueryService } from './skills-query.service';
import { MissingBodyError } from './skills.errors';
import { clientAddress } from '../common/client-address';
import { BundleUploadInterceptor } from '../common/bundle-upload.interceptor';
import {
  ApiProblems,
  BUNDLE_BODY,
  JSON_BODY,
  TOKEN_REQUIRED,
  TOKEN_SCOPED,
} from '../common/dto/api-problems.decorator';
import { EXAMPLE } from '../common/dto/api-examples';
import { uploadedBundle } from '../common/uploaded-bundle';

/** The multipart form's schema (its one field, `bundle`) is set by api-document.ts. */
const bundleBody = {
  description:
    'The bundle, a gzipped tar of one skill folder: as the body (application/gzip; application/x-gzip, ' +
    'application/x-tar+gzip and application/octet-stream are read the same), or as the multipart field `bundle`.',
  schema: { type: 'string', format: 'binary' },
};
const SHA256_HEADERS = {
  ETag: { description: 'The bundle\'s SHA-256 in quotes: `"<hex>"`.', schema: { type: 'string' } },
  'X-Content-SHA256': { description: "The bundle's SHA-256, hex.", schema: { type: 'string' } },
};

function bundleBytes(req: Request, file: Express.Multer.File | undefined): Buffer {
  const bytes = uploadedBundle(req, file);
  if (bytes === null) throw new MissingBodyError();
  return bytes;
}

@ApiTags('skills')
@Controller('api/v1/skills')
export class SkillsController {
  constructor(
    private readonly publisher: SkillPublisher,
    private readonly query: SkillsQueryService,
    private readonly auth: AuthService,
    private readonly downloads: DownloadCounter,
  ) {}

  @Post()
  @UseGuards(AuthGuard)
  @RequireScope('publish')
  @UseInterceptors(BundleUploadInterceptor)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Publish a version (201; 200 when the same bytes were already published; 409 for other bytes)',
  })
  @ApiConsumes('application/gzip', 'multipart/form-data')
  @ApiBody(bundleBody)
  @ApiCreatedResponse({ type: PublishResponseDto, description: 'Published; certification is queued.' })
  @ApiOkResponse({ type: PublishResponseDto, description: 'Already published with identical bytes.' })
  @ApiProblems(BUNDLE_BODY, TOKEN_SCOPED, {
    400: ['VALIDATION'],
    403: ['NAMESPACE.FORBIDDEN'],
    409: ['SKILL.VERSION_EXISTS'],
    429: ['REQUEST.RATE_LIMITED'],
  })
  async publish(
    @CurrentPrincipal() principal: Principal,
    @Query() query: PublishSkillQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @UploadedFile() file?: Express.Multer.File,
  ): Promise<PublishResponseDto> {
    const outcome = await this.publisher.publish(bundleBytes(req, file), principal, query);
    res.status(outcome.created ? 201 : 200);
    return outcome.response;
  }

  @Post('validate')
  @HttpCode(200)
  @UseInterceptors(BundleUploadInterceptor)
  @ApiOperation({
    summary: 'Dry run: the same checks as publish; stores nothing. A token, if sent, is checked for the namespace.',
  })
  @ApiSecurity({})
  @ApiBearerAuth()
  @ApiConsumes('application/gzip', 'multipart/form-data')
  @ApiBody(bundleBody)
  @ApiOkResponse({ type: ValidateSkillResponseDto })
  @ApiProblems(BUNDLE_BODY, TOKEN_REQUIRED, { 400: ['VALIDATION'], 429: ['REQUEST.RATE_LIMITED'] })
  async validate(
    @Query() query: PublishSkillQueryDto,
    @Req() req: Request,
    @Headers('authorization') authorization?: string,
    @UploadedFile() file?: Express.Multer.File,
  ): Promise<ValidateSkillResponseDto> {
    const principal = await this.auth.authenticate(authorization);
    return this.publisher.validate(bundleBytes(req, file), principal, query, clientAddress(req));
  }

  @Get(':author/:name')
  @ApiOperation({ summary: 'A skill with its versions (newest first) and its latest version in full' })
  @ApiOkResponse({ type: SkillResponseDto })
  @ApiProblems({ 404: ['SKILL.NOT_FOUND'] })
  getSkill(@Param('author') author: string, @Param('name') name: string): Promise<SkillResponseDto> {
    return this.query.getSkill(author, name);
  }

  @Get(':author/:name/versions/:version')
  @ApiOperation({ summary: 'One version' })
  @ApiOkResponse({ type: SkillVersionResponseDto })
  @ApiProblems({ 404: ['SKILL.NOT_FOUND'] })
  getVersion(@Param('author') author: string, @Param('name') name: string, @Param('version') version: string) {
    return this.query.getVersion(author, name, version);
  }

  @Get(':author/:name/versions/:version/bundle')
  @ApiOperation({ summary: "The version's bundle, byte for byte (ETag = its SHA-256)" })
  @ApiProduces('application/gzip')
  @ApiHeader({
    name: 'If-None-Match',
    required: false,
    description: 'The ETag of a copy already held.',
    example: `"${EXAMPLE.bundleSha256}"`,
  })
  @ApiOkResponse({
    description: 'The tar.gz bytes; check them against the ETag or X-Content-SHA256.',
    schema: { type: 'string', format: 'binary' },
    headers: SHA256_HEADERS,
  })
  @ApiNotModifiedResponse({ description: 'If-None-Match named this bundle.', headers: { ETag: SHA256_HEADERS.ETag } })
  @ApiProblems({ 404: ['SKILL.NOT_FOUND'] })
  async getBundle(
    @Param('author') author: string,
    @Param('name') name: string,
    @Param('version') version: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const bundle = await this.query.getBundle(author, name, version);
    const etag = `"${bundle.sha256}"`;
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Type', 'application/gzip');
    res.setHeader('Content-Disposition', `attachment; filename="${bundle.filename}"`);
    res.setHeader('X-Content-SHA256', bundle.sha256);
    res.status(200).end(bundle.content);
    this.downloads.record(bundle.versionId, bundle.skillId);
  }

  @Patch(':author/:name/versions/:version')
  @UseGuards(AuthGuard)
  @RequireScope('manage')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Deprecate, yank or restore a version (its bytes are never deleted)' })
  @ApiOkResponse({ type: SkillVersionResponseDto })
  @ApiProblems(JSON_BODY, TOKEN_SCOPED, { 404: ['SKILL.NOT_FOUND'] })
  setStatus(
    @CurrentPrincipal() principal: Principal,
    @Param('author') author: string,
    @Param('name') name: string,
    @Param('version') version: string,
    @Body() dto: UpdateVersionStatusRequestDto,
  ): Promise<SkillVersionResponseDto> {
    return this.query.setVersionStatus(principal, author, name, version, dto);
  }
}
