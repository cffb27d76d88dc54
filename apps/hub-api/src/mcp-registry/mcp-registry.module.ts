import { Module } from '@nestjs/common';
import { McpRegistryController } from './mcp-registry.controller';
import { McpRegistryService } from './mcp-registry.service';
import { RegistryStatusController } from './registry-status.controller';

@Module({ controllers: [McpRegistryController, RegistryStatusController], providers: [McpRegistryService] })
export class McpRegistryModule {}
