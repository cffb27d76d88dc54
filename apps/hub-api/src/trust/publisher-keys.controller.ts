import { Body, Controller, Delete, Get, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthGuard, CurrentPrincipal, RequireScope } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { PublisherKeyDto, PublisherKeysResponseDto, RegisterPublisherKeyRequestDto } from './dto/publisher-keys.dto';
import { PublisherKeysService } from './publisher-keys.service';
import { ApiProblems, JSON_BODY, TOKEN_SCOPED } from '../common/dto/api-problems.decorator';

@ApiTags('trust')
@Controller('api/v1/namespaces/:slug/publisher-keys')
export class PublisherKeysController {
  constructor(private readonly keys: PublisherKeysService) {}

  @Get()
  @ApiOperation({ summary: "The namespace's publisher keys (C14), removed ones included" })
  @ApiOkResponse({ type: PublisherKeysResponseDto })
  @ApiProblems({ 404: ['TRUST.NOT_FOUND'] })
  list(@Param('slug') slug: string): Promise<PublisherKeysResponseDto> {
    return this.keys.list(slug);
  }

  @Post()
  @UseGuards(AuthGuard)
  @RequireScope('manage')
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Register an Ed25519 publisher key; from then on every version must be signed by an active key',
  })
  @ApiCreatedResponse({ type: PublisherKeyDto })
  @ApiProblems(JSON_BODY, TOKEN_SCOPED, {
    400: ['PUBLISHER_KEY.INVALID'],
    404: ['TRUST.NOT_FOUND'],
    409: ['PUBLISHER_KEY.EXISTS', 'PUBLISHER_KEY.CONFLICT'],
  })
  register(
    @CurrentPrincipal() principal: Principal,
    @Param('slug') slug: string,
    @Body() dto: RegisterPublisherKeyRequestDto,
  ): Promise<PublisherKeyDto> {
    return this.keys.register(principal, slug, dto.public_key, dto.name ?? '');
  }

  @Delete(':keyId')
  @UseGuards(AuthGuard)
  @RequireScope('manage')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Remove a publisher key: signatures by it stop verifying (the record stays)' })
  @ApiOkResponse({ type: PublisherKeyDto, description: 'The key, with removed_at set.' })
  @ApiProblems(TOKEN_SCOPED, { 404: ['TRUST.NOT_FOUND'] })
  remove(
    @CurrentPrincipal() principal: Principal,
    @Param('slug') slug: string,
    @Param('keyId') keyId: string,
  ): Promise<PublisherKeyDto> {
    return this.keys.remove(principal, slug, keyId);
  }
}
