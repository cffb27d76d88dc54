import { Module } from '@nestjs/common';
import { McpRegistryController } from './mcp-registry.controller';
import { McpRegistryService } from './mcp-registry.service';

@Module({ controllers: [McpRegistryController], providers: [McpRegistryService] })
export class McpRegistryModule {}
