/**
 * The runtime's second step: Nest and everything the runtime service builds, loaded once the stdio
 * gateway (if any) already answers (main.ts).
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createLogger, type HubConfig, nestLogger } from '@skillhub/config';
import { AgentRuntimeModule } from './agent-runtime.module';
import type { RuntimeStart } from './runtime.service';

/** Its log goes to stderr: stdout may carry the gateway's MCP stdio stream. */
const STDERR = 2;

export async function startRuntime(config: HubConfig, start: RuntimeStart): Promise<void> {
  const app = await NestFactory.createApplicationContext(AgentRuntimeModule.forRoot(config, start), {
    logger: nestLogger(createLogger(config, { name: 'agent-runtime', fd: STDERR })),
  });
  app.enableShutdownHooks();
  new Logger('agent-runtime').log('ready');
}
