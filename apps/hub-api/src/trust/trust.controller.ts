import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthGuard, CurrentPrincipal, RequireAdmin, RequireScope } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import {
  CertificateResponseDto,
  CheckpointDto,
  ConsistencyQueryDto,
  DsseEnvelopeDto,
  InclusionQueryDto,
  KazmaSecretRequestDto,
  KeysResponseDto,
  LogEntryDto,
  ProofDto,
  RevokeRequestDto,
} from './dto/trust.dto';
import { ApiProblems, JSON_BODY, TOKEN_SCOPED } from '../common/dto/api-problems.decorator';
import { IndexParamPipe } from '../common/param.pipe';
import { TrustService } from './trust.service';

@ApiTags('trust')
@Controller()
export class TrustController {
  constructor(private readonly trust: TrustService) {}

  @Get('.well-known/skillhub/keys.json')
  @ApiOperation({ summary: "The hub's Ed25519 public keys with their validity windows (retired keys stay listed)" })
  @ApiOkResponse({ type: KeysResponseDto })
  @ApiProblems()
  keys(): Promise<KeysResponseDto> {
    return this.trust.publicKeys();
  }

  @Get('.well-known/skillhub/revocations.json')
  @ApiOperation({ summary: 'Signed list of revoked versions (DSSE), valid for one hour' })
  @ApiOkResponse({ type: DsseEnvelopeDto, description: 'A DSSE envelope whose payload lists every revocation.' })
  @ApiProblems()
  async revocations(@Res({ passthrough: true }) res: Response): Promise<object> {
    res.setHeader('Cache-Control', 'public, max-age=60');
    return this.trust.revocationList();
  }

  @Get('api/v1/log/checkpoint')
  @ApiOperation({ summary: "The transparency log's latest signed checkpoint" })
  @ApiOkResponse({ type: CheckpointDto })
  @ApiProblems({ 404: ['TRUST.NOT_FOUND'] })
  checkpoint(): Promise<CheckpointDto> {
    return this.trust.checkpoint();
  }

  @Get('api/v1/log/entries/:index')
  @ApiOperation({ summary: 'One log entry with the exact data hashed into its leaf' })
  @ApiOkResponse({ type: LogEntryDto })
  @ApiProblems({ 400: ['VALIDATION'], 404: ['TRUST.NOT_FOUND'] })
  entry(@Param('index', IndexParamPipe) index: number): Promise<LogEntryDto> {
    return this.trust.entry(index);
  }

  @Get('api/v1/log/proof/inclusion')
  @ApiOperation({ summary: 'Inclusion proof of entry `index` in the tree of size `tree_size`' })
  @ApiOkResponse({ type: ProofDto })
  @ApiProblems({ 400: ['VALIDATION', 'LOG.INVALID'], 404: ['TRUST.NOT_FOUND'] })
  inclusion(@Query() q: InclusionQueryDto): Promise<ProofDto> {
    return this.trust.inclusion(q);
  }

  @Get('api/v1/log/proof/consistency')
  @ApiOperation({ summary: 'Consistency proof between the trees of sizes `first` and `second`' })
  @ApiOkResponse({ type: ProofDto })
  @ApiProblems({ 400: ['VALIDATION', 'LOG.INVALID'], 404: ['TRUST.NOT_FOUND'] })
  consistency(@Query() q: ConsistencyQueryDto): Promise<ProofDto> {
    return this.trust.consistency(q);
  }

  @Get('api/v1/skills/:author/:name/versions/:version/certificate')
  @ApiOperation({ summary: "A version's signed certificate, its log entry and an inclusion proof" })
  @ApiOkResponse({ type: CertificateResponseDto })
  @ApiProblems({ 404: ['SKILL.NOT_FOUND', 'TRUST.NOT_FOUND'] })
  certificate(@Param('author') author: string, @Param('name') name: string, @Param('version') version: string) {
    return this.trust.certificate(author, name, version);
  }

  @Post('api/v1/skills/:author/:name/versions/:version/revoke')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  @RequireScope('manage')
  @ApiBearerAuth()
  @ApiOperation({ summary: "Revoke a version's certification (owner or operator; the reason goes into the log)" })
  @ApiOkResponse({ type: LogEntryDto, description: 'The revocation, as appended to the log.' })
  @ApiProblems(JSON_BODY, TOKEN_SCOPED, {
    404: ['SKILL.NOT_FOUND', 'TRUST.NOT_FOUND'],
    409: ['CERTIFICATE.CONFLICT'],
  })
  revoke(
    @CurrentPrincipal() principal: Principal,
    @Param('author') author: string,
    @Param('name') name: string,
    @Param('version') version: string,
    @Body() dto: RevokeRequestDto,
  ): Promise<LogEntryDto> {
    return this.trust.revoke(principal, author, name, version, dto.reason);
  }

  @Post('api/v1/admin/signing-keys/rotate')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  @RequireAdmin()
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Retire the signing key and start a new one (operator); certificates signed before stay valid',
  })
  @ApiOkResponse({ type: KeysResponseDto, description: 'The keys after the rotation: the new one, and the retired.' })
  @ApiProblems(TOKEN_SCOPED)
  async rotate(): Promise<KeysResponseDto> {
    await this.trust.rotateKey();
    return this.trust.publicKeys();
  }

  @Put('api/v1/namespaces/:slug/kazma-secret')
  @HttpCode(204)
  @UseGuards(AuthGuard)
  @RequireScope('manage')
  @ApiBearerAuth()
  @ApiOperation({ summary: "Register the namespace's Kazma HMAC secret (sealed with AES-256-GCM; never returned)" })
  @ApiNoContentResponse({ description: 'Stored; it replaces any earlier secret.' })
  @ApiProblems(JSON_BODY, TOKEN_SCOPED, { 404: ['TRUST.NOT_FOUND'] })
  async setSecret(
    @CurrentPrincipal() principal: Principal,
    @Param('slug') slug: string,
    @Body() dto: KazmaSecretRequestDto,
  ) {
    await this.trust.setKazmaSecret(principal, slug, dto.secret);
  }

  @Delete('api/v1/namespaces/:slug/kazma-secret')
  @HttpCode(204)
  @UseGuards(AuthGuard)
  @RequireScope('manage')
  @ApiBearerAuth()
  @ApiOperation({ summary: "Forget the namespace's Kazma HMAC secret" })
  @ApiNoContentResponse({ description: 'Forgotten (or there was none).' })
  @ApiProblems(TOKEN_SCOPED, { 404: ['TRUST.NOT_FOUND'] })
  async deleteSecret(@CurrentPrincipal() principal: Principal, @Param('slug') slug: string) {
    await this.trust.setKazmaSecret(principal, slug, null);
  }
}
