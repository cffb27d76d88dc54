import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { UuidParamPipe } from '../common/param.pipe';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthGuard, CurrentPrincipal } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { CreateTokenRequestDto } from './dto/create-token.request.dto';
import { CreatedTokenResponseDto, TokenResponseDto } from './dto/token.response.dto';
import { TokensService } from './tokens.service';
import { ApiProblems, JSON_BODY, TOKEN_REQUIRED, TOKEN_SCOPED } from '../common/dto/api-problems.decorator';

@ApiTags('tokens')
@ApiBearerAuth()
@UseGuards(AuthGuard)
@Controller('api/v1/tokens')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Post()
  @ApiOperation({ summary: 'Create a publisher token (the secret is returned once)' })
  @ApiCreatedResponse({ type: CreatedTokenResponseDto })
  @ApiProblems(JSON_BODY, TOKEN_SCOPED, { 400: ['TOKEN.INVALID'] })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: CreateTokenRequestDto,
  ): Promise<CreatedTokenResponseDto> {
    return this.tokens.create(principal, dto);
  }

  @Get()
  @ApiOperation({ summary: 'List tokens (the operator sees all, a publisher its own); secrets are never returned' })
  @ApiOkResponse({ type: TokenResponseDto, isArray: true })
  @ApiProblems(TOKEN_REQUIRED)
  list(@CurrentPrincipal() principal: Principal): Promise<TokenResponseDto[]> {
    return this.tokens.list(principal);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke a token' })
  @ApiOkResponse({
    type: TokenResponseDto,
    description: 'The token, with revoked_at set; tokens it made are revoked too.',
  })
  @ApiProblems(TOKEN_REQUIRED, { 400: ['VALIDATION'], 404: ['TOKEN.NOT_FOUND'] })
  revoke(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string): Promise<TokenResponseDto> {
    return this.tokens.revoke(principal, id);
  }
}
