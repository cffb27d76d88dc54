import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthGuard, CurrentPrincipal } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { ApiProblems, TOKEN_REQUIRED } from '../common/dto/api-problems.decorator';
import { WhoamiResponseDto } from './dto/whoami.response.dto';
import { WhoamiService } from './whoami.service';

@ApiTags('tokens')
@ApiBearerAuth()
@UseGuards(AuthGuard)
@Controller('api/v1/whoami')
export class WhoamiController {
  constructor(private readonly whoami: WhoamiService) {}

  @Get()
  @ApiOperation({
    summary: 'Who the bearer token is: its publisher, scopes, the namespaces it may publish to, and its expiry',
  })
  @ApiOkResponse({ type: WhoamiResponseDto })
  @ApiProblems(TOKEN_REQUIRED)
  get(@CurrentPrincipal() principal: Principal): Promise<WhoamiResponseDto> {
    return this.whoami.whoami(principal);
  }
}
