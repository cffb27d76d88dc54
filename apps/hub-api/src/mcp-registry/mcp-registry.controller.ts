/**
 * The MCP Registry's read API, version v0.1, also under `/v0` as the registry still serves it
 * (docs/mcp-registry.md): `serverName` is reverse-DNS
 * with one slash, sent URL-encoded (`dev.skillhub.npm%2Fpkg`) as the registry specifies; the same
 * routes also answer it with the slash unencoded, as clients that build paths by hand send it.
 */
import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { ApiProblems } from '../common/dto/api-problems.decorator';
import { ListServersQueryDto, ServerVersionsQueryDto } from './dto/list-servers.request.dto';
import { ServerListDto, ServerResponseDto } from './dto/server-list.response.dto';
import { McpRegistryService } from './mcp-registry.service';
import { publicOrigin } from '../common/public-origin';

// Examples of path parameters are the document's own (PATH_EXAMPLES in api-document.ts).
const SERVER_NAME = { name: 'serverName', description: 'The server name, URL-encoded.' };
const VERSION = { name: 'version', description: 'An exact version, or `latest`.' };
const NAMESPACE = { name: 'namespace', description: 'The server name up to its slash.' };
const NAME = { name: 'name', description: 'The server name after its slash.' };

@ApiTags('mcp-registry')
@Controller(['v0.1/servers', 'v0/servers'])
export class McpRegistryController {
  constructor(
    private readonly registry: McpRegistryService,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'MCP servers that certified skills run, in server.json shape (MCP Registry v0.1)',
    description: 'Every version of every server, by name then version; certification under `_meta`.',
  })
  @ApiOkResponse({ type: ServerListDto })
  @ApiProblems({ 400: ['VALIDATION'] })
  list(@Query() query: ListServersQueryDto, @Req() req: Request): Promise<ServerListDto> {
    return this.registry.list(query, this.origin(req));
  }

  @Get(':serverName/versions')
  @ApiOperation({ summary: "A server's certified versions, newest published first" })
  @ApiParam(SERVER_NAME)
  @ApiOkResponse({ type: ServerListDto })
  @ApiProblems({ 400: ['VALIDATION'], 404: ['RECORD.NOT_FOUND'] })
  versions(
    @Param('serverName') name: string,
    @Query() _query: ServerVersionsQueryDto,
    @Req() req: Request,
  ): Promise<ServerListDto> {
    return this.registry.versions(name, this.origin(req));
  }

  @Get(':serverName/versions/:version')
  @ApiOperation({ summary: 'One certified version of a server, or its latest' })
  @ApiParam(SERVER_NAME)
  @ApiParam(VERSION)
  @ApiOkResponse({ type: ServerResponseDto })
  @ApiProblems({ 400: ['VALIDATION'], 404: ['RECORD.NOT_FOUND'] })
  version(
    @Param('serverName') name: string,
    @Param('version') version: string,
    @Query() _query: ServerVersionsQueryDto,
    @Req() req: Request,
  ): Promise<ServerResponseDto> {
    return this.registry.version(name, version, this.origin(req));
  }

  @Get(':namespace/:name/versions')
  @ApiOperation({ summary: "A server's certified versions, the name's slash unencoded" })
  @ApiParam(NAMESPACE)
  @ApiParam(NAME)
  @ApiOkResponse({ type: ServerListDto })
  @ApiProblems({ 400: ['VALIDATION'], 404: ['RECORD.NOT_FOUND'] })
  versionsUnencoded(
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Query() _query: ServerVersionsQueryDto,
    @Req() req: Request,
  ): Promise<ServerListDto> {
    return this.registry.versions(`${namespace}/${name}`, this.origin(req));
  }

  @Get(':namespace/:name/versions/:version')
  @ApiOperation({ summary: "One certified version of a server, the name's slash unencoded" })
  @ApiParam(NAMESPACE)
  @ApiParam(NAME)
  @ApiParam(VERSION)
  @ApiOkResponse({ type: ServerResponseDto })
  @ApiProblems({ 400: ['VALIDATION'], 404: ['RECORD.NOT_FOUND'] })
  versionUnencoded(
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Param('version') version: string,
    @Query() _query: ServerVersionsQueryDto,
    @Req() req: Request,
  ): Promise<ServerResponseDto> {
    return this.registry.version(`${namespace}/${name}`, version, this.origin(req));
  }

  /** Where the certificate links point: HUB_PUBLIC_URL, else the origin the client asked. */
  private origin(req: Request): string {
    return publicOrigin(req, this.config);
  }
}
