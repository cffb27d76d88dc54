/**
 * The MCP Registry's own small routes, so its clients and monitors find them here too: `ping`
 * (`{pong: true}`), `health` (`{status, version}`) and `version`, under `/v0.1` and the older `/v0`.
 * The hub's own readiness, with its database and queue, is `/api/v1/health/ready`.
 */
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/dto/api-problems.decorator';
import { HUB_VERSION } from '../hub-version';

class PingDto {
  @ApiProperty({ example: true }) pong: boolean;
}

class RegistryHealthDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' }) status: 'ok';
  @ApiProperty({ example: '0.1.0' }) version: string;
}

class RegistryVersionDto {
  @ApiProperty({ example: '0.1.0' }) version: string;
}

@ApiTags('mcp-registry')
@Controller(['v0.1', 'v0'])
export class RegistryStatusController {
  @Get('ping')
  @ApiOperation({ summary: "The MCP Registry's ping" })
  @ApiOkResponse({ type: PingDto })
  @ApiProblems()
  ping(): PingDto {
    return { pong: true };
  }

  @Get('health')
  @ApiOperation({ summary: "The MCP Registry's health: the hub answers (its readiness is /api/v1/health/ready)" })
  @ApiOkResponse({ type: RegistryHealthDto })
  @ApiProblems()
  health(): RegistryHealthDto {
    return { status: 'ok', version: HUB_VERSION };
  }

  @Get('version')
  @ApiOperation({ summary: "The hub's version, as the MCP Registry answers its own" })
  @ApiOkResponse({ type: RegistryVersionDto })
  @ApiProblems()
  version(): RegistryVersionDto {
    return { version: HUB_VERSION };
  }
}
